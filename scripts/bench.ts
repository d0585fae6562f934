/**
 * `npm run bench [-- --small | --tickets N --messages M --servers S] [--duration SECONDS] [--db FILE]`
 * Seeds a SQLite database (1,000,000 tickets and 10,000,000 messages over 1,000 servers; with
 * --small a tenth of each), then measures at 16 concurrent clients, signed in as a staff member
 * of every server (a session token, as the dashboard sends): the ticket list as the dashboard asks for it
 * (pages of every server in turn, answers reused while unchanged), a bare Fastify JSON route in
 * the same run, then with no answer reused the list again and the full-text search; prints
 * p50/p99, throughput, the ratio to the bare route and the API process's memory (the most of
 * either process, each under its load). `--db FILE` keeps the
 * seeded database in FILE, and reuses it when FILE exists (seeded with the same counts).
 * `--node-flags="…"` replaces the V8 limits the API process runs with (the README's recommended ones).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { loadDemoFixtures } from '../apps/sandbox/src/index';
import { openDatabase } from '../apps/server/src/db/database';
import { benchServerIds, seed, signInStaff } from './bench/seed';

/** The API process's V8 limits that the README recommends for a deployment (see "Running it for real"). */
const PRODUCTION_NODE_FLAGS = '--max-old-space-size=192 --max-semi-space-size=8';

const { values } = parseArgs({
  options: {
    small: { type: 'boolean', default: false },
    tickets: { type: 'string' },
    messages: { type: 'string' },
    servers: { type: 'string' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    db: { type: 'string' },
    'node-flags': { type: 'string', default: PRODUCTION_NODE_FLAGS },
  },
});
const tickets = Number(values.tickets ?? (values.small ? 100_000 : 1_000_000));
const messagesPerTicket = Number(values.messages ?? 10);
const servers = Number(values.servers ?? (values.small ? 100 : 1000));
const duration = Number(values.duration);
const connections = Number(values.connections);
const nodeFlags = values['node-flags'].split(/\s+/).filter(Boolean);
const ADMIN_KEY = 'bench-operator-key';

const dir = mkdtempSync(path.join(tmpdir(), 'ticket-bench-'));
const file = values.db ? path.resolve(values.db) : path.join(dir, 'bench.db');
const here = path.dirname(new URL(import.meta.url).pathname);

function start(script: string, env: Record<string, string>, nodeFlags: string[] = []): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, script), { env: { ...process.env, ...env }, execArgv: [...nodeFlags, '--import', 'tsx'], stdio: 'inherit' });
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function measure(name: string, options: autocannon.Options) {
  const result = await autocannon({ connections, duration, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { name, p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average };
}

const serverIds = benchServerIds(servers);
if (values.db && existsSync(file)) {
  console.log(`reusing ${file}`);
} else {
  const t0 = Date.now();
  const database = await openDatabase(`sqlite://${file}`);
  await database.destroy();
  const userIds = loadDemoFixtures().users.map((u) => u.id);
  seed({ file, servers, tickets, messagesPerTicket, userIds });
  console.log(`seeded ${tickets.toLocaleString()} tickets, ${(tickets * messagesPerTicket).toLocaleString()} messages over ${servers} servers in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

const staffToken = signInStaff(file, serverIds);

const port = 3900;
const sandbox = await start('bench/sandbox.ts', { PORT: String(port + 1) });
const startApi = (env: Record<string, string> = {}) =>
  start(
    'bench/server.ts',
    { PORT: String(port), SANDBOX_URL: `http://127.0.0.1:${port + 1}`, DATABASE_URL: `sqlite://${file}`, ADMIN_KEYS: ADMIN_KEY, HOST: '127.0.0.1', ...env },
    nodeFlags,
  );
const headers = { authorization: `Bearer ${staffToken}`, 'content-type': 'application/json' };
const listUrl = (i: number) => `/api/support/servers/${serverIds[i % serverIds.length]}/tickets?Page=1&Amount=25`;
/** Warms the process the way a running dashboard has it: every server's list asked for once before. */
async function warm() {
  for (let i = 0; i < servers; i++) await fetch(`http://127.0.0.1:${port}${listUrl(i)}`, { headers });
}
function measureList(name: string) {
  let n = 0;
  return measure(name, { url: `http://127.0.0.1:${port}`, requests: [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: listUrl(n++) }) }] });
}

let api = await startApi();
try {
  await warm();
  const sample = await (await fetch(`http://127.0.0.1:${port}${listUrl(0)}`, { headers })).text();
  writeFileSync(path.join(dir, 'body.json'), sample);
  const bare = await start('bench/bare.ts', { PORT: String(port + 2), BODY_FILE: path.join(dir, 'body.json') });

  const list = await measureList('list (25 per page)');
  let rss = rssOf(api.pid!);
  const bareResult = await measure('bare Fastify JSON route', { url: `http://127.0.0.1:${port + 2}/bare` });
  bare.kill();

  // The same API with no answer reused: what each request costs when it is the first of its kind.
  // The search is measured here, so that every search runs (the same few texts come back often).
  api.kill();
  await new Promise((resolve) => api.once('exit', resolve));
  api = await startApi({ LIST_CACHE_MB: '0' });
  await warm();
  const uncached = await measureList('list, nothing reused (LIST_CACHE_MB=0)');
  let s = 0;
  const words = ['refund', 'invoice crash', 'login password', 'premium', 'billing error'];
  const search = await measure('full-text search, nothing reused', {
    url: `http://127.0.0.1:${port}`,
    requests: [
      {
        method: 'POST',
        headers,
        setupRequest: (req) => ({ ...req, path: `/api/support/servers/${serverIds[s % serverIds.length]}/search?Amount=25`, body: JSON.stringify({ text: words[s++ % words.length] }) }),
      },
    ],
  });
  rss = Math.max(rss, rssOf(api.pid!));

  console.log(`\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${connections} connections, ${duration} s each; list answers of ${(sample.length / 1024).toFixed(1)} KB; API run with \`${nodeFlags.join(' ') || 'no V8 flags'}\``);
  console.log('| call | p50 ms | p99 ms | requests/s |');
  console.log('|---|---|---|---|');
  for (const r of [list, uncached, search, bareResult]) console.log(`| ${r.name} | ${r.p50} | ${r.p99} | ${r.rps.toFixed(0)} |`);
  console.log(`\nlist throughput / bare route: ${(list.rps / bareResult.rps).toFixed(2)} (budget ≥ 0.5); nothing reused: ${(uncached.rps / bareResult.rps).toFixed(2)}`);
  console.log(`list p99 ${list.p99} ms (budget ≤ 25; nothing reused ${uncached.p99} ms), search p99 ${search.p99} ms (budget ≤ 50)`);
  console.log(`server resident memory under load: ${rss.toFixed(0)} MB (budget ≤ 250)`);
} finally {
  api.kill();
  sandbox.kill();
  rmSync(dir, { recursive: true, force: true });
}
