import { randomBytes } from 'node:crypto';
import type { Subject, Ticket, WebhookEndpointWithSecret } from '@ticket/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from './app';
import { now, openDatabase, type Database } from './db/database';
import { findLease } from './db/leases';
import * as webhookRepo from './services/settings/webhook-repository';
import * as deskRepo from './services/support/desk-repository';
import { AUTO_CLOSE_LEASE, JOB_CLAIM_MS } from './services/support/ticket-jobs';
import { ADMIN_KEY, engines, freshDatabase, resetSandbox, signIn, testConfig, useSandbox } from './test/harness';
import { GUILDS, USERS } from './test/demo-world';
import { useReceiver } from './test/webhook-receiver';
import { storeWhitelabelBot, studyBuddy } from './test/whitelabel-fixture';

/*
 * Background work with two API processes on one database: each delayed close, auto-close and
 * webhook delivery is done once, and what a process claimed and never finished (it was killed) is
 * done by the other once the claim has passed. The two processes are two apps on one database.
 */

const sandbox = useSandbox();
const server = GUILDS.pixelForge;
const operator = { authorization: `Admin ${ADMIN_KEY}` };
const MINUTE = 60_000;

/**
 * Both apps' databases. PostgreSQL: a second connection pool to the first's schema, as another
 * process would open. SQLite: one connection for both (better-sqlite3 waits for a lock
 * synchronously, so two connections in one process would wait on each other for good); it has
 * one writer at a time anyway, which is what its claims rely on, and the two apps' work still
 * interleaves statement by statement.
 */
async function twoConnections(engine: 'sqlite' | 'postgres'): Promise<{ first: Database; second: Database; drop(): Promise<void> }> {
  const first = await freshDatabase(engine);
  if (engine === 'sqlite') return { first, second: first, drop: () => first.destroy() };
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(first.db);
  const second = await openDatabase(process.env.TEST_DATABASE_URL!, { schema: rows[0]!.schema, migrate: false });
  return {
    first,
    second,
    drop: async () => {
      await second.destroy();
      await first.destroy();
    },
  };
}

describe.each(engines)('background work with two processes on %s', (engine) => {
  const encryptionKey = randomBytes(32);
  const receiver = useReceiver();
  let a: BuiltApp;
  let b: BuiltApp;
  let drop: () => Promise<void>;
  let subject: Subject;

  beforeEach(async () => {
    await resetSandbox(sandbox);
    const databases = await twoConnections(engine);
    drop = databases.drop;
    a = await buildApp(testConfig(sandbox, { encryptionKey }), { database: databases.first });
    b = await buildApp(testConfig(sandbox, { encryptionKey }), { database: databases.second });
    await signIn({ sandbox, built: a }, USERS.alice); // the dashboard learns of her servers
    // Auto-close and webhooks are plan features.
    await a.database.db.updateTable('servers').set({ plan: 'enterprise', updated_at: now() }).where('id', '=', server).execute();
    subject = await post<Subject>(`/api/settings/servers/${server}/subjects`, { name: 'Billing' });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    await drop();
  });

  async function post<T>(url: string, payload: object, app = a, status = 201): Promise<T> {
    const response = await app.app.inject({ method: 'POST', url, headers: operator, payload });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
    return response.json<T>();
  }
  const openTickets = async (count: number) => {
    const opened: Ticket[] = [];
    for (let i = 0; i < count; i++) {
      opened.push(await post<Ticket>(`/api/support/servers/${server}/tickets`, { ticketName: `order-${i}`, subjectId: subject.subjectId, authorId: USERS.eli }, i % 2 ? b : a));
    }
    return opened;
  };
  const states = async (ids: string[]) =>
    (await a.database.db.selectFrom('tickets').select(['id', 'state']).where('id', 'in', ids).execute()).map((t) => t.state).sort();

  it('runs each delayed close once, and the close of a process that died holding it after its claim has passed', async () => {
    await post<WebhookEndpointWithSecret>(`/api/settings/servers/${server}/webhooks`, { url: receiver.url, events: ['ticket.closed'] });
    const tickets = await openTickets(8);
    const at = new Date(Date.now() + MINUTE);
    for (const ticket of tickets) {
      await deskRepo.scheduleClose(a.database.db, { ticketId: ticket.ticketId, serverId: server, runAt: new Date(Date.now() + 30_000).toISOString(), actorId: USERS.alice, reason: 'Done' });
    }
    // A third process claims two and is killed before closing them.
    const dead = await deskRepo.claimDueJobs(b.database.db, at.toISOString(), { token: 'killed', until: new Date(at.getTime() + JOB_CLAIM_MS).toISOString() }, 2);
    expect(dead).toHaveLength(2);

    const ran = await Promise.all([a.services.ticketJobs.runDueJobs(at), b.services.ticketJobs.runDueJobs(at), a.services.ticketJobs.runDueJobs(at)]);
    expect(ran.reduce((x, y) => x + y)).toBe(6);
    expect((await states(tickets.map((t) => t.ticketId))).filter((s) => s === 'Closed')).toHaveLength(6);
    // Their claim still holds a moment before it passes; after, the other process closes them.
    const before = new Date(at.getTime() + JOB_CLAIM_MS - 1000);
    expect(await b.services.ticketJobs.runDueJobs(before)).toBe(0);
    const after = new Date(at.getTime() + JOB_CLAIM_MS + 1000);
    const late = await Promise.all([a.services.ticketJobs.runDueJobs(after), b.services.ticketJobs.runDueJobs(after)]);
    expect(late.reduce((x, y) => x + y)).toBe(2);
    expect(await states(tickets.map((t) => t.ticketId))).toEqual(Array(8).fill('Closed'));
    expect(await a.database.db.selectFrom('ticket_jobs').selectAll().execute()).toEqual([]);

    // Every close was told once: eight deliveries, sent once each by the two runners.
    const sent = await Promise.all([a.services.webhookDeliveries.runDue(undefined, 2), b.services.webhookDeliveries.runDue(undefined, 2)]);
    expect(sent.reduce((x, y) => x + y)).toBe(8);
    const closed = receiver.received.map((r) => (JSON.parse(r.body) as { data: { ticket: { ticketId: string } } }).data.ticket.ticketId);
    expect(closed.sort()).toEqual(tickets.map((t) => t.ticketId).sort());
  });

  it('sends a delivery claimed by a process that died once its claim has passed, and only then', async () => {
    await post<WebhookEndpointWithSecret>(`/api/settings/servers/${server}/webhooks`, { url: receiver.url, events: ['ticket.opened'] });
    await openTickets(3);
    const at = new Date();
    const dead = await webhookRepo.claimDue(a.database.db, at.toISOString(), { token: 'killed', until: new Date(at.getTime() + 5 * MINUTE).toISOString() }, 1);
    expect(dead).toHaveLength(1);
    const sent = await Promise.all([a.services.webhookDeliveries.runDue(at, 1), b.services.webhookDeliveries.runDue(at, 1)]);
    expect(sent.reduce((x, y) => x + y)).toBe(2);
    expect(await b.services.webhookDeliveries.runDue(new Date(at.getTime() + 4 * MINUTE))).toBe(0);
    expect(await b.services.webhookDeliveries.runDue(new Date(at.getTime() + 5 * MINUTE))).toBe(1);
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(3);
  });

  it('sweeps auto-close in one process at a time, and after a process that died holding the sweep once its lease has passed', async () => {
    const response = await a.app.inject({
      method: 'PATCH',
      url: `/api/settings/servers/${server}/subjects/${subject.subjectId}`,
      headers: operator,
      payload: {
        serverId: server,
        subjectId: subject.subjectId,
        path: 'automation.autoCloseTime',
        operation: 'set',
        value: { enabled: true, inherits: false, value: { warnTime: { time: 1, unit: 'hours' }, closeTime: { time: 2, unit: 'hours' } } },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const tickets = await openTickets(6);
    const ids = tickets.map((t) => t.ticketId);
    // Staff answered them all: they wait for their user.
    await a.database.db.updateTable('tickets').set({ state: 'PendingUser' }).where('id', 'in', ids).execute();
    const later = new Date(Date.now() + 121 * MINUTE);

    // A process died in the middle of a sweep: nobody sweeps until its lease has passed.
    await a.database.db.insertInto('leases').values({ name: AUTO_CLOSE_LEASE, holder: 'killed', until: new Date(Date.now() + 5 * MINUTE).toISOString() }).execute();
    expect(await Promise.all([a.services.ticketJobs.sweepAutoClose(later), b.services.ticketJobs.sweepAutoClose(later)])).toEqual([0, 0]);
    expect(await states(ids)).toEqual(Array(6).fill('PendingUser'));
    await a.database.db.updateTable('leases').set({ until: new Date(Date.now() - 1000).toISOString() }).where('name', '=', AUTO_CLOSE_LEASE).execute();

    // Small batches, so that both would be half-way through at once if both swept.
    const swept = await Promise.all([a.services.ticketJobs.sweepAutoClose(later, 2), b.services.ticketJobs.sweepAutoClose(later, 2), a.services.ticketJobs.sweepAutoClose(later, 2)]);
    expect(swept.reduce((x, y) => x + y)).toBe(6);
    expect(swept.filter((n) => n === 0).length).toBeGreaterThanOrEqual(2);
    expect(await states(ids)).toEqual(Array(6).fill('Closed'));
    // The lease is given back when the sweep ends.
    expect(await findLease(a.database.db, AUTO_CLOSE_LEASE)).toBeUndefined();
  });

  it('ends a lapsed subscription once with two processes at it, and stops a white-label bot whose plan change was never told', async () => {
    // Enterprise by PayPal, cancelled for the end of a period that has just ended.
    const periodEnd = new Date(Date.now() - MINUTE).toISOString();
    await a.database.db
      .insertInto('subscriptions')
      .values({
        id: 'sub-lapsed',
        user_id: USERS.alice,
        provider: 'paypal',
        provider_subscription_id: 'I-LAPSED',
        provider_customer_id: null,
        state: 'active',
        plan_type: 'enterprise',
        plan_interval: 'monthly',
        period_start: null,
        current_period_end: periodEnd,
        cancel_at_period_end: 1,
        server_id: server,
        applied: 1,
        last_transferred: null,
        scheduled_plan_type: null,
        scheduled_plan_interval: null,
        scheduled_effective_date: null,
        first_paid_at: null,
        created_at: now(),
        updated_at: now(),
      })
      .execute();
    const at = new Date();
    const ended = await Promise.all([a.services.paypalPayments.endLapsed(at), b.services.paypalPayments.endLapsed(at)]);
    expect(ended.reduce((x, y) => x + y)).toBe(1);
    expect((await a.database.db.selectFrom('servers').select('plan').where('id', '=', server).executeTakeFirstOrThrow()).plan).toBe('free');

    // The plan changed under a running bot without its process telling anyone (it died after the commit).
    const buddy = studyBuddy();
    await storeWhitelabelBot({ built: a }, encryptionKey, server, buddy);
    const stopped = await Promise.all([a.services.deployment.stopOffPlan(), b.services.deployment.stopOffPlan()]);
    expect(stopped.reduce((x, y) => x + y)).toBe(1);
    const bot = await a.database.db.selectFrom('whitelabel_bots').select(['status', 'status_message']).where('server_id', '=', server).executeTakeFirstOrThrow();
    expect(bot).toEqual({ status: 'NotRunning', status_message: 'Stopped: the server is no longer on the Enterprise plan' });
    expect(await a.services.deployment.stopOffPlan()).toBe(0);
  });
});
