import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { buildServer } from '../../../../scripts/build-server';
import { sandboxPlatformEnv, type Sandbox } from './harness';

/**
 * The API as real processes (main.ts, built as a deployment runs it), for tests of what only processes
 * show: a kill -9, several instances on one database and one Redis.
 */

/**
 * main.ts built as a deployment runs it (`npm run build`), once per test process, beside the
 * production build in apps/server/dist (where the server finds the files it reads). Test files
 * running at once each build it under a name of their own and move it into place: a process
 * always starts from a whole file.
 */
let built: Promise<string> | null = null;
function builtMain(): Promise<string> {
  built ??= (async () => {
    const own = await buildServer('apps/server/src/main.ts', `apps/server/dist/main-test-${process.pid}-${randomBytes(4).toString('hex')}.mjs`);
    const file = path.join(path.dirname(own), 'main-test.mjs');
    renameSync(`${own}.map`, `${file}.map`);
    renameSync(own, file);
    return file;
  })();
  return built;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A database of its own for the processes: a SQLite file in `dir`, or a new PostgreSQL database (from TEST_DATABASE_URL) dropped afterwards. */
export async function ownDatabase(engine: 'sqlite' | 'postgres', dir: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (engine === 'sqlite') return { url: `sqlite://${path.join(dir, 'dashboard.db')}`, drop: async () => undefined };
  const base = process.env.TEST_DATABASE_URL!;
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** What an API process needs to run against the sandbox in production mode, on the given data. */
export function apiEnv(sandbox: Sandbox, own: { databaseUrl: string; dataDir: string; port: number; encryptionKey: string }): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    ...sandboxPlatformEnv(sandbox),
    ENCRYPTION_KEY: own.encryptionKey,
    DATABASE_URL: own.databaseUrl,
    DATA_DIR: own.dataDir,
    HOST: '127.0.0.1',
    PORT: String(own.port),
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIR: '',
    LOG_LEVEL: 'warn',
  };
}

export interface ApiProcess {
  process: ChildProcess;
  url: string;
  exited: Promise<void>;
  /** Stops it as a deployment would (SIGTERM) and waits until it is gone; nothing when it already is. */
  stop(): Promise<void>;
}

/** Starts main.ts, built, in a process of its own and waits until it answers. */
export async function startApi(env: NodeJS.ProcessEnv, port: number): Promise<ApiProcess> {
  const child = spawn(process.execPath, [await builtMain()], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}): ${errors}`);
    const up = await fetch(`${url}/api/support/health`).then((r) => r.ok, () => false);
    if (up) return { process: child, url, exited, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the API did not answer within 30 s: ${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
