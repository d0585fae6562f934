import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';

const root = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`demo stack exited (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`demo stack did not answer ${url} in time:\n${output()}`);
}

export interface DemoStack {
  url: string;
  sandboxUrl: string;
  stop(): Promise<void>;
}

/**
 * Runs what `npm start` runs (demo mode, fresh data dir, free ports) and waits until it answers.
 * With `dataDir`, runs over that data dir and leaves it in place when stopped (a restart).
 */
export async function startDemoStack(options: { dataDir?: string } = {}): Promise<DemoStack> {
  const [port, sandboxPort, botPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'ticket-e2e-'));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('DISCORD_') && key !== 'DATABASE_URL') env[key] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    env: { ...env, PORT: String(port), SANDBOX_PORT: String(sandboxPort), BOT_PORT: String(botPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://localhost:${port}`;
  await waitFor(`${url}/api/authentication/health`, child, () => log);
  return {
    url,
    sandboxUrl: `http://localhost:${sandboxPort}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One demo stack and one Chromium for the test file that calls it, started before its tests and
 * stopped after them. Read `stack` and `browser` inside the tests.
 */
export function useDemoStack(): { readonly stack: DemoStack; readonly browser: Browser } {
  let stack: DemoStack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    stack = await startDemoStack();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  return {
    get stack() {
      if (!stack) throw new Error('the demo stack is not running: use it inside a test');
      return stack;
    },
    get browser() {
      if (!browser) throw new Error('Chromium is not running: use it inside a test');
      return browser;
    },
  };
}
