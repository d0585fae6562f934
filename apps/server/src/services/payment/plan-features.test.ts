import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { Subject, Ticket, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WhitelabelChangeNotice, WhitelabelEntry, PagedResult } from '@ticket/contracts';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { useReceiver } from '../../test/webhook-receiver';
import { applyPlan } from './apply-plan';
import * as repo from './repository';

/**
 * What a server loses when it leaves the Enterprise plan, whatever ends its subscription: its
 * white-label bot stops (the runner is told at once) and its webhooks' events are not delivered.
 * Both come back with the plan.
 */
const sandbox = useSandbox();

const A = GUILDS.pixelForge; // Alice owns it
const OPERATOR = { authorization: `Admin ${ADMIN_KEY}` };
const STUDY_BUDDY_TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDEwMQ.E--lXY.A3AbhSLdCfjpzJY3v-QUqFoMAqo6qhdTLY5tuE';
const STOPPED = 'Stopped: the server is no longer on the Enterprise plan';
const NOT_DELIVERED = 'Not delivered: the server is no longer on the Enterprise plan';

describe.each(engines)('leaving the Enterprise plan on %s', (engine) => {
  let ctx: TestContext;
  const receiver = useReceiver();
  let alice: Record<string, string>;
  let subscriptionId: string;
  let notices: WhitelabelChangeNotice[];

  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    alice = bearer((await signIn(ctx, USERS.alice)).token);
    subscriptionId = randomUUID();
    await repo.insertSubscription(ctx.built.database.db, {
      id: subscriptionId,
      user_id: USERS.alice,
      provider: 'stripe',
      provider_subscription_id: `sub_${subscriptionId}`,
      state: 'active',
      plan_type: 'enterprise',
      plan_interval: 'monthly',
      server_id: A,
      applied: 0,
      cancel_at_period_end: 0,
    });
    await ctx.built.services.payments.inPlanTransaction((trx) => applyPlan(trx, A));
    notices = [];
    ctx.built.services.whitelabelChanges.subscribe((notice) => notices.push(notice));
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function call<T>(headers: Record<string, string>, method: InjectOptions['method'], url: string, payload?: object, status?: number): Promise<T> {
    const response = await ctx.built.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    if (status !== undefined) expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return (response.body ? response.json() : null) as T;
  }
  const plan = async () => (await ctx.built.database.db.selectFrom('servers').select('plan').where('id', '=', A).executeTakeFirstOrThrow()).plan;
  const bot = () => call<WhitelabelEntry>(OPERATOR, 'GET', `/api/deployment/whitelabel/${A}`, undefined, 200);
  const botRow = () => ctx.built.database.db.selectFrom('whitelabel_bots').selectAll().where('server_id', '=', A).executeTakeFirstOrThrow();
  const hooks = `/api/settings/servers/${A}/webhooks`;
  const deliveries = () => ctx.built.database.db.selectFrom('webhook_deliveries').selectAll().orderBy('created_at').execute();
  const revoke = () => call(alice, 'DELETE', `/api/payment/servers/${A}/subscription/revoke`, undefined, 200);

  /** Study Buddy set up, started and reported running. */
  async function runningBot(): Promise<WhitelabelEntry> {
    await call(alice, 'POST', `/api/deployment/whitelabel/${A}`, { token: STUDY_BUDDY_TOKEN }, 201);
    const { revision } = await call<WhitelabelEntry>(alice, 'POST', `/api/deployment/whitelabel/${A}/start`, undefined, 202);
    await call(OPERATOR, 'PUT', `/api/deployment/whitelabel/${A}/status`, { status: 'Running', revision }, 204);
    return bot();
  }

  it('stops the white-label bot with its reason, tells the runner after the commit, keeps the token, and lets it start again once back on the plan', async () => {
    const running = await runningBot();
    expect(running.status).toBe('Running');
    const revision = running.revision ?? 0;
    notices.length = 0;
    // The runner hears of the stop once it is committed: what it reads then is the stopped bot off the plan.
    let seenAtNotice: { plan: string; status: string } | null = null;
    ctx.built.services.whitelabelChanges.subscribe(
      () =>
        void Promise.all([plan(), botRow()]).then(([p, row]) => {
          seenAtNotice = { plan: p, status: row.status };
        }),
    );

    await revoke();

    expect(await plan()).toBe('free');
    const stopped = await bot();
    expect(stopped).toMatchObject({ status: 'NotRunning', statusMessage: STOPPED, revision: revision + 1 });
    expect(notices).toEqual([{ serverId: A, change: 'status', status: 'NotRunning', revision: revision + 1, at: expect.any(String) }]);
    await expect.poll(() => seenAtNotice).toEqual({ plan: 'free', status: 'NotRunning' });
    expect((await botRow()).token_sealed).not.toBeNull();
    // A late report of the runner about the bot as it ran changes nothing.
    await call(OPERATOR, 'PUT', `/api/deployment/whitelabel/${A}/status`, { status: 'Running', revision }, 409);
    // Off the plan it cannot be started again.
    await call(alice, 'POST', `/api/deployment/whitelabel/${A}/start`, undefined, 402);
    expect(await bot()).toMatchObject({ status: 'NotRunning', statusMessage: STOPPED });

    // The subscription comes back to the server: the same bot starts with the token it kept.
    await call(alice, 'POST', '/api/payment/@me/transfer', { subscriptionId, serverId: A }, 200);
    expect(await plan()).toBe('enterprise');
    const started = await call<WhitelabelEntry>(alice, 'POST', `/api/deployment/whitelabel/${A}/start`, undefined, 202);
    expect(started).toMatchObject({ status: 'Starting', statusMessage: null, revision: revision + 2 });
    expect(notices.at(-1)).toMatchObject({ serverId: A, change: 'started', status: 'Starting' });
  });

  it('leaves a bot that is not running as it is, and tells the runner nothing', async () => {
    await call(alice, 'POST', `/api/deployment/whitelabel/${A}`, { token: STUDY_BUDDY_TOKEN }, 201);
    const before = await bot();
    notices.length = 0;
    await revoke();
    expect(await bot()).toEqual(before);
    expect(notices).toEqual([]);
  });

  it('does not deliver the webhooks’ waiting events nor queue new ones, keeps the endpoints, and delivers again once back on the plan', async () => {
    const subject = await call<Subject>(OPERATOR, 'POST', `/api/settings/servers/${A}/subjects`, { name: 'Billing' }, 201);
    const { endpointId } = await call<WebhookEndpointWithSecret>(OPERATOR, 'POST', hooks, { url: receiver.url, events: ['ticket.opened'] }, 201);
    const openTicket = (name: string) =>
      call<Ticket>(OPERATOR, 'POST', `/api/support/servers/${A}/tickets`, { ticketName: name, subjectId: subject.subjectId, authorId: USERS.eli }, 201);
    await openTicket('before-the-revoke');
    expect((await deliveries()).map((d) => d.status)).toEqual(['pending']);

    await revoke();

    // What waited is not sent, and says why.
    expect((await deliveries()).map((d) => ({ status: d.status, last_error: d.last_error, next_attempt_at: d.next_attempt_at, attempts: d.attempts }))).toEqual([
      { status: 'failed', last_error: NOT_DELIVERED, next_attempt_at: null, attempts: 0 },
    ]);
    // New events queue nothing; the job runner sends nothing.
    await openTicket('after-the-revoke');
    expect(await deliveries()).toHaveLength(1);
    expect(await ctx.built.services.webhookDeliveries.runDue()).toBe(0);
    expect(receiver.received).toEqual([]);

    // Back on the plan, the endpoint is there as it was and events go out again.
    await call(alice, 'POST', '/api/payment/@me/transfer', { subscriptionId, serverId: A }, 200);
    const endpoints = await call<WebhookEndpoint[]>(OPERATOR, 'GET', hooks, undefined, 200);
    expect(endpoints).toMatchObject([{ endpointId, url: receiver.url, enabled: true, lastDelivery: { status: 'failed' } }]);
    const back = await openTicket('back-on-the-plan');
    expect(await ctx.built.services.webhookDeliveries.runDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'ticket.opened', serverId: A, data: { ticket: { ticketId: back.ticketId } } });
    const page = await call<PagedResult<WebhookDelivery>>(OPERATOR, 'GET', `${hooks}/${endpointId}/deliveries`, undefined, 200);
    expect(page.elements.map((d) => [d.status, d.error])).toEqual([
      ['delivered', null],
      ['failed', NOT_DELIVERED],
    ]);
  });

  it('refuses a delivery whose server left the plan before the listeners heard of it', async () => {
    const { endpointId } = await call<WebhookEndpointWithSecret>(OPERATOR, 'POST', hooks, { url: receiver.url, events: ['ticket.opened'] }, 201);
    const test = await call<WebhookDelivery>(OPERATOR, 'POST', `${hooks}/${endpointId}/test`, undefined, 201);
    expect(test.status).toBe('delivered');
    receiver.received.length = 0;
    // The plan changed behind the payment service's back (an operator's fix in the database): the runner still checks.
    await ctx.built.database.db.updateTable('webhook_deliveries').set({ status: 'pending', next_attempt_at: new Date(0).toISOString() }).execute();
    await ctx.built.database.db.updateTable('servers').set({ plan: 'premium' }).where('id', '=', A).execute();
    expect(await ctx.built.services.webhookDeliveries.runDue()).toBe(1);
    expect(receiver.received).toEqual([]);
    expect((await deliveries())[0]).toMatchObject({ status: 'failed', last_error: NOT_DELIVERED });
  });
});
