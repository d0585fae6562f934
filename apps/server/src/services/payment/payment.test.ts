import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type Stripe from 'stripe';
import type { ErrorBody, Receipt, ServerSettings, SessionResponse, StatusResponse, Subscription, SubscriptionSummary } from '@ticket/contracts';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, signIn, STRIPE_WEBHOOK_SECRET, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { buyByCard, CARDS, decidePaypal, payCheckout, sandboxStripe } from '../../test/payment-providers';

const sandbox = useSandbox();
let stripe: Stripe;
beforeAll(() => {
  stripe = sandboxStripe(sandbox);
});

const A = GUILDS.pixelForge;
const NIGHT_OWLS = GUILDS.nightOwls;
const WEBHOOK = '/api/payment/webhook/stripe/webhook';

const control = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
};
/** Waits until every webhook delivery under way has been answered by the app. */
const flush = () => control('POST', '/stripe/deliveries/flush');
const signed = (payload: string, secret = STRIPE_WEBHOOK_SECRET) => ({
  'content-type': 'application/json',
  'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret }),
});

describe.each(engines)('subscriptions by card on %s', (engine) => {
  let ctx: TestContext;
  let alice: string; // owner of Pixel Forge
  let bruno: string; // admin of Pixel Forge, owner of Night Owls
  let eli: string; // member

  beforeEach(async () => {
    made = 0;
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    const url = await ctx.built.app.listen({ port: 0, host: '127.0.0.1' });
    // The sandbox signs its deliveries with the app's secret and forwards every event to the app, as `stripe listen` would.
    await control('PUT', '/stripe/config', { webhookSecret: STRIPE_WEBHOOK_SECRET, forwardTo: `${url}${WEBHOOK}`, retryDelaysMs: [] });
    await control('PUT', '/paypal/config', { webhookUrl: `${url}/api/payment/webhook/paypal` });
    alice = (await signIn(ctx, USERS.alice)).token;
    bruno = (await signIn(ctx, USERS.bruno)).token;
    eli = (await signIn(ctx, USERS.eli)).token;
  });
  afterEach(async () => {
    await flush();
    await control('PUT', '/stripe/config', { forwardTo: null, webhookSecret: null });
    await control('PUT', '/paypal/config', { webhookUrl: null });
    await ctx.close();
  });

  const inject = (options: InjectOptions) => ctx.built.app.inject(options);
  const as = (token: string, method: InjectOptions['method'], url: string, payload?: unknown) =>
    inject({ method, url: `/api/payment${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const plan = async (serverId: string = A) =>
    (await inject({ method: 'GET', url: `/api/settings/servers/${serverId}/settings`, headers: { authorization: `Admin ${ADMIN_KEY}` } })).json<ServerSettings>().subscription;
  const serverSubscription = async (serverId: string = A) => (await as(alice, 'GET', `/servers/${serverId}/subscription?multiple=true`)).json<Subscription[]>();
  const receipts = () => ctx.built.database.db.selectFrom('receipts').selectAll().orderBy('number').execute();
  const complete = (token: string, sessionId: string, serverId: string = A) =>
    as(token, 'POST', `/servers/${serverId}/subscription/complete?provider=stripe&token=${encodeURIComponent(sessionId)}`);
  let made = 0;
  const createSubjects = async (count: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const name = `Subject ${made + 1}`;
      const response = await inject({ method: 'POST', url: `/api/settings/servers/${A}/subjects`, headers: bearer(alice), payload: { name } });
      if (response.statusCode === 201) made += 1;
      statuses.push(response.statusCode);
    }
    return statuses;
  };
  const subjects = async () =>
    (await inject({ method: 'GET', url: `/api/settings/servers/${A}/subjects`, headers: bearer(alice) })).json<{ name: string; active: boolean }[]>();

  it('buys Premium by card: the checkout has the configured price, the result page completes it, the server gets 25 subjects', async () => {
    expect(await createSubjects(4)).toEqual([201, 201, 201, 402]);
    const created = await as(bruno, 'POST', `/servers/${A}/subscription?provider=stripe`, { provider: 'stripe', type: 'premium', interval: 'annually' });
    expect(created.statusCode, created.body).toBe(201);
    const { status, session } = created.json<SessionResponse>();
    expect(status).toBe('open');
    const stripeSession = await stripe.checkout.sessions.retrieve(session.id);
    expect(stripeSession.amount_total).toBe(2160); // 12 × $2.25 less 20 %
    expect(stripeSession.mode).toBe('subscription');
    expect(stripeSession.success_url).toBe(`http://localhost:3000/staff/${A}/premium/success?provider=stripe&token={CHECKOUT_SESSION_ID}`);
    expect(stripeSession.cancel_url).toBe(`http://localhost:3000/staff/${A}/premium/cancel`);

    // Not paid yet: the result page keeps polling.
    expect((await complete(bruno, session.id)).json<StatusResponse>().status).toBe('processing');
    expect((await payCheckout(session.url, CARDS.declined)).status).toBe(402);
    const paid = await payCheckout(session.url);
    expect(paid.location).toBe(`http://localhost:3000/staff/${A}/premium/success?provider=stripe&token=${session.id}`);

    const done = await complete(bruno, session.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<StatusResponse>().status).toBe('complete');
    await flush(); // the webhook of the same checkout changes nothing more
    expect(await plan()).toBe('premium');
    const [sub] = await serverSubscription();
    expect(sub).toMatchObject({ userId: USERS.bruno, state: 'active', provider: 'stripe', planType: 'premium', planInterval: 'annually', applied: true, serverId: A, cancelAtPeriodEnd: false });
    expect(sub!.server).toMatchObject({ serverId: A, name: 'Pixel Forge' });
    expect(Date.parse(sub!.nextBilling!)).toBeGreaterThan(Date.now() + 360 * 86_400_000);
    expect((await as(bruno, 'GET', '/@me/subscriptions')).json<Subscription[]>().map((s) => s.id)).toEqual([sub!.id]);
    expect((await as(eli, 'GET', '/@me/subscriptions')).json<Subscription[]>()).toEqual([]);
    const bulk = await inject({ method: 'POST', url: '/api/payment/bulk/subscriptions', headers: { authorization: `Admin ${ADMIN_KEY}` }, payload: { ids: [A, NIGHT_OWLS] } });
    expect(bulk.json<SubscriptionSummary[]>().map((s) => [s.serverId, s.planType])).toEqual([[A, 'premium']]);

    const listed = await as(bruno, 'GET', '/@me/receipts');
    expect(listed.statusCode).toBe(200);
    expect(listed.json<Receipt[]>()).toEqual([
      expect.objectContaining({ number: expect.any(Number), kind: 'payment', userId: USERS.bruno, server: expect.objectContaining({ serverId: A, name: 'Pixel Forge' }), planType: 'premium', planInterval: 'annually', amountCents: 2160, currency: 'USD', provider: 'stripe', carbonRemovalCents: 43 }),
    ]);
    expect((await as(alice, 'GET', '/@me/receipts')).json()).toEqual([]);
    const number = listed.json<Receipt[]>()[0]!.number;
    const pdf = await as(bruno, 'GET', `/@me/receipts/${number}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await as(alice, 'GET', `/@me/receipts/${number}/pdf`)).statusCode).toBe(404);
    const [receipt, ...more] = await receipts();
    expect(more).toEqual([]);
    expect(receipt).toMatchObject({ kind: 'payment', user_id: USERS.bruno, server_id: A, amount_cents: 2160, currency: 'USD', carbon_removal_cents: 43, plan_type: 'premium', plan_interval: 'annually' });
    // Completing again changes nothing.
    expect((await complete(bruno, session.id)).json<StatusResponse>().status).toBe('complete');
    expect(await receipts()).toHaveLength(1);

    expect(await createSubjects(22)).toEqual(Array(22).fill(201));
    expect(await createSubjects(1)).toEqual([402]);
  });

  it('lets only staff of the server who signed in buy, with prices that never come from the request', async () => {
    const body = { provider: 'stripe', type: 'enterprise', interval: 'monthly' };
    expect((await as(eli, 'POST', `/servers/${A}/subscription`, body)).statusCode).toBe(403);
    const operator = await inject({ method: 'POST', url: `/api/payment/servers/${A}/subscription`, headers: { authorization: `Admin ${ADMIN_KEY}` }, payload: body });
    expect(operator.statusCode).toBe(403);
    expect((await as(alice, 'POST', `/servers/${A}/subscription?provider=paypal`, body)).statusCode).toBe(400);
    const withPrice = await as(alice, 'POST', `/servers/${A}/subscription`, { ...body, amount: 1, unit_amount: 1 });
    expect(withPrice.statusCode).toBe(201);
    const session = await stripe.checkout.sessions.retrieve(withPrice.json<SessionResponse>().session.id);
    expect(session.amount_total).toBe(600);
    // Another server's checkout is unknown on this one.
    expect((await complete(bruno, session.id, NIGHT_OWLS)).statusCode).toBe(404);
  });

  it('applies a checkout from the webhook alone, once, however often the event comes', async () => {
    const sessionId = await buyByCard(ctx, alice, A);
    await flush();
    expect(await plan()).toBe('premium');
    expect(await receipts()).toHaveLength(1);
    const { events } = (await control('GET', '/stripe/events?type=checkout.session.completed')) as { events: { id: string }[] };
    const event = events.find((e) => JSON.stringify(e).includes(sessionId))!;
    await control('POST', `/stripe/events/${event.id}/resend`);
    const payload = JSON.stringify(await stripe.events.retrieve(event.id));
    expect((await inject({ method: 'POST', url: WEBHOOK, headers: signed(payload), payload })).statusCode).toBe(204);
    expect(await serverSubscription()).toHaveLength(1);
    expect(await receipts()).toHaveLength(1);
    expect((await complete(alice, sessionId)).json<StatusResponse>().status).toBe('complete');
  });

  it('refuses forged, unsigned and stale webhooks with 400 and changes nothing', async () => {
    await buyByCard(ctx, alice, A);
    await flush();
    const [sub] = await serverSubscription();
    const stripeSub = (await ctx.built.database.db.selectFrom('subscriptions').select('provider_subscription_id').executeTakeFirstOrThrow()).provider_subscription_id;
    const payload = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'customer.subscription.deleted', created: Math.floor(Date.now() / 1000), data: { object: { id: stripeSub, object: 'subscription', status: 'canceled' } } });
    const events = async () => (await ctx.built.database.db.selectFrom('payment_events').select('event_id').execute()).length;
    const before = await events();
    const stale = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 600 });
    for (const headers of [
      { 'content-type': 'application/json' },
      signed(payload, 'whsec_someone_else'),
      { 'content-type': 'application/json', 'stripe-signature': stale },
      { ...signed(payload), 'stripe-signature': 't=1,v1=deadbeef' },
    ]) {
      const response = await inject({ method: 'POST', url: WEBHOOK, headers, payload });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<ErrorBody>()).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'bad_request' });
    }
    expect(await events()).toBe(before);
    expect(await serverSubscription()).toEqual([sub]);
    expect(await plan()).toBe('premium');
  });

  it('changes nothing for events of unknown subscriptions, and never puts back an older state from an event out of order', async () => {
    const unknown = JSON.stringify({
      id: 'evt_unknown_1',
      object: 'event',
      type: 'customer.subscription.updated',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'sub_nobody', object: 'subscription', status: 'active' } },
    });
    expect((await inject({ method: 'POST', url: WEBHOOK, headers: signed(unknown), payload: unknown })).statusCode).toBe(204);
    const paid = JSON.stringify({ id: 'evt_unknown_2', object: 'event', type: 'invoice.paid', created: 1, data: { object: { id: 'in_nobody', object: 'invoice', parent: { subscription_details: { subscription: 'sub_nobody' } } } } });
    expect((await inject({ method: 'POST', url: WEBHOOK, headers: signed(paid), payload: paid })).statusCode).toBe(204);
    expect(await ctx.built.database.db.selectFrom('subscriptions').selectAll().execute()).toEqual([]);
    expect(await receipts()).toEqual([]);

    await buyByCard(ctx, alice, A);
    await flush();
    const stripeSubId = (await ctx.built.database.db.selectFrom('subscriptions').select('provider_subscription_id').executeTakeFirstOrThrow()).provider_subscription_id;
    // Cancelled in Stripe's own dashboard: the product hears of it by webhook.
    await stripe.subscriptions.cancel(stripeSubId);
    await flush();
    expect((await serverSubscription())[0]).toMatchObject({ state: 'canceled', applied: false });
    expect(await plan()).toBe('free');
    // An older "updated" event (still active) arrives late, under a new id: the state stays as Stripe has it now.
    const { events } = (await control('GET', '/stripe/events?type=customer.subscription.created')) as { events: { id: string }[] };
    const old = (await stripe.events.retrieve(events[0]!.id)) as unknown as Record<string, unknown>;
    const late = JSON.stringify({ ...old, id: 'evt_late_1', type: 'customer.subscription.updated' });
    expect((await inject({ method: 'POST', url: WEBHOOK, headers: signed(late), payload: late })).statusCode).toBe(204);
    expect((await serverSubscription())[0]).toMatchObject({ state: 'canceled', applied: false });
    expect(await plan()).toBe('free');
  });

  it('renews through the sandbox clock with a receipt, and pauses the plan when a renewal fails', async () => {
    expect(await createSubjects(3)).toEqual([201, 201, 201]);
    await buyByCard(ctx, alice, A);
    await flush();
    expect(await createSubjects(3)).toEqual([201, 201, 201]);
    const first = (await serverSubscription())[0]!;
    await control('POST', '/clock', { advanceSeconds: 32 * 86_400 });
    await flush();
    const renewed = (await serverSubscription())[0]!;
    expect(renewed.state).toBe('active');
    expect(Date.parse(renewed.nextBilling!)).toBeGreaterThan(Date.parse(first.nextBilling!));
    const all = await receipts();
    expect(all.map((r) => [r.kind, r.amount_cents])).toEqual([
      ['payment', 225],
      ['payment', 225],
    ]);
    expect(all[1]!.period_start).toBe(first.nextBilling);

    const stripeSubId = (await ctx.built.database.db.selectFrom('subscriptions').select('provider_subscription_id').executeTakeFirstOrThrow()).provider_subscription_id;
    await control('POST', `/stripe/subscriptions/${stripeSubId}/fail-next-renewal`, { failures: 1 });
    await control('POST', '/clock', { advanceSeconds: 31 * 86_400 });
    await flush();
    expect((await serverSubscription())[0]).toMatchObject({ state: 'paused', applied: false });
    expect(await plan()).toBe('free');
    // Nothing is deleted: the subjects beyond the Free plan's 3 are inactive, in their order.
    expect((await subjects()).map((s) => [s.name, s.active])).toEqual([
      ['Subject 1', true],
      ['Subject 2', true],
      ['Subject 3', true],
      ['Subject 4', false],
      ['Subject 5', false],
      ['Subject 6', false],
    ]);
    // Switching one back on by hand waits for the plan: it comes back when the server is paid again.
    const fourth = (await subjects()).find((s) => s.name === 'Subject 4') as unknown as { subjectId: string };
    const reactivate = await inject({
      method: 'PATCH',
      url: `/api/settings/servers/${A}/subjects/${fourth.subjectId}`,
      headers: bearer(alice),
      payload: { serverId: A, subjectId: fourth.subjectId, path: 'active', operation: 'set', value: true },
    });
    expect(reactivate.statusCode, reactivate.body).toBe(402);
    expect(await receipts()).toHaveLength(2);
  });

  const mine = async (token: string) => (await as(token, 'GET', '/@me/subscriptions')).json<Subscription[]>();

  it('cancels within 7 days of the first payment with a full refund and ends the plan at once', async () => {
    await buyByCard(ctx, alice, A);
    await flush();
    const [sub] = await mine(alice);
    expect((await as(bruno, 'DELETE', '/@me/cancel', { subscriptionId: sub!.id })).statusCode).toBe(404); // not his
    const cancelled = await as(alice, 'DELETE', '/@me/cancel', { subscriptionId: sub!.id });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<Subscription>()).toMatchObject({ id: sub!.id, state: 'canceled', applied: false });
    await flush(); // Stripe's own events of the refund and the cancellation change nothing more
    expect(await plan()).toBe('free');
    expect((await receipts()).map((r) => [r.kind, r.amount_cents, r.carbon_removal_cents])).toEqual([
      ['payment', 225, 5],
      ['refund', 225, 5],
    ]);
    const charges = await stripe.charges.list();
    expect(charges.data[0]).toMatchObject({ amount_refunded: 225, refunded: true });
    // Irreversible: cancelling again is refused.
    expect((await as(alice, 'DELETE', '/@me/cancel', { subscriptionId: sub!.id })).statusCode).toBe(409);
  });

  it('after 7 days, cancels at the end of the paid period: the plan stays until then, then ends', async () => {
    await buyByCard(ctx, alice, A);
    await flush();
    const [sub] = await mine(alice);
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
    await ctx.built.database.db.updateTable('subscriptions').set({ first_paid_at: eightDaysAgo }).execute();
    const cancelled = await as(alice, 'DELETE', '/@me/cancel', { subscriptionId: sub!.id });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<Subscription>()).toMatchObject({ state: 'active', cancelAtPeriodEnd: true, applied: true, nextBilling: sub!.nextBilling });
    await flush();
    expect(await plan()).toBe('premium');
    expect((await receipts()).map((r) => r.kind)).toEqual(['payment']);
    await control('POST', '/clock', { advanceSeconds: 32 * 86_400 });
    await flush();
    expect((await mine(alice))[0]).toMatchObject({ state: 'canceled', applied: false });
    expect(await plan()).toBe('free');
    expect((await receipts()).map((r) => r.kind)).toEqual(['payment']);
  });

  it('moves a subscription to another server where the buyer is staff; the old server returns to Free', async () => {
    await buyByCard(ctx, bruno, A, 'enterprise');
    await flush();
    expect(await plan()).toBe('enterprise');
    const [sub] = await mine(bruno);
    expect(sub!.lastTransferred).toBeUndefined();
    // Alice is a plain member of Night Owls: she may not move a plan there, nor move Bruno's at all.
    expect((await as(alice, 'POST', '/@me/transfer', { subscriptionId: sub!.id, serverId: NIGHT_OWLS })).statusCode).toBe(404);
    expect((await as(bruno, 'POST', '/@me/transfer', { subscriptionId: sub!.id, serverId: GUILDS.studyHall })).statusCode).toBe(403);
    const moved = await as(bruno, 'POST', '/@me/transfer', { subscriptionId: sub!.id, serverId: NIGHT_OWLS });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Subscription>()).toMatchObject({ serverId: NIGHT_OWLS, applied: true, server: { serverId: NIGHT_OWLS, name: 'Night Owls' } });
    expect(Date.parse(moved.json<Subscription>().lastTransferred!)).toBeGreaterThan(Date.now() - 60_000);
    expect(await plan()).toBe('free');
    expect(await plan(NIGHT_OWLS)).toBe('enterprise');
    expect(await serverSubscription()).toHaveLength(0);
    // A renewal after the move bills for the server it is on now.
    await control('POST', '/clock', { advanceSeconds: 32 * 86_400 });
    await flush();
    expect((await receipts()).map((r) => [r.kind, r.server_id])).toEqual([
      ['payment', A],
      ['payment', NIGHT_OWLS],
    ]);
  });

  it('upgrades at once with proration, schedules a downgrade for the end of the period, and cancels it', async () => {
    await buyByCard(ctx, alice, A);
    await flush();
    const [sub] = await mine(alice);
    const change = (plan: string, interval = 'monthly') => as(alice, 'PATCH', '/@me/change-plan', { subscriptionId: sub!.id, plan, interval });
    expect((await as(bruno, 'PATCH', '/@me/change-plan', { subscriptionId: sub!.id, plan: 'enterprise', interval: 'monthly' })).statusCode).toBe(404);

    const upgraded = await change('enterprise');
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    expect(upgraded.json()).toEqual({ status: 'applied', requiresConfirmation: false, confirmationSession: null });
    await flush();
    expect(await plan()).toBe('enterprise');
    const paid = await receipts();
    expect(paid.map((r) => r.plan_type)).toEqual(['premium', 'enterprise']);
    // The rest of the month at Enterprise's price less what is left of Premium's: about $3.75.
    expect(paid[1]!.amount_cents).toBeGreaterThan(350);
    expect(paid[1]!.amount_cents).toBeLessThanOrEqual(375);

    const downgrade = await change('premium');
    expect(downgrade.json()).toMatchObject({ status: 'scheduled', requiresConfirmation: false });
    await flush();
    let now = (await mine(alice))[0]!;
    expect(now).toMatchObject({ planType: 'enterprise', scheduledChange: { planType: 'premium', planInterval: 'monthly', effectiveDate: now.nextBilling } });
    expect(await plan()).toBe('enterprise');

    const dropped = await as(alice, 'DELETE', '/@me/scheduled-change', { subscriptionId: sub!.id });
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json<Subscription>()).toMatchObject({ planType: 'enterprise', scheduledChange: null });
    expect((await as(alice, 'DELETE', '/@me/scheduled-change', { subscriptionId: sub!.id })).statusCode).toBe(409);

    expect((await change('premium')).json()).toMatchObject({ status: 'scheduled' });
    await control('POST', '/clock', { advanceSeconds: 32 * 86_400 });
    await flush();
    now = (await mine(alice))[0]!;
    expect(now).toMatchObject({ planType: 'premium', scheduledChange: null, state: 'active' });
    expect(await plan()).toBe('premium');
    const renewal = (await receipts()).at(-1)!;
    expect(renewal).toMatchObject({ kind: 'payment', plan_type: 'premium', amount_cents: 225 });
  });

  it("lets the server's admins detach its subscription: the server returns to Free and the buyer can apply it again", async () => {
    await buyByCard(ctx, alice, A);
    await flush();
    expect((await as(eli, 'DELETE', `/servers/${A}/subscription/revoke`)).statusCode).toBe(403);
    const revoked = await as(bruno, 'DELETE', `/servers/${A}/subscription/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json<StatusResponse>().status).toBe('complete');
    expect(await plan()).toBe('free');
    const [sub] = await mine(alice);
    expect(sub).toMatchObject({ state: 'active', applied: false, server: null });
    expect(sub!.serverId).toBeUndefined();
    expect((await as(bruno, 'DELETE', `/servers/${A}/subscription/revoke`)).statusCode).toBe(404);
    const back = await as(alice, 'POST', '/@me/transfer', { subscriptionId: sub!.id, serverId: A });
    expect(back.json<Subscription>()).toMatchObject({ applied: true, serverId: A });
    expect(await plan()).toBe('premium');
  });

  it('buys by PayPal: approval on PayPal, completion verified with PayPal, renewals by its webhook; a cancelled approval buys nothing', async () => {
    const waitPaypal = () => control('POST', '/paypal/deliveries/wait');
    const start = async () => {
      const created = await as(alice, 'POST', `/servers/${A}/subscription?provider=paypal`, { provider: 'paypal', type: 'premium', interval: 'monthly' });
      expect(created.statusCode, created.body).toBe(201);
      return created.json<SessionResponse>();
    };
    const cancelled = await start();
    const back = await decidePaypal(sandbox, cancelled.session.url, 'cancel');
    expect(back).toContain(`http://localhost:3000/staff/${A}/premium/cancel?provider=paypal`);
    await waitPaypal();
    expect((await complete(alice, cancelled.session.id).then((r) => r.json<StatusResponse>())).status).not.toBe('complete');
    expect(await plan()).toBe('free');

    const { status, session } = await start();
    expect(status).toBe('open');
    expect((await as(alice, 'POST', `/servers/${A}/subscription/complete?provider=paypal&token=${session.id}`)).json<StatusResponse>().status).toBe('processing');
    const location = await decidePaypal(sandbox, session.url);
    expect(location).toContain(`http://localhost:3000/staff/${A}/premium/success?provider=paypal`);
    expect(new URL(location!).searchParams.get('subscription_id')).toBe(session.id);
    await waitPaypal();
    const done = await as(alice, 'POST', `/servers/${A}/subscription/complete?provider=paypal&token=${session.id}`);
    expect(done.json<StatusResponse>().status, done.body).toBe('complete');
    expect(await plan()).toBe('premium');
    expect((await serverSubscription())[0]).toMatchObject({ provider: 'paypal', state: 'active', applied: true, planType: 'premium' });
    expect((await receipts()).map((r) => [r.provider, r.kind, r.amount_cents, r.carbon_removal_cents])).toEqual([['paypal', 'payment', 225, 5]]);

    const forged = JSON.stringify({ id: 'WH-forged', event_type: 'BILLING.SUBSCRIPTION.CANCELLED', resource: { id: session.id } });
    const refused = await inject({
      method: 'POST',
      url: '/api/payment/webhook/paypal',
      headers: { 'content-type': 'application/json', 'paypal-transmission-id': 'x', 'paypal-transmission-time': new Date().toISOString(), 'paypal-transmission-sig': 'AAAA', 'paypal-cert-url': `${sandbox.url}/paypal/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77`, 'paypal-auth-algo': 'SHA256withRSA' },
      payload: forged,
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect((await inject({ method: 'POST', url: '/api/payment/webhook/paypal', headers: { 'content-type': 'application/json' }, payload: forged })).statusCode).toBe(400);
    expect(await plan()).toBe('premium');

    await control('POST', '/clock', { advanceSeconds: 32 * 86_400 });
    await waitPaypal();
    expect((await receipts()).map((r) => [r.provider, r.kind, r.amount_cents])).toEqual([
      ['paypal', 'payment', 225],
      ['paypal', 'payment', 225],
    ]);
    expect((await serverSubscription())[0]).toMatchObject({ state: 'active', applied: true });
    // Every PayPal event of the subscription delivered again changes nothing.
    const { events } = (await control('GET', `/paypal/events?subscriptionId=${session.id}`)) as { events: { id: string; event_type: string }[] };
    expect(events.map((e) => e.event_type)).toContain('PAYMENT.SALE.COMPLETED');
    for (const event of events) await control('POST', `/paypal/events/${event.id}/resend`);
    await waitPaypal();
    expect(await receipts()).toHaveLength(2);
    // Cancelled after the refund window: nothing refunded, the plan stays until the end of the paid period.
    const [paypalSub] = await mine(alice);
    await ctx.built.database.db.updateTable('subscriptions').set({ first_paid_at: new Date(Date.now() - 8 * 86_400_000).toISOString() }).execute();
    const atPeriodEnd = await as(alice, 'DELETE', '/@me/cancel', { subscriptionId: paypalSub!.id });
    expect(atPeriodEnd.statusCode, atPeriodEnd.body).toBe(200);
    expect(atPeriodEnd.json<Subscription>()).toMatchObject({ state: 'active', cancelAtPeriodEnd: true, applied: true });
    await waitPaypal();
    expect(await plan()).toBe('premium');
    expect(await ctx.built.services.paypalPayments.endLapsed()).toBe(0);
    expect(await ctx.built.services.paypalPayments.endLapsed(new Date(Date.parse(paypalSub!.nextBilling!) + 1000))).toBe(1);
    expect((await mine(alice))[0]).toMatchObject({ state: 'canceled', applied: false });
    expect(await plan()).toBe('free');
    expect((await receipts()).map((r) => r.kind)).toEqual(['payment', 'payment']);
  });

  it('cancels a PayPal subscription within 7 days with a full refund, and follows a cancellation made in PayPal', async () => {
    const waitPaypal = () => control('POST', '/paypal/deliveries/wait');
    const buy = async () => {
      const created = await as(alice, 'POST', `/servers/${A}/subscription?provider=paypal`, { provider: 'paypal', type: 'premium', interval: 'monthly' });
      const { session } = created.json<SessionResponse>();
      await decidePaypal(sandbox, session.url);
      await waitPaypal();
      return session.id;
    };
    await buy();
    expect(await plan()).toBe('premium'); // by the webhook alone
    const [first] = await mine(alice);
    const cancelled = await as(alice, 'DELETE', '/@me/cancel', { subscriptionId: first!.id });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<Subscription>()).toMatchObject({ state: 'canceled', applied: false });
    await waitPaypal();
    expect(await plan()).toBe('free');
    expect((await receipts()).map((r) => [r.kind, r.amount_cents])).toEqual([
      ['payment', 225],
      ['refund', 225],
    ]);

    const second = await buy();
    expect(await plan()).toBe('premium');
    // Cancelled in the buyer's PayPal account: the plan ends.
    await control('POST', `/paypal/subscriptions/${second}/cancel`);
    await waitPaypal();
    expect((await mine(alice)).find((s) => s.id !== first!.id)).toMatchObject({ state: 'canceled', applied: false });
    expect(await plan()).toBe('free');
  });

  it('records a refund made in the PayPal dashboard, whose notification gives the amount negative, as a refund of its size', async () => {
    const created = await as(alice, 'POST', `/servers/${A}/subscription?provider=paypal`, { provider: 'paypal', type: 'premium', interval: 'monthly' });
    await decidePaypal(sandbox, created.json<SessionResponse>().session.url);
    await control('POST', '/paypal/deliveries/wait');
    const [payment] = await receipts();
    expect(payment).toMatchObject({ kind: 'payment', amount_cents: 225 });
    const refunded = await control('POST', `/paypal/sales/${payment!.provider_charge_id}/refund`, { amount: '1.00' });
    expect(refunded).toMatchObject({ refund: { amount: '1.00' } });
    await control('POST', '/paypal/deliveries/wait');
    expect((await receipts()).map((r) => [r.kind, r.amount_cents])).toEqual([
      ['payment', 225],
      ['refund', 100],
    ]);
  });
});
