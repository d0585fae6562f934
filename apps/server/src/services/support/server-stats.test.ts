import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { DailyCount, PagedResult, Subject, Ticket, TopSubject, TopSupporter } from '@ticket/contracts';
import type { DB } from '../../db/schema';
import { fillServerStats } from '../../db/migrations/0023-server-stats';
import { migrateToLatest } from '../../db/migrate';
import { ADMIN_KEY, bearer, createTestApp, engines, freshDatabase, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { legacyMessage, legacyTicket } from '../../test/legacy-rows';

const sandbox = useSandbox();
const server = GUILDS.pixelForge;
const base = `/api/support/servers/${server}`;
const COUNTER_TABLES = ['server_totals', 'server_daily_stats', 'server_subject_daily', 'server_supporter_daily'] as const;

/** Every counter row that counts something, in a stable order. */
async function counterRows(db: Kysely<DB>) {
  const out: Record<string, unknown[]> = {};
  for (const table of COUNTER_TABLES) {
    const rows = (await db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    out[table] = rows
      .filter((r) => Object.entries(r).some(([k, v]) => typeof v === 'number' && v !== 0 && k !== 'day'))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return out;
}

describe.each(engines)("A server's statistics kept as counters on %s", (engine) => {
  let ctx: TestContext;
  let owner: string;
  let billing: Subject;
  let orders: Subject;
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    owner = (await signIn(ctx, USERS.alice)).token;
    const subject = async (name: string) => (await ctx.built.app.inject({ method: 'POST', url: `/api/settings/servers/${server}/subjects`, headers: bearer(owner), payload: { name } })).json<Subject>();
    billing = await subject('Billing');
    orders = await subject('Orders');
  });
  afterEach(async () => {
    await ctx.close();
  });

  const as = async <T>(token: string, method: InjectOptions['method'], url: string, payload?: unknown) => {
    const response = await ctx.built.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return (response.statusCode === 204 ? undefined : response.json()) as T;
  };
  const open = (name: string) => as<Ticket>(ADMIN_KEY, 'POST', `${base}/tickets`, { ticketName: name, subjectId: billing.subjectId, authorId: USERS.eli });
  const say = (ticketId: string, messageType: 'User' | 'Staff', authorId: string) =>
    as(ADMIN_KEY, 'POST', `${base}/tickets/${ticketId}/messages`, { message: { content: 'words' }, messageType, authorId });

  it('follows opening, answering, moving, closing, reopening and deleting, and always equals a recount', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const range = `startDate=${today}&endDate=${today}`;
    const a = await open('a');
    const b = await open('b');
    const c = await open('c');
    await say(a.ticketId, 'User', USERS.eli);
    await say(a.ticketId, 'Staff', USERS.alice);
    await say(a.ticketId, 'Staff', USERS.alice);
    await say(a.ticketId, 'Staff', USERS.dana);
    await say(b.ticketId, 'Staff', USERS.dana);
    await say(c.ticketId, 'User', USERS.eli);
    await as(owner, 'PUT', `${base}/tickets/${c.ticketId}`, { subjectId: orders.subjectId });
    await as(owner, 'PUT', `${base}/tickets/${b.ticketId}`, { closure: { closedBy: USERS.dana, reason: null, force: true } });
    await as(owner, 'PUT', `${base}/tickets/${b.ticketId}`, { closure: null });
    await as(owner, 'PUT', `${base}/tickets/${c.ticketId}`, { closure: { closedBy: USERS.dana, reason: null, force: true } });

    expect(await as(owner, 'GET', `${base}/stats/top/simple`)).toEqual({ activeTickets: 2, totalTickets: 3, totalMessages: 6 });
    expect((await as<DailyCount[]>(owner, 'GET', `${base}/stats/daily/tickets?${range}`))[0]).toEqual({ date: today, count: 3 });
    expect((await as<DailyCount[]>(owner, 'GET', `${base}/stats/daily/messages?${range}`))[0]).toEqual({ date: today, count: 6 });
    const subjects = await as<PagedResult<TopSubject>>(owner, 'GET', `${base}/stats/top/subjects?${range}`);
    expect(subjects.elements.map((s) => [s.name, s.amount])).toEqual([
      ['Billing', 2],
      ['Orders', 1],
    ]);
    const supporters = await as<PagedResult<TopSupporter>>(owner, 'GET', `${base}/stats/top/supporters`);
    expect(supporters.elements.map((s) => [s.id, s.amount])).toEqual([
      [USERS.dana, 2],
      [USERS.alice, 1],
    ]);

    // Deleting a ticket takes back what it and its messages counted.
    await as(owner, 'DELETE', `${base}/tickets/${a.ticketId}`);
    expect(await as(owner, 'GET', `${base}/stats/top/simple`)).toEqual({ activeTickets: 1, totalTickets: 2, totalMessages: 2 });
    expect((await as<PagedResult<TopSupporter>>(owner, 'GET', `${base}/stats/top/supporters`)).elements.map((s) => [s.id, s.amount])).toEqual([[USERS.dana, 1]]);
    expect((await as<DailyCount[]>(owner, 'GET', `${base}/stats/daily/tickets?${range}`))[0]).toEqual({ date: today, count: 2 });

    const db = ctx.built.database.db;
    const kept = await counterRows(db);
    for (const table of COUNTER_TABLES) await db.deleteFrom(table).execute();
    await fillServerStats(db as Kysely<unknown>, engine);
    expect(await counterRows(db)).toEqual(kept);
  });
});

describe.each(engines)('Upgrading to counted statistics (migration 0023) on %s', (engine) => {
  it("counts what is already there, with each ticket's first staff answer and time to it", async () => {
    const database = await freshDatabase(engine, '0022-bot-text-defaults');
    const { db } = database;
    try {
      const at = (day: number, time: string) => `2026-03-0${day}T${time}.000Z`;
      await db.insertInto('servers').values({ id: server, name: 'Pixel Forge', icon: null, owner_id: null, active: 1, plan: 'free', created_at: at(1, '00:00:00'), updated_at: at(1, '00:00:00') }).execute();
      await db
        .insertInto('tickets')
        .values([legacyTicket('t1', 1, { state: 'PendingUser', created_at: at(1, '10:00:00') }), legacyTicket('t2', 2, { state: 'Closed', created_at: at(1, '11:00:00') }), legacyTicket('t3', 3, { created_at: at(2, '09:00:00') })])
        .execute();
      const message = (id: string, ticketId: string, authorId: string, type: string, created: string) => legacyMessage(id, ticketId, { author_id: authorId, message_type: type, created_at: created });
      await db
        .insertInto('ticket_messages')
        .values([
          message('m1', 't1', USERS.eli, 'User', at(1, '10:00:01')),
          message('m2', 't1', USERS.dana, 'Staff', at(1, '10:02:00')),
          message('m3', 't1', USERS.dana, 'Staff', at(2, '08:00:00')),
          message('m4', 't2', USERS.alice, 'Staff', at(1, '11:06:00')),
          message('m5', 't2', USERS.dana, 'Staff', at(2, '12:00:00')),
          message('m6', 't3', USERS.eli, 'User', at(2, '09:00:05')),
        ])
        .execute();

      await migrateToLatest(db, engine, '0023-server-stats');

      const tickets = await db.selectFrom('tickets').select(['id', 'answered_at']).orderBy('id').execute();
      expect(tickets).toEqual([
        { id: 't1', answered_at: at(1, '10:02:00') },
        { id: 't2', answered_at: at(1, '11:06:00') },
        { id: 't3', answered_at: null },
      ]);
      const rows = await counterRows(db);
      expect(rows.server_totals).toEqual([{ server_id: server, tickets: 3, open_tickets: 2, messages: 6 }]);
      // Day 1: two tickets answered after 120 s and 360 s; day 2: one ticket, not answered yet.
      expect(rows.server_daily_stats).toEqual([
        { server_id: server, day: '2026-03-01', tickets: 2, messages: 3, responses: 2, response_ms: 480_000 },
        { server_id: server, day: '2026-03-02', tickets: 1, messages: 3, responses: 0, response_ms: 0 },
      ]);
      expect(rows.server_subject_daily).toEqual([
        { server_id: server, subject_id: 'subject', day: '2026-03-01', tickets: 2 },
        { server_id: server, subject_id: 'subject', day: '2026-03-02', tickets: 1 },
      ]);
      // Dana first answered t1 on day 1 and t2 on day 2; Alice t2 on day 1.
      expect(rows.server_supporter_daily).toEqual([
        { server_id: server, author_id: USERS.alice, day: '2026-03-01', tickets: 1 },
        { server_id: server, author_id: USERS.dana, day: '2026-03-01', tickets: 1 },
        { server_id: server, author_id: USERS.dana, day: '2026-03-02', tickets: 1 },
      ]);
    } finally {
      await database.destroy();
    }
  });
});
