import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { ChangePlanResponse, PriceTable, ServerSettings, SessionResponse, StatusResponse, Subscription } from '@ticket/contracts';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, signIn, STRIPE_WEBHOOK_SECRET, testConfig, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { buyByCard, CARDS, decidePaypal } from '../../test/payment-providers';

const sandbox = useSandbox();

const A = GUILDS.pixelForge;
const WEB = 'http://localhost:3000';
const WEBHOOK = '/api/payment/webhook/stripe/webhook';
const DAY = 86_400_000;

const control = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
};
/** Waits until every webhook delivery under way (both providers) has been answered by the app. */
const flush = async () => {
  await control('POST', '/stripe/deliveries/flush');
  await control('POST', '/paypal/deliveries/wait');
};
const advanceDays = (days: number) => control('POST', '/clock', { advanceSeconds: days * 86_400 });

/** Posts a form of a hosted page as the browser would, without following the redirect. */
async function postForm(url: string, fields: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

describe('the price table', () => {
  it('answers every paid plan for every billing period from the configured prices, to anyone', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite');
    try {
      const response = await ctx.built.app.inject({ method: 'GET', url: '/api/payment/prices' });
      expect(response.statusCode, response.body).toBe(200);
      const table = response.json<PriceTable>();
      expect(table.currency).toBe('USD');
      expect(table.providers).toEqual(['stripe', 'paypal']);
      expect(table.prices.map((p) => [p.planType, p.interval, p.months, p.amountCents, p.monthlyCents, p.savingPercent])).toEqual([
        ['premium', 'monthly', 1, 225, 225, 0],
        ['premium', 'quarterly', 3, 641, 214, 5],
        ['premium', 'biannually', 6, 1215, 203, 10],
        ['premium', 'annually', 12, 2160, 180, 20],
        ['enterprise', 'monthly', 1, 600, 600, 0],
        ['enterprise', 'quarterly', 3, 1710, 570, 5],
        ['enterprise', 'biannually', 6, 3240, 540, 10],
        ['enterprise', 'annually', 12, 5760, 480, 20],
      ]);
    } finally {
      await ctx.close();
    }
  });

  it('follows the configuration: other prices and savings, and only the providers configured', async () => {
    const base = testConfig(sandbox).payment;
    const ctx = await createTestApp(sandbox, 'sqlite', {
      payment: {
        ...base,
        monthlyCents: { premium: 300, enterprise: 1000 },
        discountPercent: { monthly: 0, quarterly: 10, biannually: 15, annually: 25 },
        stripe: { ...base.stripe, secretKey: '' },
      },
    });
    try {
      const table = (await ctx.built.app.inject({ method: 'GET', url: '/api/payment/prices' })).json<PriceTable>();
      expect(table.providers).toEqual(['paypal']);
      expect(table.prices.find((p) => p.planType === 'enterprise' && p.interval === 'annually')).toEqual({ planType: 'enterprise', interval: 'annually', months: 12, amountCents: 9000, monthlyCents: 750, savingPercent: 25 });
      expect(table.prices.find((p) => p.planType === 'premium' && p.interval === 'quarterly')).toMatchObject({ amountCents: 810, monthlyCents: 270, savingPercent: 10 });
    } finally {
      await ctx.close();
    }
  });
});

describe.each(engines)('changing the plan and the billing period on %s', (engine) => {
  let ctx: TestContext;
  let alice: string; // owner of Pixel Forge
  let bruno: string; // admin of Pixel Forge

  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    const url = await ctx.built.app.listen({ port: 0, host: '127.0.0.1' });
    await control('PUT', '/stripe/config', { webhookSecret: STRIPE_WEBHOOK_SECRET, forwardTo: `${url}${WEBHOOK}`, retryDelaysMs: [] });
    await control('PUT', '/paypal/config', { webhookUrl: `${url}/api/payment/webhook/paypal` });
    alice = (await signIn(ctx, USERS.alice)).token;
    bruno = (await signIn(ctx, USERS.bruno)).token;
  });
  afterEach(async () => {
    await flush();
    await control('PUT', '/stripe/config', { forwardTo: null, webhookSecret: null });
    await control('PUT', '/paypal/config', { webhookUrl: null });
    await ctx.close();
  });

  const as = (token: string, method: InjectOptions['method'], url: string, payload?: unknown) =>
    ctx.built.app.inject({ method, url: `/api/payment${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const plan = async () =>
    (await ctx.built.app.inject({ method: 'GET', url: `/api/settings/servers/${A}/settings`, headers: { authorization: `Admin ${ADMIN_KEY}` } })).json<ServerSettings>().subscription;
  const mine = async (token = alice) => (await as(token, 'GET', '/@me/subscriptions')).json<Subscription[]>()[0]!;
  const receipts = async () => (await ctx.built.database.db.selectFrom('receipts').selectAll().orderBy('number').execute()).map((r) => [r.provider, r.plan_type, r.plan_interval, r.amount_cents]);
  const change = (subscriptionId: string, plan: string, interval: string, token = alice) => as(token, 'PATCH', '/@me/change-plan', { subscriptionId, plan, interval });
  const updateComplete = (provider: string, token: string, who = alice, serverId: string = A) =>
    as(who, 'POST', `/servers/${serverId}/subscription/update-complete?provider=${provider}&token=${encodeURIComponent(token)}`);

  /** Premium by card, bought by Alice for Pixel Forge; `card` may need authentication on the page, which the sandbox's control completes. */
  async function buyCard(card: string = CARDS.pays): Promise<Subscription> {
    if (card === CARDS.pays) await buyByCard(ctx, alice, A);
    else {
      const created = await as(alice, 'POST', `/servers/${A}/subscription?provider=stripe`, { provider: 'stripe', type: 'premium', interval: 'monthly' });
      const { session } = created.json<SessionResponse>();
      await control('POST', `/stripe/checkout/${session.id}/pay`, { cardNumber: card.replace(/\s/g, '') });
      expect((await as(alice, 'POST', `/servers/${A}/subscription/complete?provider=stripe&token=${session.id}`)).json<StatusResponse>().status).toBe('complete');
    }
    await flush();
    return mine();
  }

  /** Premium by PayPal, monthly, approved on PayPal's page. */
  async function buyPaypal(): Promise<Subscription> {
    const created = await as(alice, 'POST', `/servers/${A}/subscription?provider=paypal`, { provider: 'paypal', type: 'premium', interval: 'monthly' });
    const { session } = created.json<SessionResponse>();
    await decidePaypal(sandbox, session.url);
    await flush();
    expect((await as(alice, 'POST', `/servers/${A}/subscription/complete?provider=paypal&token=${session.id}`)).json<StatusResponse>().status).toBe('complete');
    return mine();
  }

  it('schedules a new billing period by card for the end of the period, charges nothing now, and bills the new period then', async () => {
    const sub = await buyCard();
    const response = await change(sub.id, 'premium', 'annually');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ChangePlanResponse>()).toEqual({ status: 'scheduled', requiresConfirmation: false, confirmationSession: null });
    await flush();
    const scheduled = await mine();
    expect(scheduled).toMatchObject({ planType: 'premium', planInterval: 'monthly', nextBilling: sub.nextBilling, scheduledChange: { planType: 'premium', planInterval: 'annually', effectiveDate: sub.nextBilling } });
    expect(await receipts()).toEqual([['stripe', 'premium', 'monthly', 225]]);
    // Asked again, the new request replaces the scheduled one.
    expect((await change(sub.id, 'enterprise', 'quarterly')).json<ChangePlanResponse>().status).toBe('scheduled');
    await flush();
    expect((await mine()).scheduledChange).toEqual({ planType: 'enterprise', planInterval: 'quarterly', effectiveDate: sub.nextBilling });
    expect(await plan()).toBe('premium');

    await advanceDays(32);
    await flush();
    const moved = await mine();
    expect(moved).toMatchObject({ planType: 'enterprise', planInterval: 'quarterly', scheduledChange: null, state: 'active' });
    const next = Date.parse(moved.nextBilling!);
    expect(next - Date.parse(sub.nextBilling!)).toBeGreaterThan(88 * DAY);
    expect(next - Date.parse(sub.nextBilling!)).toBeLessThan(93 * DAY);
    expect(await plan()).toBe('enterprise');
    expect(await receipts()).toEqual([
      ['stripe', 'premium', 'monthly', 225],
      ['stripe', 'enterprise', 'quarterly', 1710],
    ]);
  });

  it('cancels a scheduled change of billing period: the subscription renews on its period, nothing charged now', async () => {
    const sub = await buyCard();
    expect((await change(sub.id, 'premium', 'biannually')).json<ChangePlanResponse>().status).toBe('scheduled');
    const dropped = await as(alice, 'DELETE', '/@me/scheduled-change', { subscriptionId: sub.id });
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json<Subscription>()).toMatchObject({ planType: 'premium', planInterval: 'monthly', scheduledChange: null, nextBilling: sub.nextBilling });
    await flush();
    expect(await receipts()).toEqual([['stripe', 'premium', 'monthly', 225]]);
    expect((await as(alice, 'DELETE', '/@me/scheduled-change', { subscriptionId: sub.id })).statusCode).toBe(409);

    await advanceDays(32);
    await flush();
    expect(await mine()).toMatchObject({ planType: 'premium', planInterval: 'monthly', scheduledChange: null });
    expect(await receipts()).toEqual([
      ['stripe', 'premium', 'monthly', 225],
      ['stripe', 'premium', 'monthly', 225],
    ]);
  });

  it('drops a scheduled change when the subscription is cancelled for the end of its period', async () => {
    const sub = await buyCard();
    await change(sub.id, 'premium', 'annually');
    await ctx.built.database.db.updateTable('subscriptions').set({ first_paid_at: new Date(Date.now() - 8 * DAY).toISOString() }).execute();
    const cancelled = await as(alice, 'DELETE', '/@me/cancel', { subscriptionId: sub.id });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<Subscription>()).toMatchObject({ cancelAtPeriodEnd: true, scheduledChange: null, planInterval: 'monthly' });
    await advanceDays(32);
    await flush();
    expect(await mine()).toMatchObject({ state: 'canceled', planInterval: 'monthly' });
    expect(await receipts()).toHaveLength(1);
  });

  it('asks the buyer to pay an upgrade their card must authenticate, and changes the plan once it is paid', async () => {
    const sub = await buyCard(CARDS.authenticates);
    const response = await change(sub.id, 'enterprise', 'monthly');
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<ChangePlanResponse>();
    expect(answer).toMatchObject({ status: 'confirmation_required', requiresConfirmation: true, confirmationSession: { id: expect.stringMatching(/^in_/) } });
    const { id, url } = answer.confirmationSession!;
    const back = `${WEB}/staff/${A}/premium/update/success?provider=stripe&token=${id}`;
    expect(new URL(url).searchParams.get('return_url')).toBe(back);
    await flush();
    // Nothing changes until it is paid.
    expect(await mine()).toMatchObject({ planType: 'premium', scheduledChange: null });
    expect(await plan()).toBe('premium');
    expect((await updateComplete('stripe', id)).json<StatusResponse>().status).toBe('processing');
    // Another change waits until this one is paid or has lapsed.
    expect((await change(sub.id, 'enterprise', 'monthly')).statusCode).toBe(409);
    // Only the buyer's own change, and only for its server.
    expect((await updateComplete('stripe', id, bruno)).statusCode).toBe(404);
    expect((await updateComplete('stripe', 'in_unknown')).statusCode).toBe(404);

    // The card provider's page: the card asks for authentication, then the browser goes back to the result page.
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const invoicePage = new URL(url);
    const pay = await postForm(`${invoicePage.origin}${invoicePage.pathname}/pay`, { cardNumber: CARDS.authenticates, return_url: back });
    expect(pay.html).toContain('Complete authentication');
    const authenticated = await postForm(`${invoicePage.origin}${invoicePage.pathname}/authenticate`, { outcome: 'complete' });
    expect(authenticated).toMatchObject({ status: 303, location: back });

    const done = await updateComplete('stripe', id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<StatusResponse>()).toEqual({ status: 'complete' });
    await flush();
    expect(await mine()).toMatchObject({ planType: 'enterprise', planInterval: 'monthly', scheduledChange: null });
    expect(await plan()).toBe('enterprise');
    const paid = await receipts();
    expect(paid).toHaveLength(2);
    expect(paid[1]!.slice(0, 3)).toEqual(['stripe', 'enterprise', 'monthly']);
    expect(paid[1]![3]).toBeGreaterThan(350);
    // Idempotent.
    expect((await updateComplete('stripe', id)).json<StatusResponse>().status).toBe('complete');
    expect(await receipts()).toHaveLength(2);
  });

  it('leaves the plan as it was when the upgrade is not paid in time', async () => {
    const sub = await buyCard('4000 0027 6000 3184');
    const answer = (await change(sub.id, 'enterprise', 'monthly')).json<ChangePlanResponse>();
    expect(answer.status).toBe('confirmation_required');
    await advanceDays(1);
    await flush();
    const result = await updateComplete('stripe', answer.confirmationSession!.id);
    expect(result.json<StatusResponse>().status).toBe('failed');
    expect(await mine()).toMatchObject({ planType: 'premium' });
    expect(await plan()).toBe('premium');
    // A new change is possible again.
    expect((await change(sub.id, 'enterprise', 'monthly')).json<ChangePlanResponse>().status).toBe('confirmation_required');
  });

  it('applies a plain card upgrade at once and schedules a downgrade, as before', async () => {
    const sub = await buyCard();
    expect((await change(sub.id, 'enterprise', 'monthly')).json<ChangePlanResponse>()).toEqual({ status: 'applied', requiresConfirmation: false, confirmationSession: null });
    expect((await change(sub.id, 'premium', 'monthly')).json<ChangePlanResponse>().status).toBe('scheduled');
    expect(await mine()).toMatchObject({ planType: 'enterprise', scheduledChange: { planType: 'premium', planInterval: 'monthly' } });
    // Asking for the current plan and period drops the scheduled change.
    expect((await change(sub.id, 'enterprise', 'monthly')).json<ChangePlanResponse>().status).toBe('applied');
    expect(await mine()).toMatchObject({ planType: 'enterprise', scheduledChange: null });
    expect((await change(sub.id, 'enterprise', 'monthly')).statusCode).toBe(409);
  });

  it('upgrades a PayPal subscription through a revise the buyer approves on PayPal, at once once approved', async () => {
    const sub = await buyPaypal();
    const response = await change(sub.id, 'enterprise', 'monthly');
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<ChangePlanResponse>();
    const paypalId = (await ctx.built.database.db.selectFrom('subscriptions').select('provider_subscription_id').executeTakeFirstOrThrow()).provider_subscription_id;
    expect(answer).toMatchObject({ status: 'confirmation_required', requiresConfirmation: true, confirmationSession: { id: paypalId } });
    expect((await updateComplete('paypal', paypalId)).json<StatusResponse>().status).toBe('processing');
    expect(await plan()).toBe('premium');

    const location = await decidePaypal(sandbox, answer.confirmationSession!.url);
    const back = new URL(location!);
    expect(`${back.origin}${back.pathname}`).toBe(`${WEB}/staff/${A}/premium/update/success`);
    expect(back.searchParams.get('provider')).toBe('paypal');
    expect(back.searchParams.get('subscription_id')).toBe(paypalId);
    const done = await updateComplete('paypal', back.searchParams.get('subscription_id')!);
    expect(done.json<StatusResponse>(), done.body).toEqual({ status: 'complete' });
    await flush();
    expect(await mine()).toMatchObject({ planType: 'enterprise', planInterval: 'monthly', scheduledChange: null });
    expect(await plan()).toBe('enterprise');
    expect((await updateComplete('paypal', paypalId)).json<StatusResponse>().status).toBe('complete');
    expect((await updateComplete('paypal', paypalId, bruno)).statusCode).toBe(404);

    // PayPal bills the new plan from the next cycle.
    await advanceDays(32);
    await flush();
    expect(await receipts()).toEqual([
      ['paypal', 'premium', 'monthly', 225],
      ['paypal', 'enterprise', 'monthly', 600],
    ]);
  });

  it('schedules a new PayPal billing period, once approved, for the next billing, when PayPal starts billing it', async () => {
    const sub = await buyPaypal();
    const answer = (await change(sub.id, 'premium', 'annually')).json<ChangePlanResponse>();
    expect(answer.status).toBe('confirmation_required');
    await decidePaypal(sandbox, answer.confirmationSession!.url);
    // The webhook of PayPal's change applies it even before the result page asks.
    await flush();
    expect(await mine()).toMatchObject({ planType: 'premium', planInterval: 'monthly', scheduledChange: { planType: 'premium', planInterval: 'annually', effectiveDate: sub.nextBilling } });
    expect((await updateComplete('paypal', answer.confirmationSession!.id)).json<StatusResponse>().status).toBe('complete');
    expect((await as(alice, 'DELETE', '/@me/scheduled-change', { subscriptionId: sub.id })).statusCode).toBe(409);

    await advanceDays(32);
    await flush();
    expect(await mine()).toMatchObject({ planType: 'premium', planInterval: 'annually', scheduledChange: null });
    expect(await receipts()).toEqual([
      ['paypal', 'premium', 'monthly', 225],
      ['paypal', 'premium', 'annually', 2160],
    ]);
  });

  it('leaves the plan unchanged when the buyer cancels the approval on PayPal', async () => {
    const sub = await buyPaypal();
    const answer = (await change(sub.id, 'enterprise', 'monthly')).json<ChangePlanResponse>();
    const location = await decidePaypal(sandbox, answer.confirmationSession!.url, 'cancel');
    const back = new URL(location!);
    expect(`${back.origin}${back.pathname}`).toBe(`${WEB}/staff/${A}/premium/cancel`);
    expect(back.searchParams.get('provider')).toBe('paypal');
    await flush();
    expect((await updateComplete('paypal', answer.confirmationSession!.id)).json<StatusResponse>().status).toBe('processing');
    expect(await mine()).toMatchObject({ planType: 'premium', scheduledChange: null });
    expect(await plan()).toBe('premium');
    await advanceDays(32);
    await flush();
    expect(await receipts()).toEqual([
      ['paypal', 'premium', 'monthly', 225],
      ['paypal', 'premium', 'monthly', 225],
    ]);
  });
});
