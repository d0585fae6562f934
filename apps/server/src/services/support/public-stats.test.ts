import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { PublicServerStats, PublicStats, ServerSettings, Subject, Ticket } from '@ticket/contracts';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { legacyMessage, legacyTicket } from '../../test/legacy-rows';
import { openDatabase } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';

const sandbox = useSandbox();

const server = GUILDS.pixelForge;
const tickets = `/api/support/servers/${server}/tickets`;

describe.each(engines)('Public statistics on %s', (engine) => {
  let ctx: TestContext;
  let owner: string;
  let admin: string;
  let staff: string;
  let billing: Subject;
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    owner = (await signIn(ctx, USERS.alice)).token;
    admin = (await signIn(ctx, USERS.bruno)).token;
    staff = (await signIn(ctx, USERS.dana)).token;
    billing = (await as(owner, 'POST', `/api/settings/servers/${server}/subjects`, { name: 'Billing' })).json<Subject>();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const as = (token: string | null, method: InjectOptions['method'], url: string, payload?: unknown) =>
    ctx.built.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  const totals = async () => {
    const response = await as(null, 'GET', '/api/support/stats');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PublicStats>();
  };
  const open = async (name: string) => {
    const response = await as(ADMIN_KEY, 'POST', tickets, { ticketName: name, subjectId: billing.subjectId, authorId: USERS.eli, templateAnswers: [] });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Ticket>();
  };
  const setPublic = (token: string, value: unknown) =>
    as(token, 'PATCH', `/api/settings/servers/${server}/settings`, { serverId: server, path: 'publicStats', operation: 'set', value });

  it('counts tickets, messages and open tickets as they are written, for anyone', async () => {
    const before = await totals();
    expect(before.servers).toBeGreaterThan(0);
    const ticket = await open('ticket-1');
    expect(await totals()).toEqual({ ...before, tickets: before.tickets + 1, openTickets: before.openTickets + 1 });

    const said = await as(ADMIN_KEY, 'POST', `${tickets}/${ticket.ticketId}/messages`, { message: { content: 'Hello' }, messageType: 'User', authorId: USERS.eli });
    expect(said.statusCode, said.body).toBe(201);
    expect(await totals()).toEqual({ ...before, tickets: before.tickets + 1, messages: before.messages + 1, openTickets: before.openTickets + 1 });

    const closed = await as(owner, 'PUT', `${tickets}/${ticket.ticketId}`, { closure: { closedBy: USERS.alice, reason: null, force: false } });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await totals()).openTickets).toBe(before.openTickets);
    // Closing again is refused and moves nothing.
    expect((await as(owner, 'PUT', `${tickets}/${ticket.ticketId}`, { closure: { closedBy: USERS.alice, reason: null, force: false } })).statusCode).toBe(409);
    expect((await totals()).openTickets).toBe(before.openTickets);

    expect((await as(owner, 'PUT', `${tickets}/${ticket.ticketId}`, { closure: null })).statusCode).toBe(200);
    expect((await totals()).openTickets).toBe(before.openTickets + 1);
    expect((await as(owner, 'DELETE', `${tickets}/${ticket.ticketId}`)).statusCode).toBe(204);
    expect(await totals()).toEqual({ ...before, tickets: before.tickets + 1, messages: before.messages + 1 });
  });

  it("shows a server's statistics only once its admins made them public, naming no member", async () => {
    const publicUrl = `/api/support/public/servers/${server}/stats`;
    const unknown = await as(null, 'GET', `/api/support/public/servers/1399999999999999999/stats`);
    expect(unknown.statusCode).toBe(404);
    const hidden = await as(null, 'GET', publicUrl);
    expect(hidden.statusCode).toBe(404);
    // Exactly as an unknown server: nothing tells that it exists.
    expect(hidden.json<{ message: string }>().message.replace(server, 'X')).toBe(unknown.json<{ message: string }>().message.replace('1399999999999999999', 'X'));

    const ticket = await open('ticket-1');
    await as(ADMIN_KEY, 'POST', `${tickets}/${ticket.ticketId}/messages`, { message: { content: 'On it' }, messageType: 'Staff', authorId: USERS.dana });

    // Admins only: a non-admin may not switch it on, nor may the value be anything but a boolean.
    expect((await setPublic(staff, true)).statusCode).toBe(403);
    expect((await setPublic(admin, 'yes')).statusCode).toBe(400);
    const on = await setPublic(admin, true);
    expect(on.statusCode, on.body).toBe(200);
    const settings = await as(admin, 'GET', `/api/settings/servers/${server}/settings`);
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json<ServerSettings>().publicStats).toBe(true);

    const shown = await as(null, 'GET', publicUrl);
    expect(shown.statusCode, shown.body).toBe(200);
    const stats = shown.json<PublicServerStats>();
    expect(stats).toMatchObject({ serverId: server, name: 'Pixel Forge', totals: { totalTickets: 1, activeTickets: 1, totalMessages: 1 } });
    expect(stats.ticketsPerDay).toHaveLength(30);
    expect(stats.ticketsPerDay.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), count: 1 });
    expect(stats.responseTimePerDay).toHaveLength(30);
    expect(stats.topSubjects).toEqual([{ subjectId: billing.subjectId, serverId: server, name: 'Billing', amount: 1 }]);
    expect(shown.body).not.toContain(USERS.dana);
    expect(shown.body).not.toContain(USERS.eli);

    expect((await setPublic(owner, false)).statusCode).toBe(200);
    expect((await as(null, 'GET', publicUrl)).statusCode).toBe(404);
  });
});

describe('Counters of an installation that already has tickets', () => {
  it('start from the tickets and messages already there', async () => {
    const database = await openDatabase('sqlite://:memory:', { migrate: false });
    try {
      const db = database.db;
      await migrateToLatest(db, 'sqlite', '0019-api-key-calls');
      const at = new Date().toISOString();
      await db.insertInto('tickets').values([legacyTicket('t1', 1, { created_at: at }), legacyTicket('t2', 2, { state: 'Closed', created_at: at })]).execute();
      await db
        .insertInto('ticket_messages')
        .values(legacyMessage('m1', 't1', { author_id: USERS.eli, message_type: 'User', created_at: at }))
        .execute();
      await migrateToLatest(db, 'sqlite');
      const rows = await db.selectFrom('counters').select(['name', 'value']).orderBy('name').execute();
      expect(rows.map((r) => [r.name, Number(r.value)])).toEqual([
        ['messages', 1],
        ['open_tickets', 1],
        ['tickets', 2],
      ]);
    } finally {
      await database.destroy();
    }
  });
});
