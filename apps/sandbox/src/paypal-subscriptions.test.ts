import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Link, PaypalErrorBody, PaypalTestSandbox, SubscriptionBody, TransactionsBody } from './paypal-test-support.ts';
import { CANCEL_URL, RETURN_URL, START, basicAuth, createPlan, createSubscription, decideOnPage, linkOf, startPaypalSandbox } from './paypal-test-support.ts';

let t: PaypalTestSandbox;
beforeEach(async () => {
  t = await startPaypalSandbox();
});
afterEach(async () => {
  await t.close();
});

describe('PayPal OAuth', () => {
  it('issues a bearer token for the sandbox app credentials', async () => {
    const res = await fetch(`${t.base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basicAuth(), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 32400, app_id: expect.stringMatching(/^APP-/) });
    expect(body.access_token).toEqual(expect.stringMatching(/^A21AA/));
    expect(body.scope).toContain('https://uri.paypal.com/services/subscriptions');
    expect(typeof body.nonce).toBe('string');
  });

  it('refuses wrong credentials and a missing grant type as PayPal does', async () => {
    const wrong = await fetch(`${t.base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basicAuth('sandbox-paypal-client-id', 'nope'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'invalid_client', error_description: 'Client Authentication failed' });
    const noGrant = await fetch(`${t.base}/v1/oauth2/token`, { method: 'POST', headers: { authorization: basicAuth(), 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(noGrant.status).toBe(400);
    expect(await noGrant.json()).toEqual({ error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
  });

  it('needs the bearer token on every other call, and expires it on the base clock', async () => {
    const none = await fetch(`${t.base}/v1/billing/plans`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ name: 'AUTHENTICATION_FAILURE', debug_id: expect.any(String), links: [expect.objectContaining({ rel: 'information_link' })] });
    const forged = await fetch(`${t.base}/v1/billing/plans`, { headers: { authorization: 'Bearer A21AAforged' } });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: 'invalid_token', error_description: 'Token signature verification failed' });

    // Moving the sandbox clock (a month of renewals) does not log the product out …
    await t.advanceDays(31);
    expect((await t.call('GET', '/v1/billing/plans')).status).toBe(200);
    // … but nine hours of real time do.
    t.clock.now += 9 * 3_600_000 + 1;
    const expired = await t.call('GET', '/v1/billing/plans');
    expect(expired.status).toBe(401);
    expect(expired.json).toEqual({ error: 'invalid_token', error_description: 'Access Token not found in cache' });
  });
});

describe('PayPal catalog products and plans', () => {
  it('creates, lists (filtered by product) and shows plans', async () => {
    const monthly = await createPlan(t);
    const other = await createPlan(t, { name: 'Other product plan' });
    const yearly = await createPlan(t, { productId: monthly.product_id, name: 'Premium yearly', unit: 'YEAR', price: '21.60' });
    expect(monthly).toMatchObject({ id: expect.stringMatching(/^P-[0-9A-Z]{24}$/), status: 'ACTIVE', usage_type: 'LICENSED' });

    const list = await t.call<{ plans: { id: string }[] }>('GET', `/v1/billing/plans?product_id=${monthly.product_id}`);
    expect(list.status).toBe(200);
    expect(list.json.plans.map((p) => p.id)).toEqual([monthly.id, yearly.id]);
    expect((await t.call<{ plans: unknown[] }>('GET', '/v1/billing/plans')).json.plans).toHaveLength(3);

    const shown = await t.call<{ billing_cycles: { frequency: object; pricing_scheme: { fixed_price: object } }[] }>('GET', `/v1/billing/plans/${yearly.id}`);
    expect(shown.json.billing_cycles[0]).toMatchObject({ frequency: { interval_unit: 'YEAR', interval_count: 1 }, pricing_scheme: { fixed_price: { value: '21.60', currency_code: 'USD' } } });
    expect(other.product_id).not.toBe(monthly.product_id);

    const products = await t.call<{ products: { id: string; name: string }[] }>('GET', '/v1/catalogs/products');
    expect(products.json.products).toHaveLength(2);
    expect((await t.call('GET', `/v1/catalogs/products/${monthly.product_id}`)).json).toMatchObject({ name: 'Ticket bot Premium', type: 'SERVICE' });
  });

  it('answers validation problems with PayPal error bodies', async () => {
    const missing = await t.call<PaypalErrorBody>('POST', '/v1/billing/plans', { name: 'No product' });
    expect(missing.status).toBe(400);
    expect(missing.json.name).toBe('INVALID_REQUEST');
    expect(missing.json.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: '/product_id', location: 'body', issue: 'MISSING_REQUIRED_PARAMETER' }),
        expect.objectContaining({ field: '/billing_cycles', issue: 'MISSING_REQUIRED_PARAMETER' }),
        expect.objectContaining({ field: '/payment_preferences', issue: 'MISSING_REQUIRED_PARAMETER' }),
      ]),
    );
    const unknownPlan = await t.call<PaypalErrorBody>('GET', '/v1/billing/plans/P-NOPE');
    expect(unknownPlan.status).toBe(404);
    expect(unknownPlan.json).toMatchObject({ name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] });
    const badJson = await fetch(`${t.base}/v1/billing/plans`, { method: 'POST', headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' }, body: '{"name":' });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ name: 'INVALID_REQUEST', details: [{ issue: 'MALFORMED_REQUEST_JSON' }] });
  });
});

describe('PayPal subscriptions', () => {
  it('is created pending approval with approve, edit and self links, and announced', async () => {
    const plan = await createPlan(t);
    const created = await createSubscription(t, plan.id);
    expect(created).toMatchObject({ id: expect.stringMatching(/^I-[0-9A-Z]{12}$/), status: 'APPROVAL_PENDING', plan_id: plan.id, custom_id: 'server:1300000000000000001' });
    expect(created.links.map((l) => l.rel)).toEqual(['approve', 'edit', 'self']);
    expect(linkOf(created, 'approve')).toMatch(new RegExp(`^${t.sandbox.url}/paypal/webapps/billing/subscriptions\\?ba_token=BA-`));
    const events = await t.control<{ events: { event_type: string }[] }>('GET', `/paypal/events?subscriptionId=${created.id}`);
    expect(events.json.events.map((e) => e.event_type)).toEqual(['BILLING.SUBSCRIPTION.CREATED']);

    const unknownPlan = await t.call<PaypalErrorBody>('POST', '/v1/billing/subscriptions', { plan_id: 'P-000000000000000000000000' });
    expect(unknownPlan.status).toBe(404);
    expect(unknownPlan.json.details[0]).toMatchObject({ field: '/plan_id', issue: 'INVALID_RESOURCE_ID' });
  });

  it('becomes ACTIVE with its first payment when the buyer agrees on the approval page', async () => {
    const plan = await createPlan(t);
    const created = await createSubscription(t, plan.id);
    const decided = await decideOnPage(linkOf(created, 'approve'), 'approve');
    expect(decided.page).toContain('Premium monthly');
    expect(decided.page).toContain('$2.25 USD / month');
    expect(decided.page).toContain('Agree &amp; Subscribe');
    expect(decided.page).toContain('Cancel and return');
    expect(decided.status).toBe(303);
    const back = new URL(decided.location!);
    expect(`${back.origin}${back.pathname}`).toBe(RETURN_URL.split('?')[0]);
    expect(back.searchParams.get('provider')).toBe('paypal');
    expect(back.searchParams.get('subscription_id')).toBe(created.id);
    expect(back.searchParams.get('ba_token')).toMatch(/^BA-/);
    expect(back.searchParams.get('token')).toBeTruthy();

    const shown = await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${created.id}`);
    expect(shown.json).toMatchObject({
      status: 'ACTIVE',
      start_time: new Date(START).toISOString().replace('.000', ''),
      subscriber: { email_address: 'alice@example.com', payer_id: expect.any(String), name: { given_name: 'Alice', surname: 'Anders' } },
      billing_info: {
        last_payment: { amount: { currency_code: 'USD', value: '2.25' }, time: '2025-01-15T12:00:00Z' },
        next_billing_time: '2025-02-15T12:00:00Z',
        failed_payments_count: 0,
        cycle_executions: [{ tenure_type: 'REGULAR', sequence: 1, cycles_completed: 1, total_cycles: 0 }],
      },
    });
    expect(shown.json.links.map((l) => l.rel)).toEqual(['cancel', 'edit', 'self', 'suspend', 'capture']);

    const transactions = await t.call<TransactionsBody>('GET', `/v1/billing/subscriptions/${created.id}/transactions?start_time=2025-01-01T00:00:00Z&end_time=2025-12-31T00:00:00Z`);
    expect(transactions.json.transactions).toEqual([
      expect.objectContaining({ status: 'COMPLETED', time: '2025-01-15T12:00:00Z', amount_with_breakdown: expect.objectContaining({ gross_amount: { currency_code: 'USD', value: '2.25' } }) }),
    ]);
    const events = await t.control<{ events: { event_type: string }[] }>('GET', `/paypal/events?subscriptionId=${created.id}`);
    expect(events.json.events.map((e) => e.event_type)).toEqual(['BILLING.SUBSCRIPTION.CREATED', 'BILLING.SUBSCRIPTION.ACTIVATED', 'PAYMENT.SALE.COMPLETED']);

    // The link is spent: a second visit shows it expired.
    expect((await fetch(linkOf(created, 'approve'))).status).toBe(404);
  });

  it('returns to the cancel URL and stays pending when the buyer cancels on the approval page', async () => {
    const plan = await createPlan(t);
    const created = await createSubscription(t, plan.id);
    const decided = await decideOnPage(linkOf(created, 'approve'), 'cancel');
    expect(decided.status).toBe(303);
    const back = new URL(decided.location!);
    expect(back.pathname).toBe('/staff/1300000000000000001/premium/cancel');
    expect(back.searchParams.get('subscription_id')).toBe(created.id);
    expect(back.searchParams.get('ba_token')).toMatch(/^BA-/);
    const shown = await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${created.id}`);
    expect(shown.json.status).toBe('APPROVAL_PENDING');
    expect(shown.json.billing_info.last_payment).toBeUndefined();
  });

  it('waits for the merchant to activate when the buyer pressed "Continue" (user_action CONTINUE)', async () => {
    const plan = await createPlan(t);
    const created = await createSubscription(t, plan.id, {
      application_context: { user_action: 'CONTINUE', return_url: RETURN_URL, cancel_url: CANCEL_URL },
    });
    const decided = await decideOnPage(linkOf(created, 'approve'), 'approve');
    expect(decided.page).toContain('>Continue</button>');
    expect((await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${created.id}`)).json.status).toBe('APPROVED');
    expect((await t.call('POST', `/v1/billing/subscriptions/${created.id}/activate`)).status).toBe(204);
    const shown = await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${created.id}`);
    expect(shown.json.status).toBe('ACTIVE');
    expect(shown.json.billing_info.last_payment?.amount.value).toBe('2.25');
  });

  it('revises to a plan at other terms only once the buyer approves the change', async () => {
    const premium = await createPlan(t);
    const enterprise = await createPlan(t, { productId: premium.product_id, name: 'Enterprise monthly', price: '6.00' });
    const created = await createSubscription(t, premium.id);
    await decideOnPage(linkOf(created, 'approve'), 'approve');

    const revised = await t.call<{ plan_id: string; links: Link[] }>('POST', `/v1/billing/subscriptions/${created.id}/revise`, {
      plan_id: enterprise.id,
      application_context: { return_url: `${RETURN_URL}&change=1`, cancel_url: CANCEL_URL },
    });
    expect(revised.status).toBe(200);
    expect(revised.json.plan_id).toBe(enterprise.id);
    const approveUrl = linkOf(revised.json, 'approve');
    expect(approveUrl).toContain('/paypal/webapps/billing/subscriptions/update?ba_token=BA-');
    expect((await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${created.id}`)).json.plan_id).toBe(premium.id);

    const decided = await decideOnPage(approveUrl, 'approve');
    expect(decided.page).toContain('Enterprise monthly');
    expect(decided.page).toContain('$6.00 USD / month');
    expect(new URL(decided.location!).searchParams.get('change')).toBe('1');
    const shown = await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${created.id}`);
    expect(shown.json).toMatchObject({ status: 'ACTIVE', plan_id: enterprise.id, billing_info: { next_billing_time: '2025-02-15T12:00:00Z' } });
    const events = await t.control<{ events: { event_type: string }[] }>('GET', `/paypal/events?subscriptionId=${created.id}&type=BILLING.SUBSCRIPTION.UPDATED`);
    expect(events.json.events).toHaveLength(1);

    // The next renewal is at the new price.
    await t.advanceDays(31);
    expect((await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${created.id}`)).json.billing_info.last_payment?.amount.value).toBe('6.00');
  });

  it('keeps the old plan when the buyer cancels a revision, and refuses a plan of another product', async () => {
    const premium = await createPlan(t);
    const enterprise = await createPlan(t, { productId: premium.product_id, name: 'Enterprise monthly', price: '6.00' });
    const foreign = await createPlan(t, { name: 'Another product' });
    const created = await createSubscription(t, premium.id);
    await decideOnPage(linkOf(created, 'approve'), 'approve');
    const revised = await t.call<{ links: Link[] }>('POST', `/v1/billing/subscriptions/${created.id}/revise`, {
      plan_id: enterprise.id,
      application_context: { return_url: RETURN_URL, cancel_url: CANCEL_URL },
    });
    const decided = await decideOnPage(linkOf(revised.json, 'approve'), 'cancel');
    expect(new URL(decided.location!).pathname).toBe('/staff/1300000000000000001/premium/cancel');
    expect((await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${created.id}`)).json.plan_id).toBe(premium.id);

    const incompatible = await t.call<PaypalErrorBody>('POST', `/v1/billing/subscriptions/${created.id}/revise`, { plan_id: foreign.id });
    expect(incompatible.status).toBe(422);
    expect(incompatible.json).toMatchObject({ name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'PLAN_PRODUCT_NOT_COMPATIBLE' }] });
  });

  it('suspends, activates and cancels with 204, and refuses actions the status does not allow', async () => {
    const plan = await createPlan(t);
    const created = await createSubscription(t, plan.id);
    const early = await t.call<PaypalErrorBody>('POST', `/v1/billing/subscriptions/${created.id}/cancel`, { reason: 'too early' });
    expect(early.status).toBe(422);
    expect(early.json.details[0]).toEqual({
      issue: 'SUBSCRIPTION_STATUS_INVALID',
      description: 'Invalid subscription status for cancel action; subscription status should be active or suspended.',
    });
    await decideOnPage(linkOf(created, 'approve'), 'approve');

    const noReason = await t.call<PaypalErrorBody>('POST', `/v1/billing/subscriptions/${created.id}/suspend`, {});
    expect(noReason.status).toBe(400);
    expect(noReason.json.details[0]).toMatchObject({ field: '/reason', issue: 'MISSING_REQUIRED_PARAMETER' });

    expect((await t.call('POST', `/v1/billing/subscriptions/${created.id}/suspend`, { reason: 'Customer asked to pause' })).status).toBe(204);
    let shown = await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${created.id}`);
    expect(shown.json).toMatchObject({ status: 'SUSPENDED', status_change_note: 'Customer asked to pause' });
    // No renewal while suspended.
    await t.advanceDays(40);
    expect((await t.call<TransactionsBody>('GET', `/v1/billing/subscriptions/${created.id}/transactions?start_time=2025-01-01T00:00:00Z&end_time=2026-01-01T00:00:00Z`)).json.transactions).toHaveLength(1);

    expect((await t.call('POST', `/v1/billing/subscriptions/${created.id}/activate`, { reason: 'Back' })).status).toBe(204);
    shown = await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${created.id}`);
    expect(shown.json.status).toBe('ACTIVE');
    expect(Date.parse(shown.json.billing_info.next_billing_time!)).toBeGreaterThan(START + 40 * 86_400_000);

    expect((await t.call('POST', `/v1/billing/subscriptions/${created.id}/cancel`, { reason: 'Not needed' })).status).toBe(204);
    shown = await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${created.id}`);
    expect(shown.json.status).toBe('CANCELLED');
    expect(shown.json.billing_info.next_billing_time).toBeUndefined();
    expect((await t.call('POST', `/v1/billing/subscriptions/${created.id}/cancel`, { reason: 'again' })).status).toBe(422);
    expect((await t.call('POST', `/v1/billing/subscriptions/${created.id}/activate`)).status).toBe(422);

    const types = (await t.control<{ events: { event_type: string }[] }>('GET', `/paypal/events?subscriptionId=${created.id}`)).json.events.map((e) => e.event_type);
    expect(types).toEqual([
      'BILLING.SUBSCRIPTION.CREATED',
      'BILLING.SUBSCRIPTION.ACTIVATED',
      'PAYMENT.SALE.COMPLETED',
      'BILLING.SUBSCRIPTION.SUSPENDED',
      'BILLING.SUBSCRIPTION.ACTIVATED',
      'BILLING.SUBSCRIPTION.CANCELLED',
    ]);
    expect((await t.call('GET', '/v1/billing/subscriptions/I-UNKNOWN00000')).status).toBe(404);
  });

  it('requires start_time and end_time for transactions', async () => {
    const plan = await createPlan(t);
    const created = await createSubscription(t, plan.id);
    const res = await t.call<PaypalErrorBody>('GET', `/v1/billing/subscriptions/${created.id}/transactions`);
    expect(res.status).toBe(400);
    expect(res.json.details.map((d) => [d.field, d.location, d.issue])).toEqual([
      ['start_time', 'query', 'MISSING_REQUIRED_PARAMETER'],
      ['end_time', 'query', 'MISSING_REQUIRED_PARAMETER'],
    ]);
  });

  it('replays the first answer for a repeated PayPal-Request-Id instead of subscribing twice', async () => {
    const plan = await createPlan(t);
    const body = { plan_id: plan.id, application_context: { return_url: RETURN_URL, cancel_url: CANCEL_URL } };
    const first = await t.call<SubscriptionBody>('POST', '/v1/billing/subscriptions', body, { 'paypal-request-id': 'retry-1' });
    const again = await t.call<SubscriptionBody>('POST', '/v1/billing/subscriptions', body, { 'paypal-request-id': 'retry-1' });
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    const state = await t.control<{ subscriptions: unknown[] }>('GET', '/paypal');
    expect(state.json.subscriptions).toHaveLength(1);
  });
});

describe('PayPal refunds', () => {
  async function paidSubscription() {
    const plan = await createPlan(t, { price: '6.00' });
    const created = await createSubscription(t, plan.id);
    await decideOnPage(linkOf(created, 'approve'), 'approve');
    const transactions = await t.call<TransactionsBody>('GET', `/v1/billing/subscriptions/${created.id}/transactions?start_time=2025-01-01T00:00:00Z&end_time=2025-12-31T00:00:00Z`);
    return { subscriptionId: created.id, captureId: transactions.json.transactions[0]!.id };
  }

  it('refunds a capture in part, then the rest, then refuses a third refund', async () => {
    const { subscriptionId, captureId } = await paidSubscription();
    const part = await t.call<{ id: string; status: string; amount: object }>('POST', `/v2/payments/captures/${captureId}/refund`, { amount: { value: '1.50', currency_code: 'USD' } });
    expect(part.status).toBe(201);
    expect(part.json).toMatchObject({ status: 'COMPLETED', amount: { value: '1.50', currency_code: 'USD' } });
    expect((await t.call('GET', `/v2/payments/captures/${captureId}`)).json).toMatchObject({ status: 'PARTIALLY_REFUNDED' });

    const tooMuch = await t.call<PaypalErrorBody>('POST', `/v2/payments/captures/${captureId}/refund`, { amount: { value: '5.00', currency_code: 'USD' } });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.json.details[0]!.issue).toBe('REFUND_AMOUNT_EXCEEDED');

    const rest = await t.call<{ amount: { value: string } }>('POST', `/v2/payments/captures/${captureId}/refund`, {});
    expect(rest.status).toBe(201);
    expect(rest.json.amount.value).toBe('4.50');
    const again = await t.call<PaypalErrorBody>('POST', `/v2/payments/captures/${captureId}/refund`);
    expect(again.status).toBe(422);
    expect(again.json.details[0]).toEqual({ issue: 'CAPTURE_FULLY_REFUNDED', description: 'The capture has already been fully refunded' });

    const transactions = await t.call<TransactionsBody>('GET', `/v1/billing/subscriptions/${subscriptionId}/transactions?start_time=2025-01-01T00:00:00Z&end_time=2025-12-31T00:00:00Z`);
    expect(transactions.json.transactions[0]!.status).toBe('REFUNDED');
    const refunds = await t.control<{ events: { event_type: string; event: { resource: { amount: object } } }[] }>('GET', '/paypal/events?type=PAYMENT.CAPTURE.REFUNDED');
    expect(refunds.json.events.map((e) => e.event.resource.amount)).toEqual([
      { currency_code: 'USD', value: '1.50' },
      { currency_code: 'USD', value: '4.50' },
    ]);
    expect((await t.call('POST', '/v2/payments/captures/NOSUCHCAPTURE0000/refund', {})).status).toBe(404);
  });

  it('refunds through the v1 sale API and announces PAYMENT.SALE.REFUNDED', async () => {
    const { subscriptionId, captureId } = await paidSubscription();
    const res = await t.call<{ state: string; amount: object; sale_id: string }>('POST', `/v1/payments/sale/${captureId}/refund`, {});
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ state: 'completed', amount: { total: '6.00', currency: 'USD' }, sale_id: captureId });
    const again = await t.call('POST', `/v1/payments/sale/${captureId}/refund`, {});
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ name: 'TRANSACTION_ALREADY_REFUNDED' });
    const events = await t.control<{ events: { subscriptionId: string; event: { resource: Record<string, unknown> } }[] }>('GET', '/paypal/events?type=PAYMENT.SALE.REFUNDED');
    expect(events.json.events).toHaveLength(1);
    expect(events.json.events[0]!.subscriptionId).toBe(subscriptionId);
    expect(events.json.events[0]!.event.resource).toMatchObject({ sale_id: captureId, amount: { total: '-6.00', currency: 'USD' } });
  });
});
