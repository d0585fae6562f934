/**
 * `npm run bench [-- OPTIONS]`
 * Seeds a database with 1,000,000 tickets and 10,000,000 messages over 1,000 servers (`--small`: a
 * tenth of each; or `--tickets N --messages PER_TICKET --servers S`), then measures the API at 16
 * concurrent clients (`--connections`), `--duration SECONDS` (10) per call, each client signed in
 * with a session token as the dashboard sends it:
 * - with answers reused: the staff ticket list as the dashboard asks for it (first pages of every
 *   server in turn), and a bare Fastify JSON route serving a page of the same size, the yardstick;
 * - with no answer reused (LIST_CACHE_MB=0): the list again, the full-text search, each call of the
 *   staff dashboard's statistics screen (a 30-day range covering every seeded ticket, and the
 *   all-time rankings, server after server) and the personal tickets of members who have tickets
 *   on several servers (each seeded author in turn): their list, its servers, and their search of
 *   their own tickets (reported, with no budget);
 * and prints for each call p50, p99, requests/s, the ratio to the bare route, its budget and
 * whether it is met, the API process's peak resident memory, and the machine and engine.
 *
 * Both engines get the same rows: the database is migrated with the server's migrations up to
 * the seed's schema (bench/seed.ts SEED_SCHEMA), seeded, then migrated to the latest, so that what
 * later migrations keep beside tickets and messages is derived from the seeded rows.
 * `--engine sqlite|postgres` (sqlite). SQLite: a new file in a temporary directory, or `--db FILE`,
 * which keeps it and is reused when it holds the same counts (`--reseed` seeds it again); ANALYZE
 * after seeding, and its search indexes merged as a running API keeps them. PostgreSQL: the database of `--database-url` or DATABASE_URL (e.g.
 * postgres://postgres@127.0.0.1:5432/bench; created through the `test` database when missing,
 * never `test` itself), seeded by the database itself (insert … select from generate_series, keys
 * and indexes built after the load; needs a superuser), then VACUUM (ANALYZE); a database the
 * bench seeded with the same counts is reused unless `--reseed`, and one holding tickets it did
 * not seed is refused.
 * `--explain` prints the plans of the statements the API sends for one list page, one search and
 * one personal list (PostgreSQL: EXPLAIN (ANALYZE, BUFFERS); SQLite: EXPLAIN QUERY PLAN).
 * `--cpu-prof` runs the API with `--cpu-prof` during the nothing-reused phase and prints where the
 * .cpuprofile went (`--cpu-prof-dir DIR`, default a directory under the system's temporary one);
 * `npx tsx scripts/bench/profile-summary.ts FILE` summarises it.
 * `--node-flags="…"` replaces the V8 limits the API process runs with (the README's recommended ones).
 * `--only list,search,statistics,personal` measures only those calls in the nothing-reused phase
 * (all by default), e.g. to profile one of them.
 * `--processes N` runs the API as N processes sharing its port (node's cluster hands each connection
 * to the next), as N processes behind a load balancer would be, with Redis for what they share
 * (`--redis-url`, REDIS_URL, or redis://127.0.0.1:6379); memory is then the largest process's.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { loadDemoFixtures } from '../apps/sandbox/src/index';
import { isPostgresUrl, openDatabase, type Database } from '../apps/server/src/db/database';
import { mergeSearchIndexes } from '../apps/server/src/db/search-index';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { printPlans } from './bench/explain';
import { buildBenchApi, sandboxApplicationEnv, startProcess as start, stopProcess as stop } from './bench/processes';
import type { RecordedQuery } from './bench/server';
import { ensurePostgresDatabase, seedPostgres, seededWith } from './bench/seed-postgres';
import { SEED_SCHEMA, benchServerIds, lastSeededDay, recountInstallation, seedSqlite, seededCounts, signIn } from './bench/seed';
import { NODE_FLAGS_OPTION, nodeFlagsOf } from './node-flags';

const { values } = parseArgs({
  options: {
    small: { type: 'boolean', default: false },
    tickets: { type: 'string' },
    messages: { type: 'string' },
    servers: { type: 'string' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    engine: { type: 'string', default: 'sqlite' },
    db: { type: 'string' },
    'database-url': { type: 'string' },
    reseed: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    'cpu-prof-dir': { type: 'string' },
    'node-flags': NODE_FLAGS_OPTION,
    processes: { type: 'string', default: '1' },
    'redis-url': { type: 'string' },
    only: { type: 'string' },
  },
});
const engine = values.engine;
if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`--engine is sqlite or postgres, not ${engine}`);
const tickets = Number(values.tickets ?? (values.small ? 100_000 : 1_000_000));
const messagesPerTicket = Number(values.messages ?? 10);
const servers = Number(values.servers ?? (values.small ? 100 : 1000));
const duration = Number(values.duration);
const connections = Number(values.connections);
const processes = Number(values.processes);
if (!Number.isInteger(processes) || processes < 1) throw new Error(`--processes is a whole number from 1, not ${values.processes}`);
// Several API processes share their state (rate limits, caches, role changes) through Redis, as in a deployment of several.
const redisUrl = values['redis-url'] ?? process.env.REDIS_URL ?? (processes > 1 ? 'redis://127.0.0.1:6379' : undefined);
if (processes > 1 && (values.explain || values['cpu-prof'])) throw new Error('--explain and --cpu-prof look at one API process: leave out --processes');
const nodeFlags = nodeFlagsOf(values['node-flags']);
const KINDS = ['list', 'search', 'statistics', 'personal'] as const;
const only = values.only?.split(',').map((k) => k.trim()) ?? [...KINDS];
for (const kind of only) if (!(KINDS as readonly string[]).includes(kind)) throw new Error(`--only takes ${KINDS.join(', ')} (comma-separated), not ${kind}`);
/** Whether the nothing-reused phase measures calls of this kind (all of them unless `--only`). */
const measures = (kind: (typeof KINDS)[number]) => only.includes(kind);
const ADMIN_KEY = 'bench-operator-key';

const dir = mkdtempSync(path.join(tmpdir(), 'ticket-bench-'));
// The temporary directory (with the seeded SQLite file unless --db kept it elsewhere) goes however the bench ends.
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const serverIds = benchServerIds(servers);
const userIds = loadDemoFixtures().users.map((u) => u.id);
const seedOptions = { servers, tickets, messagesPerTicket, userIds };
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
const seededLine = () => `${tickets.toLocaleString()} tickets, ${(tickets * messagesPerTicket).toLocaleString()} messages over ${servers.toLocaleString()} servers`;

// --- The database -------------------------------------------------------------------------------

let databaseUrl: string;
let database: Database;
let engineLine: string;
if (engine === 'sqlite') {
  if (values['database-url']) throw new Error('--database-url is for --engine postgres; SQLite takes --db FILE');
  const file = values.db ? path.resolve(values.db) : path.join(dir, 'bench.db');
  databaseUrl = `sqlite://${file}`;
  if (values.reseed) for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  if (existsSync(file)) {
    database = await openDatabase(databaseUrl);
    const held = await seededCounts(database.db);
    if (held.servers !== servers || held.tickets !== tickets || held.messages !== tickets * messagesPerTicket) {
      throw new Error(`${file} holds ${held.tickets} tickets and ${held.messages} messages over ${held.servers} servers, not ${seededLine()}: --reseed seeds it again`);
    }
    console.log(`reusing ${file}`);
    // A file an earlier bench seeded may lack the installation's counters or the planner's statistics.
    const counted = await database.db.selectFrom('counters').select('value').where('name', '=', 'messages').executeTakeFirst();
    if (Number(counted?.value ?? 0) !== held.messages) await recountInstallation(database.db);
    const analyzed = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(database.db);
    if (Number(analyzed.rows[0]?.n) === 0) await sql`analyze`.execute(database.db);
  } else {
    const t0 = Date.now();
    const empty = await openDatabase(databaseUrl, { migrate: false });
    await migrateToLatest(empty.db, 'sqlite', SEED_SCHEMA);
    await empty.destroy();
    seedSqlite(file, seedOptions);
    const t1 = Date.now();
    database = await openDatabase(databaseUrl);
    console.log(`  loaded in ${((t1 - t0) / 1000).toFixed(0)} s, later migrations in ${seconds(t1)}`);
    const t2 = Date.now();
    await sql`analyze`.execute(database.db);
    console.log(`seeded ${seededLine()} in ${seconds(t0)} (ANALYZE ${seconds(t2)})`);
  }
  // As a running API keeps them (hourly, db/search-index.ts): at once when they are already merged.
  const t3 = Date.now();
  const steps = await mergeSearchIndexes(database.db, 'sqlite');
  console.log(`search indexes merged in ${steps} steps, ${seconds(t3)}`);
  const version = await sql<{ v: string }>`select sqlite_version() as v`.execute(database.db);
  engineLine = `SQLite ${version.rows[0]!.v} (${file})`;
} else {
  if (values.db) throw new Error('--db is for --engine sqlite; PostgreSQL takes --database-url or DATABASE_URL');
  const url = values['database-url'] ?? process.env.DATABASE_URL;
  if (!url || !isPostgresUrl(url)) throw new Error('--engine postgres needs --database-url or DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/bench');
  databaseUrl = url;
  const where = `${new URL(url).host}${new URL(url).pathname}`;
  await ensurePostgresDatabase(url);
  const marker = await seededWith(url);
  if (!values.reseed && marker?.complete === 1 && marker.servers === servers && marker.tickets === tickets && marker.messages_per_ticket === messagesPerTicket) {
    console.log(`reusing ${where} (seeded with ${seededLine()})`);
  } else {
    const t0 = Date.now();
    console.log(`seeding ${where} with ${seededLine()}`);
    await seedPostgres(url, seedOptions, (line) => console.log(line));
    console.log(`seeded ${seededLine()} in ${seconds(t0)}`);
  }
  database = await openDatabase(url);
  const version = await sql<{ server_version: string }>`show server_version`.execute(database.db);
  engineLine = `PostgreSQL ${version.rows[0]!.server_version} (${where})`;
}

const { staffToken, memberTokens } = await signIn(database.db, serverIds, userIds);
await database.destroy();

/** The seeded authors' tickets: author k wrote tickets k, k + U, k + 2U, … (U authors), on servers t mod S. */
const perMember = (() => {
  const own = Array.from({ length: tickets }, (_, t) => t).filter((t) => t % userIds.length === 0);
  return { tickets: own.length, servers: new Set(own.map((t) => t % servers)).size };
})();

// --- The processes ------------------------------------------------------------------------------

/**
 * The most memory an API process has held resident since it started (VmHWM), in MB: the process
 * itself, or with `--processes`, the largest of the API processes it started.
 */
function peakRssOf(pid: number): number {
  const peak = (p: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  if (processes === 1) return peak(pid);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return Math.max(...children.map(peak));
}

interface Budget {
  p99?: number;
  ratio?: number;
}
interface Result {
  name: string;
  p50: number;
  p99: number;
  rps: number;
  budget: Budget;
  /** Requests that got no answer within autocannon's 10 s (a call without a budget is reported with them). */
  timeouts: number;
}

/** Whether a call has a budget to meet; one without is only reported. */
const hasBudget = (budget: Budget) => budget.p99 !== undefined || budget.ratio !== undefined;

async function measure(name: string, budget: Budget, options: autocannon.Options): Promise<Result> {
  const result = await autocannon({ connections, duration, ...options });
  // autocannon counts requests unanswered in time among its errors: a call without a budget may have them, and no other error.
  const failed = result.non2xx > 0 || result.errors > (hasBudget(budget) ? 0 : result.timeouts);
  if (failed) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors (${result.timeouts} of them unanswered requests)`);
  return { name, p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average, budget, timeouts: result.timeouts };
}

const port = 3900;
const base = `http://127.0.0.1:${port}`;
const headers = { authorization: `Bearer ${staffToken}`, 'content-type': 'application/json' };

/** One request of a call: its path, and its body and caller when they differ from the staff member's GET. */
interface Call {
  path: string;
  body?: string;
  token?: string;
}
type Calls = (n: number) => Call;

const listCall: Calls = (n) => ({ path: `/api/support/servers/${serverIds[n % servers]}/tickets?Page=1&Amount=25` });
const words = ['refund', 'invoice crash', 'login password', 'premium', 'billing error'];
const searchOf = (server: number, text: string): Call => ({ path: `/api/support/servers/${serverIds[server % servers]}/search?Amount=25`, body: JSON.stringify({ text }) });
const searchCall: Calls = (n) => searchOf(n, words[n % words.length]!);
const endDate = lastSeededDay(tickets);
const startDate = new Date(Date.parse(`${endDate}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
const range = `startDate=${startDate}&endDate=${endDate}`;
const stats = (suffix: string): Calls => (n) => ({ path: `/api/support/servers/${serverIds[n % servers]}/stats/${suffix}` });
/** The calls of the staff dashboard's statistics screen, as it makes them for the last 30 days. */
const statsCalls: [string, Calls][] = [
  ['getTopSimpleStats', stats('top/simple')],
  ['getDailyTicketStats, 30 days', stats(`daily/tickets?${range}`)],
  ['getDailyMessageStats, 30 days', stats(`daily/messages?${range}`)],
  ['getDailyResponseTimeStats, 30 days', stats(`daily/response-time?${range}`)],
  ['getTopSubjects, 30 days', stats(`top/subjects?Page=1&Amount=5&${range}`)],
  ['getTopSubjects, all time', stats('top/subjects?Page=1&Amount=5')],
  ['getTopSupporters, all time', stats('top/supporters?Page=1&Amount=5')],
];
const memberToken = (n: number) => memberTokens[n % memberTokens.length];
const personalCall: Calls = (n) => ({ path: '/api/support/personal/tickets?Page=1&Amount=25', token: memberToken(n) });
/** A member's search of their own tickets, over every server they have tickets on (each seeded author in turn). */
const personalSearchCall: Calls = (n) => ({ path: '/api/support/personal/tickets/search?Amount=25', body: JSON.stringify({ text: words[n % words.length] }), token: memberToken(n) });
/** The servers of a member's tickets, the filter their own list shows beside it. */
const personalServersCall: Calls = (n) => ({ path: '/api/support/personal/tickets/servers?Page=1&Amount=25', token: memberToken(n) });

/** A request of the call, with headers of its own (autocannon adds the body's length to the object it is given). */
function requestOf(call: Call): { path: string; method: 'GET' | 'POST'; body?: string; headers: Record<string, string> } {
  return {
    path: call.path,
    method: call.body === undefined ? 'GET' : 'POST',
    ...(call.body === undefined ? {} : { body: call.body }),
    headers: { ...headers, ...(call.token ? { authorization: `Bearer ${call.token}` } : {}) },
  };
}

function measureCalls(name: string, budget: Budget, calls: Calls): Promise<Result> {
  let n = 0;
  return measure(name, budget, { url: base, requests: [{ setupRequest: (req) => ({ ...req, ...requestOf(calls(n++)) }) }] });
}

/** The next message from the process that `accept` takes. */
function messageFrom<T>(child: ChildProcess, accept: (message: unknown) => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const on = (message: unknown) => {
      const taken = accept(message);
      if (taken === undefined) return;
      child.off('message', on);
      resolve(taken);
    };
    child.on('message', on);
  });
}

/** The statements the API sends to the database while it answers one request of the call (BENCH_RECORD_SQL). */
async function statementsOf(child: ChildProcess, call: Call): Promise<RecordedQuery[]> {
  const recording = messageFrom(child, (m) => (m === 'recording' ? true : undefined));
  child.send('record-start');
  await recording;
  await warm(() => call, 1);
  const recorded = messageFrom(child, (m) => (typeof m === 'object' && m !== null && 'queries' in m ? (m as { queries: RecordedQuery[] }).queries : undefined));
  child.send('record-stop');
  return recorded;
}

/** Asks each of the first `count` requests of a call once, in turn, as a running dashboard has asked them before. */
async function warm(calls: Calls, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    const { path: url, ...init } = requestOf(calls(n));
    const response = await fetch(`${base}${url}`, init);
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  }
}

const sandbox = await start('bench/sandbox.ts', { PORT: String(port + 1) });
const apiFile = await buildBenchApi();
const startApi = (env: Record<string, string> = {}, flags: string[] = []) =>
  start(
    apiFile,
    {
      ...sandboxApplicationEnv(),
      PORT: String(port),
      SANDBOX_URL: `http://127.0.0.1:${port + 1}`,
      DATABASE_URL: databaseUrl,
      ADMIN_KEYS: ADMIN_KEY,
      HOST: '127.0.0.1',
      ...(values.explain ? { BENCH_RECORD_SQL: '1' } : {}),
      ...(processes > 1 ? { BENCH_PROCESSES: String(processes) } : {}),
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      ...env,
    },
    [...nodeFlags, ...flags],
  );
const profileDir = values['cpu-prof'] ? path.resolve(values['cpu-prof-dir'] ?? path.join(tmpdir(), 'ticket-bench-profiles')) : null;
if (profileDir) mkdirSync(profileDir, { recursive: true });

let api: ChildProcess | null = null;
let bare: ChildProcess | null = null;
try {
  api = await startApi();
  await warm(listCall, servers);
  const sample = await (await fetch(`${base}${listCall(0).path}`, { headers })).text();
  writeFileSync(path.join(dir, 'body.json'), sample);
  bare = await start('bench/bare.ts', { PORT: String(port + 2), BODY_FILE: path.join(dir, 'body.json') });

  const results: Result[] = [];
  results.push(await measureCalls('list (25 per page), answers reused', { p99: 25, ratio: 0.5 }, listCall));
  let peak = peakRssOf(api.pid!);
  const bareResult = await measure('bare Fastify JSON route', {}, { url: `http://127.0.0.1:${port + 2}/bare` });
  await stop(bare);
  bare = null;
  await stop(api);

  // The same API with no answer reused: what each request costs when it is the first of its kind.
  // The search is measured here, so that every search runs (the same few texts come back often).
  api = await startApi({ LIST_CACHE_MB: '0' }, profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
  const profiled = api.pid!;
  if (values.explain) {
    const serverIndex = Math.floor(servers / 2);
    const explained: [string, Call][] = [
      [`ticket list of server ${serverIds[serverIndex]}, nothing reused`, listCall(serverIndex)],
      [`full-text search "${words[0]}" in server ${serverIds[serverIndex]}, nothing reused`, searchOf(serverIndex, words[0]!)],
      [`personal tickets of member ${userIds[0]}`, personalCall(0)],
    ];
    for (const [title, call] of explained) {
      // Asked once before, as a running dashboard has: the session and the role are known then.
      await warm(() => call, 1);
      await printPlans(engine, databaseUrl, title, await statementsOf(api, call));
    }
  }
  const few = Math.min(servers, 100);
  await warm(listCall, servers);
  await warm(searchCall, few);
  for (const [, calls] of statsCalls) await warm(calls, few);
  await warm(personalCall, memberTokens.length);
  await warm(personalSearchCall, memberTokens.length);
  await warm(personalServersCall, memberTokens.length);
  if (measures('list')) results.push(await measureCalls('list, nothing reused (LIST_CACHE_MB=0)', { p99: 25, ratio: 0.15 }, listCall));
  if (measures('search')) results.push(await measureCalls('full-text search, nothing reused', { p99: 50 }, searchCall));
  if (measures('statistics')) for (const [name, calls] of statsCalls) results.push(await measureCalls(`statistics: ${name}`, { p99: 25 }, calls));
  if (measures('personal')) {
    results.push(await measureCalls('personal tickets (25 per page), nothing reused', { p99: 25 }, personalCall));
    results.push(await measureCalls("personal tickets' servers (25 per page), nothing reused", { p99: 25 }, personalServersCall));
    // Reported beside the budgets: each search counts the member's matches among all their tickets.
    results.push(await measureCalls('personal tickets searched, nothing reused', {}, personalSearchCall));
  }
  peak = Math.max(peak, peakRssOf(profiled));
  const code = await stop(api);
  api = null;
  let profile: string | null = null;
  if (profileDir) {
    // One profile per thread (CPU.<date>.<time>.<pid>.<thread>.<n>): the main thread's is 0; tsx's module loader has a thread of its own.
    const written = readdirSync(profileDir).filter((f) => f.includes(`.${profiled}.0.`) && f.endsWith('.cpuprofile'));
    if (code !== 0 || written.length === 0) throw new Error(`the profiled API process exited with ${code} and wrote no profile in ${profileDir}`);
    profile = path.join(profileDir, written.sort().at(-1)!);
  }

  const met = (r: Result) => (r.budget.p99 === undefined || r.p99 <= r.budget.p99) && (r.budget.ratio === undefined || r.rps / bareResult.rps >= r.budget.ratio);
  const budgetText = (b: Budget) => [b.p99 === undefined ? '' : `p99 ≤ ${b.p99} ms`, b.ratio === undefined ? '' : `ratio ≥ ${b.ratio}`].filter(Boolean).join(', ') || '—';
  console.log(
    `\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; engine: ${engineLine}; ${seededLine()}; ` +
      `${connections} connections, ${duration} s each; list answers of ${(sample.length / 1024).toFixed(1)} KB; API run with \`${nodeFlags.join(' ') || 'no V8 flags'}\`` +
      (processes > 1 ? `, as ${processes} processes sharing the port (node's cluster) with Redis at ${redisUrl}; the bare route as one` : '') +
      (profile ? '; the nothing-reused phase ran under the CPU profiler (its numbers include the profiler’s cost)' : ''),
  );
  console.log(`statistics: ${startDate} to ${endDate} (every seeded ticket) and all time, one server after another; personal tickets: the ${memberTokens.length} seeded authors in turn, each with ${perMember.tickets.toLocaleString()} tickets on ${perMember.servers} servers`);
  console.log('| call | p50 ms | p99 ms | requests/s | vs bare route | budget | met |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) {
    const name = r.timeouts > 0 ? `${r.name} (${r.timeouts} requests unanswered after 10 s)` : r.name;
    console.log(`| ${name} | ${r.p50} | ${r.p99} | ${r.rps.toFixed(0)} | ${(r.rps / bareResult.rps).toFixed(2)} | ${budgetText(r.budget)} | ${!hasBudget(r.budget) ? '—' : met(r) ? 'yes' : 'NO'} |`);
  }
  console.log(`| ${bareResult.name} | ${bareResult.p50} | ${bareResult.p99} | ${bareResult.rps.toFixed(0)} | 1.00 | — | — |`);
  console.log(`\nAPI peak resident memory${processes > 1 ? ', the largest of its processes' : ''}: ${peak.toFixed(0)} MB (budget ≤ 250): ${peak <= 250 ? 'yes' : 'NO'}`);
  const all = [...results.filter((r) => hasBudget(r.budget)).map(met), peak <= 250];
  console.log(`budgets met: ${all.filter(Boolean).length} of ${all.length}`);
  if (profile) console.log(`\nCPU profile of the nothing-reused phase: ${profile}\nsummary: npx tsx scripts/bench/profile-summary.ts ${profile}`);
} finally {
  if (bare) await stop(bare);
  if (api) await stop(api);
  await stop(sandbox);
}
