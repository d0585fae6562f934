import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { WebhookPayload, type PagedResult, type Subject, type Ticket, type WebhookDelivery, type WebhookEndpointWithSecret } from '@ticket/contracts';
import { now, openDatabase, type Database } from '../../db/database';
import { ADMIN_KEY, createTestApp, engines, resetSandbox, signIn, testConfig, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { startReceiver, useReceiver, verifySignature } from '../../test/webhook-receiver';
import { nextAttemptAt, WebhookDeliveries } from './webhook-deliveries';

const sandbox = useSandbox();

const server = GUILDS.pixelForge;
const hooks = `/api/settings/servers/${server}/webhooks`;
const tickets = `/api/support/servers/${server}/tickets`;
const operator = { authorization: `Admin ${ADMIN_KEY}` };
const MINUTE = 60_000;

describe('the retry schedule', () => {
  it('waits 1 min, 5 min, 30 min, 2 h, 6 h, then 12 h, and stops 24 h after the first attempt', () => {
    const first = new Date('2025-01-01T00:00:00Z');
    const offsets: number[] = [];
    let at = first;
    for (let attempt = 1; ; attempt++) {
      const next = nextAttemptAt(attempt, at, first);
      if (!next) break;
      offsets.push((next.getTime() - first.getTime()) / MINUTE);
      at = next;
    }
    // After the 1st attempt (0): 1, 6, 36, 156 (2 h 36), 516 (8 h 36), 1236 (20 h 36) minutes; 12 h more would pass the day.
    expect(offsets).toEqual([1, 6, 36, 156, 516, 1236]);
  });
});

describe.each(engines)('webhook deliveries on %s', (engine) => {
  const encryptionKey = randomBytes(32);
  let ctx: TestContext;
  const receiver = useReceiver();
  let subject: Subject;
  let runner: WebhookDeliveries;

  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine, { encryptionKey });
    runner = ctx.built.services.webhookDeliveries;
    await signIn(ctx, USERS.alice); // the dashboard learns of her servers
    await setPlan('enterprise');
    subject = await post<Subject>(`/api/settings/servers/${server}/subjects`, { name: 'Billing' });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const setPlan = (plan: string) => ctx.built.database.db.updateTable('servers').set({ plan, updated_at: now() }).where('id', '=', server).execute();
  async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, status?: number) {
    const response = await ctx.built.app.inject({ method, url, headers: operator, ...(payload ? { payload } : {}) });
    if (status !== undefined) expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return response;
  }
  const post = async <T>(url: string, payload?: object, status = 201) => (await call('POST', url, payload, status)).json<T>();
  const endpoint = (events: string[], url = receiver.url) => post<WebhookEndpointWithSecret>(hooks, { url, events });
  const openTicket = (name = 'billing-question') => post<Ticket>(tickets, { ticketName: name, subjectId: subject.subjectId, authorId: USERS.eli });
  const deliveries = async (endpointId: string) =>
    (await call('GET', `${hooks}/${endpointId}/deliveries`, undefined, 200)).json<PagedResult<WebhookDelivery>>().elements;
  const queued = async () => Number((await ctx.built.database.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('delivers a ticket opened once, signed with the endpoint’s secret', async () => {
    const { endpointId, secret } = await endpoint(['ticket.opened']);
    const ticket = await openTicket();
    expect(receiver.received).toEqual([]); // queued with the ticket, sent by the job runner
    expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(verifySignature(secret, delivery!)).toBe(true);
    const body = WebhookPayload.parse(JSON.parse(delivery!.body));
    expect(body).toMatchObject({ type: 'ticket.opened', serverId: server, data: { ticket: { ticketId: ticket.ticketId, number: ticket.number, authorId: USERS.eli, state: 'PendingStaff', closed: null } } });
    expect(delivery!.headers).toMatchObject({ 'webhook-id': body.id, 'webhook-event': 'ticket.opened', 'webhook-attempt': '1', 'content-type': 'application/json' });
    const timestamp = Number(delivery!.headers['webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    const [listed] = await deliveries(endpointId);
    expect(listed).toMatchObject({ eventId: body.id, event: 'ticket.opened', status: 'delivered', statusCode: 200, error: null, attempts: 1, nextAttemptAt: null });
    expect(listed!.history).toEqual([expect.objectContaining({ statusCode: 200, error: null })]);
    const [shown] = (await call('GET', hooks, undefined, 200)).json<{ lastDelivery: unknown }[]>();
    expect(shown!.lastDelivery).toMatchObject({ deliveryId: listed!.deliveryId, status: 'delivered', statusCode: 200 });
  });

  it('retries after the backoff when the receiver answers 500, and lists both attempts', async () => {
    const { endpointId, secret } = await endpoint(['ticket.opened']);
    await openTicket();
    receiver.answers.push(500);
    const t0 = new Date();
    expect(await runner.runDue(t0)).toBe(1);
    let [delivery] = await deliveries(endpointId);
    expect(delivery).toMatchObject({ status: 'pending', statusCode: 500, attempts: 1, nextAttemptAt: new Date(t0.getTime() + MINUTE).toISOString() });
    expect(await runner.runDue(new Date(t0.getTime() + 30_000))).toBe(0);
    expect(receiver.received).toHaveLength(1);
    expect(await runner.runDue(new Date(t0.getTime() + MINUTE + 1000))).toBe(1);
    [delivery] = await deliveries(endpointId);
    expect(delivery).toMatchObject({ status: 'delivered', statusCode: 200, attempts: 2, nextAttemptAt: null });
    expect(delivery!.history.map((a) => a.statusCode)).toEqual([500, 200]);
    expect(receiver.received.map((r) => r.headers['webhook-attempt'])).toEqual(['1', '2']);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(receiver.received.every((r) => verifySignature(secret, r))).toBe(true);
  });

  it('fails a delivery after a day of failed attempts, and does not follow redirects', async () => {
    const { endpointId } = await endpoint(['ticket.opened']);
    await openTicket();
    receiver.answers.push(302, ...Array<number>(10).fill(503));
    const t0 = Date.now();
    for (const minutes of [0, 1, 6, 36, 156, 516, 1236, 1236 + 720]) await runner.runDue(new Date(t0 + minutes * MINUTE + 1000));
    const [delivery] = await deliveries(endpointId);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 7, nextAttemptAt: null, statusCode: 503 });
    expect(delivery!.history[0]).toMatchObject({ statusCode: 302, error: 'The endpoint answered with a redirect, which is not followed' });
    expect(receiver.received).toHaveLength(7);
    expect(receiver.received.every((r) => r.headers.host === `127.0.0.1:${receiver.port}`)).toBe(true);
  });

  it('records a connection failure and a timeout as failed attempts', async () => {
    const closed = await startReceiver();
    await closed.close();
    const { endpointId } = await endpoint(['ticket.opened'], closed.url);
    await openTicket();
    await runner.runDue();
    expect((await deliveries(endpointId))[0]).toMatchObject({ status: 'pending', statusCode: null, error: 'The connection was refused' });

    const slow = new WebhookDeliveries(ctx.built.database.db, { encryptionKey, webhooks: { ...testConfig(sandbox).webhooks, timeoutMs: 200 } });
    const second = await endpoint(['ticket.closed']);
    receiver.state.delayMs = 1000;
    const ticket = await openTicket('slow-one');
    await call('PUT', `${tickets}/${ticket.ticketId}`, { closure: { closedBy: USERS.dana, reason: null, force: false } }, 200);
    await slow.runDue();
    expect((await deliveries(second.endpointId))[0]).toMatchObject({ status: 'pending', statusCode: null, error: 'No answer within 0.2 s' });
  });

  it('sends nothing for an event the endpoint did not choose, nor to a disabled endpoint, nor on another plan', async () => {
    const closedOnly = await endpoint(['ticket.closed']);
    const disabled = await endpoint(['ticket.opened', 'ticket.closed']);
    await call('PATCH', `${hooks}/${disabled.endpointId}`, { enabled: false }, 200);
    const ticket = await openTicket();
    expect(await queued()).toBe(0);
    expect(await runner.runDue()).toBe(0);
    await call('PUT', `${tickets}/${ticket.ticketId}`, { closure: { closedBy: USERS.dana, reason: 'Solved', force: false } }, 200);
    expect(await runner.runDue()).toBe(1);
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['ticket.closed']);
    expect(await deliveries(disabled.endpointId)).toEqual([]);
    expect(await deliveries(closedOnly.endpointId)).toHaveLength(1);
    // Downgraded: the endpoints stay, and hear nothing.
    await setPlan('premium');
    await call('PUT', `${tickets}/${ticket.ticketId}`, { closure: null }, 200);
    await call('PUT', `${tickets}/${ticket.ticketId}`, { closure: { closedBy: USERS.dana, reason: null, force: false } }, 200);
    expect(await queued()).toBe(1);
  });

  it('fails what waits for an endpoint that is switched off', async () => {
    const { endpointId } = await endpoint(['ticket.opened']);
    await openTicket();
    await call('PATCH', `${hooks}/${endpointId}`, { enabled: false }, 200);
    expect(await runner.runDue()).toBe(0);
    expect((await deliveries(endpointId))[0]).toMatchObject({ status: 'failed', attempts: 0, error: 'The endpoint was disabled' });
    expect(receiver.received).toEqual([]);
  });

  it('reports claimed, closed, reopened, deleted and message.created, with the message the bot runtime reports recorded once', async () => {
    const { endpointId, secret } = await endpoint(['ticket.claimed', 'ticket.closed', 'ticket.reopened', 'ticket.deleted', 'message.created']);
    const ticket = await openTicket();
    const report = { message: { content: 'Still charged twice' }, messageType: 'User', authorId: USERS.eli, externalId: '1400000000000000001' };
    await post(`${tickets}/${ticket.ticketId}/messages`, report);
    await post(`${tickets}/${ticket.ticketId}/messages`, report); // the runtime reports at least once
    await call('PUT', `${tickets}/${ticket.ticketId}`, { assigneeId: USERS.dana }, 200);
    await call('PUT', `${tickets}/${ticket.ticketId}`, { closure: { closedBy: USERS.dana, reason: 'Refunded', force: false } }, 200);
    await call('PUT', `${tickets}/${ticket.ticketId}`, { closure: { closedBy: USERS.dana, reason: 'Again', force: false } }, 409);
    await call('PUT', `${tickets}/${ticket.ticketId}`, { closure: null }, 200);
    await call('DELETE', `${tickets}/${ticket.ticketId}`, undefined, 204);
    expect(await runner.runDue()).toBe(5);
    const bodies = receiver.received.map((r) => WebhookPayload.parse(JSON.parse(r.body)));
    expect(bodies.map((b) => b.type).sort()).toEqual(['message.created', 'ticket.claimed', 'ticket.closed', 'ticket.deleted', 'ticket.reopened']);
    expect(receiver.received.every((r) => verifySignature(secret, r))).toBe(true);
    const byType = Object.fromEntries(bodies.map((b) => [b.type, b]));
    expect(byType['message.created']!.data).toMatchObject({ ticket: { ticketId: ticket.ticketId }, message: { content: 'Still charged twice', externalId: '1400000000000000001', authorId: USERS.eli } });
    expect(byType['ticket.claimed']!.data).toMatchObject({ ticket: { assigneeId: USERS.dana } });
    expect(byType['ticket.closed']!.data).toMatchObject({ ticket: { state: 'Closed', closed: { closedBy: USERS.dana, reason: 'Refunded', force: false } } });
    expect(byType['ticket.reopened']!.data).toMatchObject({ ticket: { state: 'PendingStaff', closed: null } });
    expect(byType['ticket.deleted']!.data).toMatchObject({ ticket: { ticketId: ticket.ticketId } });
    expect(await deliveries(endpointId)).toHaveLength(5);
  });

  it('delivers each once when two job runners run at the same time', async () => {
    await endpoint(['ticket.opened']);
    for (let i = 0; i < 6; i++) await openTicket(`parallel-${i}`);
    receiver.state.delayMs = 50;
    // The second runner is another process as far as the database can tell: a connection of its own where the engine allows.
    let second: Database | null = null;
    if (engine === 'postgres') {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(ctx.built.database.db);
      second = await openDatabase(process.env.TEST_DATABASE_URL!, { schema: rows[0]!.schema, migrate: false });
    }
    try {
      const other = new WebhookDeliveries((second ?? ctx.built.database).db, { encryptionKey, webhooks: testConfig(sandbox).webhooks });
      const at = new Date();
      const [a, b] = await Promise.all([runner.runDue(at, 2), other.runDue(at, 2)]);
      expect(a + b).toBe(6);
      expect(await runner.runDue(new Date(at.getTime() + 3600_000))).toBe(0);
    } finally {
      await second?.destroy();
    }
    expect(receiver.received).toHaveLength(6);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(6);
  });

  it('keeps deliveries for 14 days', async () => {
    const { endpointId } = await endpoint(['ticket.opened']);
    await openTicket('old');
    await runner.runDue();
    const old = new Date(Date.now() - 15 * 24 * 3600_000).toISOString();
    await ctx.built.database.db.updateTable('webhook_deliveries').set({ created_at: old }).execute();
    await openTicket('new');
    expect(await runner.prune()).toBe(1);
    const left = await deliveries(endpointId);
    expect(left).toHaveLength(1);
    expect(left[0]!.status).toBe('pending');
  });
});
