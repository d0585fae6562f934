/**
 * `npm run soak [-- OPTIONS]`
 * Two API processes on one PostgreSQL database and one Redis, behind a round-robin (each request
 * goes to the next process in turn), for `--duration SECONDS` (300): `--clients` (200) signed-in
 * dashboard clients, each a staff member with a session of their own, going round the staff
 * screens one call every `--interval` milliseconds on average (2000; an open ticket's page alone
 * polls every 5 s, so this is a busy staff member): a server's ticket list, one of its open
 * tickets as the ticket page polls it (with the entity tag of what it holds), a full-text search
 * and the statistics screen's calls; meanwhile the bot runtime reports `--messages-per-second` (50)
 * members' messages into open tickets, as apps/bot reports them (with the operator key, each with
 * the platform's message id). Prints the errors (any answer but 2xx or 304, or no answer; budget
 * 0), each call's p50 and p99 after `--warmup SECONDS` (120, part of the duration: the code is
 * compiled and the caches fill; the answers' cache, LIST_CACHE_MB, takes about two minutes), each API process's resident memory after the warm-up and at the end
 * (growth budget ≤ 10 %), and whether each budget is met; exits 1 when one is not.
 *
 * The database is that of `--database-url` or DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/soak; created through the `test` database when missing, never
 * `test` itself), seeded as `npm run bench` seeds it (scripts/bench/seed-postgres.ts) with
 * `--servers` (20) servers and `--tickets` (20,000) tickets of 5 messages, and reused while it
 * holds the same counts (`--reseed` seeds it again). Redis: `--redis-url` or REDIS_URL (default
 * redis://127.0.0.1:6379). The chat platform is the sandbox. The API processes run with the V8
 * limits the README recommends (`--node-flags` replaces them).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadDemoFixtures } from '../apps/sandbox/src/index';
import { openDatabase } from '../apps/server/src/db/database';
import { defaultSubjectSettings } from '../apps/server/src/services/settings/subject-defaults';
import { buildBenchApi, sandboxApplicationEnv, startProcess as start, stopProcess as stop } from './bench/processes';
import { ensurePostgresDatabase, seedPostgres, seededWith } from './bench/seed-postgres';
import { benchServerIds, lastSeededDay, signInUser } from './bench/seed';
import { NODE_FLAGS_OPTION, nodeFlagsOf } from './node-flags';

const MESSAGES_PER_TICKET = 5;
const ADMIN_KEY = 'soak-operator-key';
const MEMORY_GROWTH_BUDGET = 0.1;

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '120' },
    clients: { type: 'string', default: '200' },
    interval: { type: 'string', default: '2000' },
    'messages-per-second': { type: 'string', default: '50' },
    servers: { type: 'string', default: '20' },
    tickets: { type: 'string', default: '20000' },
    'database-url': { type: 'string' },
    'redis-url': { type: 'string' },
    reseed: { type: 'boolean', default: false },
    'node-flags': NODE_FLAGS_OPTION,
  },
});
const number = (name: keyof typeof values, min: number) => {
  const value = Number(values[name]);
  if (!Number.isFinite(value) || value < min) throw new Error(`--${name} must be a number of at least ${min}, got "${String(values[name])}"`);
  return value;
};
const duration = number('duration', 1) * 1000;
const warmup = Math.min(number('warmup', 0) * 1000, duration / 2);
const clients = number('clients', 1);
const interval = number('interval', 1);
const messagesPerSecond = number('messages-per-second', 0);
const servers = number('servers', 1);
const tickets = number('tickets', servers);
const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/soak';
const redisUrl = values['redis-url'] ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const nodeFlags = nodeFlagsOf(values['node-flags']);
const serverIds = benchServerIds(servers);
const userIds = loadDemoFixtures().users.map((u) => u.id);

// --- The database and the clients' sessions ------------------------------------------------------

if (!/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('The soak runs on PostgreSQL: --database-url postgres://…');
await ensurePostgresDatabase(databaseUrl);
const marker = await seededWith(databaseUrl);
const where = `${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}`;
if (!values.reseed && marker?.complete === 1 && marker.servers === servers && marker.tickets === tickets && marker.messages_per_ticket === MESSAGES_PER_TICKET) {
  console.log(`reusing ${where}`);
} else {
  console.log(`seeding ${where} with ${tickets.toLocaleString()} tickets of ${MESSAGES_PER_TICKET} messages over ${servers} servers`);
  await seedPostgres(databaseUrl, { servers, tickets, messagesPerTicket: MESSAGES_PER_TICKET, userIds }, (line) => console.log(line));
}

/**
 * The settings a subject made through the API starts with, for the seeded subjects (the seed
 * stores none: the bench's calls never read them, but a ticket's page and a reported message do).
 */
function subjectSettings(): string {
  const settings = defaultSubjectSettings('Support');
  const messages = Object.fromEntries(
    Object.entries(settings.messages).map(([key, group]) => [key, { ...group, value: { ...group.value, serialized: JSON.stringify(group.value.message) } }]),
  );
  return JSON.stringify({ ...settings, messages });
}

/**
 * The seeded subjects' settings, and a staff member of every seeded server per client, each with a
 * session, written as sign-in writes them.
 */
async function prepareDatabase(): Promise<{ tokens: string[]; engineLine: string }> {
  const database = await openDatabase(databaseUrl);
  const at = new Date().toISOString();
  const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const users = Array.from({ length: clients }, (_, i) => ({ id: String(1498000000000000000n + BigInt(i)), token: `tds_soak-client-session-${i}`, session: `soak-session-${i}` }));
  try {
    await database.db.transaction().execute(async (trx) => {
      await sql`update subjects set settings = ${subjectSettings()}::jsonb where settings = '{}'::jsonb`.execute(trx);
      for (const user of users) {
        await signInUser(trx, { ...user, username: `soak-client-${user.id.slice(-4)}` }, expires);
        await trx
          .insertInto('memberships')
          .values(serverIds.map((serverId) => ({ user_id: user.id, server_id: serverId, role: 'Staff', nickname: null, avatar: null, role_ids: '[]', updated_at: at })))
          .onConflict((oc) => oc.columns(['user_id', 'server_id']).doUpdateSet({ role: 'Staff', updated_at: at }))
          .execute();
      }
    });
    const version = await sql<{ server_version: string }>`show server_version`.execute(database.db);
    return { tokens: users.map((u) => u.token), engineLine: `PostgreSQL ${version.rows[0]!.server_version} (${where})` };
  } finally {
    await database.destroy();
  }
}
const { tokens, engineLine } = await prepareDatabase();

// --- The processes -------------------------------------------------------------------------------

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Resident memory now (VmRSS) and at most so far (VmHWM), in MB; nothing of a process that is gone. */
function memoryOf(pid: number): { rss: number; peak: number } {
  if (!existsSync(`/proc/${pid}/status`)) return { rss: Number.NaN, peak: Number.NaN };
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

// --- The load ------------------------------------------------------------------------------------

/** An answer as the clients use it. */
interface Answer {
  status: number;
  etag: string | null;
  text: string;
}

const latencies = new Map<string, number[]>();
const errors = new Map<string, number>();
const firstErrors: string[] = [];
let bases: string[] = [];
let turn = 0;
/** Times are counted from the end of the warm-up (errors from the start). */
let measuredFrom = Number.POSITIVE_INFINITY;

/** One request to the next process in turn; its time is counted under `name`, and anything but 2xx or 304 is an error. */
async function request(name: string, url: string, init: RequestInit): Promise<Answer | null> {
  const base = bases[turn++ % bases.length]!;
  const t0 = performance.now();
  try {
    const response = await fetch(`${base}${url}`, init);
    const text = await response.text();
    if (t0 >= measuredFrom) {
      if (!latencies.has(name)) latencies.set(name, []);
      latencies.get(name)!.push(performance.now() - t0);
    }
    if (response.ok || response.status === 304) return { status: response.status, etag: response.headers.get('etag'), text };
    fail(name, `${init.method ?? 'GET'} ${base}${url}: ${response.status} ${text.slice(0, 200)}`);
  } catch (error) {
    fail(name, `${init.method ?? 'GET'} ${base}${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return null;
}

function fail(name: string, what: string): void {
  errors.set(name, (errors.get(name) ?? 0) + 1);
  if (firstErrors.length < 10) firstErrors.push(what);
}

const endDate = lastSeededDay(tickets);
const startDate = new Date(Date.parse(`${endDate}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
const range = `startDate=${startDate}&endDate=${endDate}`;
const words = ['refund', 'invoice crash', 'login password', 'premium', 'billing error'];
/** Open tickets seen in the lists, by server: where the ticket page goes, and where the bot writes. */
const openTickets = new Map<string, string[]>();

interface TicketListPage {
  elements: { ticketId: string; state: string }[];
}

/** A staff member's dashboard: the screens in turn, one call each time, on a server of their own. */
async function dashboardClient(index: number, until: number): Promise<void> {
  const token = tokens[index]!;
  const serverId = serverIds[index % servers]!;
  const headers = { authorization: `Bearer ${token}` };
  const base = `/api/support/servers/${serverId}`;
  let held: { ticketId: string; etag: string | null } | null = null;
  const screens: (() => Promise<void>)[] = [
    async () => {
      const response = await request('getServerTickets', `${base}/tickets?Page=1&Amount=25`, { headers });
      if (!response) return;
      const page = JSON.parse(response.text) as TicketListPage;
      const open = page.elements.filter((t) => t.state !== 'Closed').map((t) => t.ticketId);
      if (open.length > 0) openTickets.set(serverId, open);
      const ticketId = open[index % Math.max(1, open.length)];
      if (ticketId && held?.ticketId !== ticketId) held = { ticketId, etag: null };
    },
    async () => {
      if (!held) return;
      const response = await request('getServerTicket (polled)', `${base}/tickets/${held.ticketId}`, { headers: { ...headers, ...(held.etag ? { 'if-none-match': held.etag } : {}) } });
      if (response?.status === 200) held.etag = response.etag;
    },
    async () => {
      await request('searchServerTickets', `${base}/search?Amount=25`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text: words[(index + turn) % words.length] }),
      });
    },
    async () => void (await request('getTopSimpleStats', `${base}/stats/top/simple`, { headers })),
    async () => void (await request('getDailyTicketStats', `${base}/stats/daily/tickets?${range}`, { headers })),
    async () => void (await request('getDailyMessageStats', `${base}/stats/daily/messages?${range}`, { headers })),
    async () => void (await request('getTopSupporters', `${base}/stats/top/supporters?Page=1&Amount=5`, { headers })),
    async () => {
      // Back on the open ticket: most of a staff member's time is on a ticket's page.
      if (!held) return;
      const response = await request('getServerTicket (polled)', `${base}/tickets/${held.ticketId}`, { headers: { ...headers, ...(held.etag ? { 'if-none-match': held.etag } : {}) } });
      if (response?.status === 200) held.etag = response.etag;
    },
  ];
  // Clients start spread over one interval, not all at once.
  await new Promise((resolve) => setTimeout(resolve, Math.random() * interval));
  for (let step = index; Date.now() < until; step++) {
    const t0 = Date.now();
    await screens[step % screens.length]!();
    const pause = interval * (0.5 + Math.random()) - (Date.now() - t0);
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(pause, until - Date.now())));
  }
}

/** The bot runtime's reports: members' messages into open tickets, at the given rate, each with a platform id of its own. */
async function botRuntime(until: number): Promise<number> {
  const headers = { authorization: `Admin ${ADMIN_KEY}`, 'content-type': 'application/json' };
  const firstId = BigInt(Date.now()) << 22n;
  const t0 = Date.now();
  const inFlight = new Set<Promise<unknown>>();
  let sent = 0;
  while (Date.now() < until) {
    const due = Math.floor(((Date.now() - t0) / 1000) * messagesPerSecond);
    for (; sent < due; sent++) {
      const withTickets = [...openTickets.entries()];
      if (withTickets.length === 0) break;
      const [serverId, ids] = withTickets[sent % withTickets.length]!;
      const ticketId = ids[sent % ids.length]!;
      const body = { message: { content: `soak message ${sent}: where is my refund?` }, messageType: 'User', authorId: userIds[sent % userIds.length], externalId: String(firstId + BigInt(sent)) };
      const pending = request('createTicketMessage (bot report)', `/api/support/servers/${serverId}/tickets/${ticketId}/messages`, { method: 'POST', headers, body: JSON.stringify(body) });
      inFlight.add(pending);
      void pending.finally(() => inFlight.delete(pending));
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await Promise.all(inFlight);
  return sent;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

const [sandboxPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
const sandbox = await start('bench/sandbox.ts', { PORT: String(sandboxPort) });
const apiFile = await buildBenchApi();
const apis: ChildProcess[] = [];
let failed = true;
let stopping = false;
try {
  for (const port of [portA, portB]) {
    // One after the other: the first runs the migrations.
    apis.push(
      await start(
        apiFile,
        { ...sandboxApplicationEnv(), PORT: String(port), HOST: '127.0.0.1', SANDBOX_URL: `http://127.0.0.1:${sandboxPort}`, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, ADMIN_KEYS: ADMIN_KEY },
        nodeFlags,
      ),
    );
  }
  bases = [portA, portB].map((port) => `http://127.0.0.1:${port}`);
  // A process that goes away under the load is the worst error of all: said at once.
  apis.forEach((api, i) =>
    api.once('exit', (code, signal) => {
      if (!stopping) fail('API process', `API process ${i + 1} (${bases[i]}) exited under the load: code ${code}, signal ${signal}`);
    }),
  );
  const launched = apis.map((api) => memoryOf(api.pid!));
  console.log(
    `${clients} dashboard clients (one call every ${interval} ms on average each) and ${messagesPerSecond} bot messages/s for ${duration / 1000} s, ` +
      `over 2 API processes (${bases.join(', ')}) on ${engineLine} and Redis ${new URL(redisUrl).host}`,
  );

  const t0 = Date.now();
  const until = t0 + duration;
  const dashboards = Promise.all(Array.from({ length: clients }, (_, i) => dashboardClient(i, until)));
  const bot = botRuntime(until);
  await new Promise((resolve) => setTimeout(resolve, warmup));
  const afterWarmup = apis.map((api) => memoryOf(api.pid!));
  measuredFrom = performance.now();
  const [, reported] = await Promise.all([dashboards, bot]);
  const atEnd = apis.map((api) => memoryOf(api.pid!));
  const elapsed = (Date.now() - t0) / 1000;

  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  const calls = [...latencies.values()].reduce((a, b) => a + b.length, 0);
  const measured = elapsed - warmup / 1000;
  console.log(
    `\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ` +
      `${tickets.toLocaleString()} seeded tickets over ${servers} servers; API run with \`${nodeFlags.join(' ') || 'no V8 flags'}\`; ` +
      `${reported.toLocaleString()} bot messages in ${elapsed.toFixed(0)} s (${(reported / elapsed).toFixed(1)}/s); ` +
      `after the ${warmup / 1000} s warm-up, ${calls.toLocaleString()} calls in ${measured.toFixed(0)} s (${(calls / measured).toFixed(0)}/s), timed below (errors: the whole run)`,
  );
  console.log('| call | calls timed | errors | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|');
  for (const [name, samples] of [...latencies.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...samples].sort((a, b) => a - b);
    console.log(`| ${name} | ${sorted.length} | ${errors.get(name) ?? 0} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} |`);
  }
  for (const [name, count] of errors) if (!latencies.has(name)) console.log(`| ${name} | 0 | ${count} | — | — |`);
  if (firstErrors.length > 0) console.log(`\nfirst errors:\n${firstErrors.map((e) => `  ${e}`).join('\n')}`);

  console.log('\n| API process | RSS at launch MB | after warm-up MB | at end MB | growth | peak MB |');
  console.log('|---|---|---|---|---|---|');
  const growths = apis.map((_, i) => atEnd[i]!.rss / afterWarmup[i]!.rss - 1);
  apis.forEach((api, i) => {
    console.log(
      `| ${bases[i]} (pid ${api.pid}) | ${launched[i]!.rss.toFixed(0)} | ${afterWarmup[i]!.rss.toFixed(0)} | ${atEnd[i]!.rss.toFixed(0)} | ${(growths[i]! * 100).toFixed(1)} % | ${atEnd[i]!.peak.toFixed(0)} |`,
    );
  });
  const budgets: [string, boolean][] = [
    [`errors: ${errorCount} (budget 0)`, errorCount === 0],
    // NaN (a process that is gone) meets no budget.
    ...growths.map((g, i): [string, boolean] => [`memory growth of API process ${i + 1} after warm-up: ${(g * 100).toFixed(1)} % (budget ≤ ${MEMORY_GROWTH_BUDGET * 100} %)`, g <= MEMORY_GROWTH_BUDGET]),
  ];
  console.log('');
  for (const [line, met] of budgets) console.log(`${line}: ${met ? 'yes' : 'NO'}`);
  console.log(`budgets met: ${budgets.filter(([, met]) => met).length} of ${budgets.length}`);
  failed = budgets.some(([, met]) => !met);
} finally {
  stopping = true;
  await Promise.all(apis.map(stop));
  await stop(sandbox);
}
process.exitCode = failed ? 1 : 0;
