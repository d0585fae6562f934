/**
 * The processes `npm run bench` and `npm run soak` start: the sandbox from its sources, and the API
 * built, as a deployment runs it (one JavaScript file, no compiler in the process).
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { loadDemoFixtures } from '../../apps/sandbox/src/index';
import { buildServer } from '../build-server';

/**
 * Starts a script from its sources (tsx; a path under scripts/), or a built file as it is (`.mjs`), and
 * waits for its first message (it is ready).
 */
export function startProcess(script: string, env: Record<string, string>, flags: string[] = []): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const built = script.endsWith('.mjs');
    const file = built ? script : path.join(import.meta.dirname, '..', script);
    const child = fork(file, { env: { ...process.env, ...env }, execArgv: built ? flags : [...flags, '--import', 'tsx'], stdio: 'inherit' });
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${path.basename(script)} exited with ${code}`)));
  });
}

/** Stops a process as a deployment would (SIGTERM) and waits for it to exit; its exit code. */
export function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(force);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

/** bench/server.ts built beside the production build (apps/server/dist), where the server finds the files it reads. */
export function buildBenchApi(): Promise<string> {
  return buildServer('scripts/bench/server.ts', 'apps/server/dist/bench-server.mjs');
}

/** The sandbox's application, for the API processes (bench/server.ts) to sign in to the platform with. */
export function sandboxApplicationEnv(): Record<string, string> {
  const { application } = loadDemoFixtures();
  return { DISCORD_CLIENT_ID: application.clientId, DISCORD_CLIENT_SECRET: application.clientSecret, DISCORD_BOT_TOKEN: application.botToken };
}
