/**
 * The API under test, in its own process so its memory can be measured alone. It stops as the
 * server does on SIGTERM (closes, then exits normally, so a `--cpu-prof` profile is written),
 * and also when the bench that started it goes away.
 */
import cluster, { type Worker } from 'node:cluster';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker as Thread } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config';
import type { ReaderStatement } from '../../apps/server/src/db/sqlite-reader';
import { startServer } from '../../apps/server/src/server';

/** One statement the API sent to the database, with its parameters. */
export interface RecordedQuery {
  sql: string;
  parameters: unknown[];
}

/**
 * BENCH_RECORD_SQL (`--explain`): between the bench's 'record-start' and 'record-stop' messages,
 * the statements the API sends to either engine's driver are recorded (the drivers' calls are
 * wrapped for that time only) and sent back to the bench, so that the plans it prints are those
 * of the SQL the server runs. SQLite's reader (db/sqlite-reader.ts) runs its statements on a
 * thread of its own, with its own driver: they are recorded as they are posted to that thread.
 */
function recordQueries(): void {
  const probe = new SQLite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (this: SQLite.Statement, ...args: unknown[]) => unknown>;
  probe.close();
  const client = pg.Client.prototype as unknown as Record<string, (this: pg.Client, ...args: unknown[]) => unknown>;
  const sqliteCalls = ['all', 'get', 'run', 'iterate'];
  const query = client.query!;
  const calls = new Map(sqliteCalls.map((name) => [name, statement[name]!]));
  const thread = Thread.prototype as unknown as { postMessage: (this: Thread, message: unknown, ...rest: unknown[]) => void };
  const post = thread.postMessage;
  let recorded: RecordedQuery[] = [];
  const start = () => {
    recorded = [];
    client.query = function (...args) {
      const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
      recorded.push(typeof config === 'string' ? { sql: config, parameters: values ?? [] } : { sql: config.text, parameters: values ?? config.values ?? [] });
      return query.apply(this, args);
    };
    thread.postMessage = function (message, ...rest) {
      const { sql, parameters } = (message ?? {}) as Partial<ReaderStatement>;
      if (typeof sql === 'string' && Array.isArray(parameters)) recorded.push({ sql, parameters: [...parameters] });
      return post.call(this, message, ...rest);
    };
    for (const name of sqliteCalls) {
      statement[name] = function (...args) {
        recorded.push({ sql: this.source, parameters: args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args });
        return calls.get(name)!.apply(this, args);
      };
    }
  };
  const stop = () => {
    client.query = query;
    thread.postMessage = post;
    for (const [name, call] of calls) statement[name] = call;
  };
  process.on('message', (message) => {
    if (message === 'record-start') {
      start();
      process.send?.('recording');
    } else if (message === 'record-stop') {
      stop();
      process.send?.({ queries: recorded });
    }
  });
}

/**
 * Profiled (`--cpu-prof-dir`): positions in the built file (bench and soak run this script built,
 * scripts/bench/processes.ts) are not the sources' lines. Its source map, with the sources as file
 * URLs, goes beside the profile (CPU-sourcemaps.<pid>.json), and profile-summary.ts reads the
 * positions through it.
 */
function writeSourceMapsOnExit(profileDir: string): void {
  process.once('exit', () => {
    const self = fileURLToPath(import.meta.url);
    const payload = JSON.parse(readFileSync(`${self}.map`, 'utf8')) as { sources: string[] };
    const sources = payload.sources.map((source) => pathToFileURL(path.resolve(path.dirname(self), source)).href);
    const maps = { [import.meta.url]: { ...payload, sources, sourcesContent: undefined } };
    writeFileSync(path.join(profileDir, `CPU-sourcemaps.${process.pid}.json`), JSON.stringify(maps));
  });
}

if (process.env.BENCH_RECORD_SQL) recordQueries();
const profileDir = process.execArgv.find((arg) => arg.startsWith('--cpu-prof-dir='))?.slice('--cpu-prof-dir='.length);
if (profileDir) writeSourceMapsOnExit(profileDir);

// The sandbox's application (DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET, DISCORD_BOT_TOKEN) comes from the bench.
const sandbox = process.env.SANDBOX_URL!;
const config = loadConfig({
  ...process.env,
  DISCORD_API_URL: `${sandbox}/api`,
  DISCORD_AUTHORIZE_URL: `${sandbox}/oauth2/authorize`,
  ENCRYPTION_KEY: '11'.repeat(32),
  LOG_LEVEL: 'silent',
  WEB_DIR: '',
  RATE_LIMIT_MAX: '100000000',
});
const processes = Number(process.env.BENCH_PROCESSES ?? 1);
if (processes > 1 && cluster.isPrimary) {
  // `--processes N`: N API processes share the port (node's cluster hands each new connection to
  // the next), standing in for N processes behind a load balancer. They start one after another,
  // so that one of them alone runs any migration. This process only starts and stops them.
  const workers: Worker[] = [];
  for (let i = 0; i < processes; i++) {
    const worker = cluster.fork();
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('exit', (code) => reject(new Error(`API process ${i + 1} exited with ${code}`)));
    });
    workers.push(worker);
  }
  const stopAll = async () => {
    await Promise.all(workers.map((worker) => new Promise((resolve) => (worker.isDead() ? resolve(null) : (worker.once('exit', resolve), worker.kill('SIGTERM'))))));
    process.exit(0);
  };
  process.once('SIGTERM', () => void stopAll());
  process.once('disconnect', () => void stopAll());
  process.send?.('ready');
} else {
  await startServer(config);
  if (cluster.isPrimary) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  process.send?.('ready');
}
