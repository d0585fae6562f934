import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CANCEL_URL, CARDS, START_S, createPlans, payOnPage, postForm, startCheckout, startStripeSandbox } from './stripe-test-support.ts';
import type { StripeHarness } from './stripe-test-support.ts';

let h: StripeHarness;
let plans: Awaited<ReturnType<typeof createPlans>>;

beforeAll(async () => {
  h = await startStripeSandbox();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.control('POST', '/_sandbox/reset');
  plans = await createPlans(h.stripe);
});

const FEB_15_2025 = Date.parse('2025-02-15T12:00:00.000Z') / 1000;

describe('Checkout Sessions', () => {
  it('creates an open subscription-mode session whose url is the hosted page', async () => {
    const session = await startCheckout(h.stripe, plans.premiumMonthly.id);
    expect(session.id).toMatch(/^cs_test_/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 225,
      currency: 'usd',
      customer: null,
      customer_email: 'buyer@example.com',
      client_reference_id: '1300000000000000001',
      metadata: { serverId: '1300000000000000001' },
      subscription: null,
      livemode: false,
      expires_at: START_S + 86_400,
    });
    expect(session.url).toBe(`${h.sandbox.url}/stripe/checkout/${session.id}`);

    const lines = await h.stripe.checkout.sessions.listLineItems(session.id);
    expect(lines.data).toHaveLength(1);
    expect(lines.data[0]).toMatchObject({ object: 'item', quantity: 1, amount_total: 225, description: 'Premium', price: { id: plans.premiumMonthly.id } });
  });

  it('shows the line item, the price, a card field and Pay and Cancel buttons', async () => {
    const session = await startCheckout(h.stripe, plans.premiumMonthly.id);
    const response = await fetch(session.url ?? '');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toContain('Subscribe to Premium');
    expect(page).toContain('$2.25 / month');
    expect(page).toMatch(/<label for="cardNumber">Card number<\/label>/);
    expect(page).toMatch(/<button type="submit">Pay<\/button>/);
    expect(page).toMatch(/<button type="submit" class="secondary">Cancel<\/button>/);
    expect(page).toContain('value="buyer@example.com" readonly');
  });

  it('pays with 4242: redirects to success_url with the session id, and leaves an active subscription, a paid invoice and a charge', async () => {
    const session = await startCheckout(h.stripe, plans.premiumMonthly.id);
    const paid = await payOnPage(session.url ?? '', CARDS.pays);
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`http://localhost:5173/staff/1300000000000000001/premium/success?provider=stripe&session_id=${session.id}`);

    const done = await h.stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription', 'subscription.latest_invoice'] });
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', url: null, customer_details: { email: 'buyer@example.com', name: 'Alice Anders' } });
    expect(done.customer).toMatch(/^cus_/);
    const subscription = done.subscription as Stripe.Subscription;
    expect(subscription.id).toMatch(/^sub_/);
    expect(subscription).toMatchObject({ object: 'subscription', status: 'active', customer: done.customer, metadata: { serverId: '1300000000000000001', userId: '1200000000000000001' }, cancel_at_period_end: false });
    const item = subscription.items.data[0] as Stripe.SubscriptionItem;
    expect(item).toMatchObject({ object: 'subscription_item', quantity: 1, current_period_start: START_S, current_period_end: FEB_15_2025, price: { id: plans.premiumMonthly.id } });
    expect(subscription).toMatchObject({ current_period_start: START_S, current_period_end: FEB_15_2025 });

    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ object: 'invoice', status: 'paid', billing_reason: 'subscription_create', amount_paid: 225, amount_due: 225, customer: done.customer });
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);
    expect(invoice.lines.data[0]).toMatchObject({ amount: 225, description: '1 × Premium (at $2.25 / month)', period: { start: START_S, end: FEB_15_2025 } });
    const payment = invoice.payments?.data[0];
    expect(payment).toMatchObject({ status: 'paid', amount_paid: 225, payment: { type: 'payment_intent' } });

    const intent = await h.stripe.paymentIntents.retrieve(payment?.payment.payment_intent as string);
    expect(intent).toMatchObject({ status: 'succeeded', amount: 225, amount_received: 225 });
    const charge = await h.stripe.charges.retrieve(intent.latest_charge as string);
    expect(charge.id).toMatch(/^ch_/);
    expect(charge).toMatchObject({ status: 'succeeded', paid: true, amount: 225, refunded: false, payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242' } } });
    expect(session.id).toBe(done.id);
  });

  it('declines 4000 0000 0000 0002 on the page, which stays, with the session still open', async () => {
    const session = await startCheckout(h.stripe, plans.premiumMonthly.id);
    const declined = await payOnPage(session.url ?? '', CARDS.declined);
    expect(declined.status).toBe(402);
    expect(declined.location).toBeNull();
    expect(declined.html).toContain('<p class="error" role="alert">Your card was declined.</p>');
    expect(declined.html).toContain('<button type="submit">Pay</button>');
    expect(await h.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: 'open', payment_status: 'unpaid', subscription: null });
    expect((await h.stripe.subscriptions.list()).data).toHaveLength(0);

    const paid = await payOnPage(session.url ?? '', CARDS.pays);
    expect(paid.status).toBe(303);
  });

  it('asks 4000 0025 0000 3155 to complete authentication, then pays; failing it stays on the page', async () => {
    const session = await startCheckout(h.stripe, plans.premiumMonthly.id);
    const url = session.url ?? '';
    const step = await postForm(`${url}/pay`, { cardNumber: CARDS.authenticates });
    expect(step.status).toBe(200);
    expect(step.html).toContain('<h1>Complete authentication</h1>');
    expect(step.html).toContain('<button type="submit">Complete authentication</button>');
    expect((await h.stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');

    const failed = await postForm(`${url}/authenticate`, { outcome: 'fail' });
    expect(failed.status).toBe(402);
    expect(failed.html).toContain('We are unable to authenticate your payment method.');

    await postForm(`${url}/pay`, { cardNumber: CARDS.authenticates });
    const done = await postForm(`${url}/authenticate`, { outcome: 'complete' });
    expect(done.status).toBe(303);
    expect((await h.stripe.checkout.sessions.retrieve(session.id)).status).toBe('complete');
  });

  it('sends Cancel to cancel_url and keeps the session open', async () => {
    const session = await startCheckout(h.stripe, plans.premiumMonthly.id);
    const cancelled = await postForm(`${session.url ?? ''}/cancel`, {});
    expect(cancelled.status).toBe(303);
    expect(cancelled.location).toBe(CANCEL_URL);
    expect((await h.stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
  });

  it('uses an existing customer and asks a new buyer for an email', async () => {
    const customer = await h.stripe.customers.create({ email: 'known@example.com' });
    const withCustomer = await startCheckout(h.stripe, plans.premiumMonthly.id, { customer: customer.id, customer_email: undefined });
    await payOnPage(withCustomer.url ?? '');
    expect((await h.stripe.checkout.sessions.retrieve(withCustomer.id)).customer).toBe(customer.id);

    const anonymous = await startCheckout(h.stripe, plans.premiumMonthly.id, { customer_email: undefined });
    const noEmail = await postForm(`${anonymous.url ?? ''}/pay`, { cardNumber: CARDS.pays });
    expect(noEmail.status).toBe(400);
    expect(noEmail.html).toContain('Your email is incomplete.');
    const paid = await postForm(`${anonymous.url ?? ''}/pay`, { cardNumber: CARDS.pays, email: 'new@example.com' });
    expect(paid.status).toBe(303);
    const done = await h.stripe.checkout.sessions.retrieve(anonymous.id, { expand: ['customer'] });
    expect((done.customer as Stripe.Customer).email).toBe('new@example.com');
  });

  it('refuses what Stripe refuses: no line items, customer with customer_email, an unknown price, no quantity', async () => {
    const refuse = async (params: Partial<Stripe.Checkout.SessionCreateParams>) =>
      (await startCheckout(h.stripe, plans.premiumMonthly.id, params).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(await refuse({ line_items: [] })).toMatchObject({ code: 'parameter_missing', param: 'line_items' });
    const customer = await h.stripe.customers.create({});
    expect(await refuse({ customer: customer.id })).toMatchObject({ param: 'customer_email', message: 'You may only specify one of these parameters: customer, customer_email.' });
    expect(await refuse({ line_items: [{ price: 'price_nope', quantity: 1 }] })).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'line_items[0][price]' });
    expect(await refuse({ line_items: [{ price: plans.premiumMonthly.id }] })).toMatchObject({ param: 'line_items[0][quantity]' });
    expect(await refuse({ success_url: 'not a url' })).toMatchObject({ code: 'url_invalid', param: 'success_url' });
  });

  it('makes a one-off price from price_data', async () => {
    const session = await startCheckout(h.stripe, plans.premiumMonthly.id, {
      line_items: [{ price_data: { currency: 'usd', unit_amount: 600, recurring: { interval: 'month', interval_count: 3 }, product_data: { name: 'Enterprise quarterly' } }, quantity: 1 }],
    });
    expect(session.amount_total).toBe(600);
    const lines = await h.stripe.checkout.sessions.listLineItems(session.id);
    expect(lines.data[0]?.price).toMatchObject({ active: false, unit_amount: 600, recurring: { interval: 'month', interval_count: 3 } });
  });

  it('pays through the control route without a browser, completing authentication by default', async () => {
    const session = await startCheckout(h.stripe, plans.premiumMonthly.id);
    const paid = await h.control<{ status: string; subscription: string; redirect: string }>('POST', `/_sandbox/stripe/checkout/${session.id}/pay`, { cardNumber: CARDS.authenticates });
    expect(paid.status).toBe(200);
    expect(paid.body.redirect).toContain(`session_id=${session.id}`);
    expect((await h.stripe.subscriptions.retrieve(paid.body.subscription)).status).toBe('active');

    const other = await startCheckout(h.stripe, plans.premiumMonthly.id);
    const declined = await h.control('POST', `/_sandbox/stripe/checkout/${other.id}/pay`, { cardNumber: CARDS.declined });
    expect(declined).toEqual({ status: 402, body: { error: 'Your card was declined.' } });
  });

  it('expires an unpaid session after 24 hours of sandbox time', async () => {
    const session = await startCheckout(h.stripe, plans.premiumMonthly.id);
    await h.advanceDays(1);
    expect((await h.stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired');
    const page = await fetch(session.url ?? '');
    expect(await page.text()).toContain('This Checkout Session is no longer active');
    expect((await postForm(`${session.url ?? ''}/pay`, { cardNumber: CARDS.pays })).status).toBe(409);
  });
});
