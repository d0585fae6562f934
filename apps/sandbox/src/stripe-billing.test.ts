import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CARDS, DAY_S, START_S, createPlans, startStripeSandbox, subscribe } from './stripe-test-support.ts';
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

const at = (iso: string) => Date.parse(iso) / 1000;
const FEB_15 = at('2025-02-15T12:00:00Z');
const MAR_15 = at('2025-03-15T12:00:00Z');
const JAN_25 = START_S + 10 * DAY_S;

async function eventsOf(type: string): Promise<Stripe.Event[]> {
  return (await h.stripe.events.list({ type, limit: 100 })).data;
}

async function invoicesOf(subscription: string): Promise<Stripe.Invoice[]> {
  return (await h.stripe.invoices.list({ subscription })).data;
}

describe('plan changes', () => {
  it('prorates an upgrade from the remaining time and, with always_invoice, charges it at once', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await h.advanceDays(10);
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    const updated = await h.stripe.subscriptions.update(sub.id, { items: [{ id: item.id, price: plans.enterpriseMonthly.id }], proration_behavior: 'always_invoice', expand: ['latest_invoice'] });

    expect(updated.items.data[0]).toMatchObject({ id: item.id, price: { id: plans.enterpriseMonthly.id }, current_period_start: START_S, current_period_end: FEB_15 });
    const invoice = updated.latest_invoice as Stripe.Invoice;
    // 21 of the period's 31 days remain: credit 225 × 21/31 = 152, charge 600 × 21/31 = 406.
    expect(invoice.lines.data.map((l) => [l.amount, l.description])).toEqual([
      [-152, 'Unused time on 1 × Premium after 25 Jan 2025'],
      [406, 'Remaining time on 1 × Enterprise after 25 Jan 2025'],
    ]);
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', amount_due: 254, amount_paid: 254, total: 254 });
    expect(invoice.lines.data[0]?.parent?.subscription_item_details?.proration).toBe(true);

    const [event] = await eventsOf('customer.subscription.updated');
    expect(event?.data.previous_attributes).toHaveProperty('items');
    expect(((event?.data.object as Stripe.Subscription).items.data[0] as Stripe.SubscriptionItem).price.id).toBe(plans.enterpriseMonthly.id);
  });

  it('keeps create_prorations for the next invoice, which bills them with the new price', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await h.advanceDays(10);
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    const updated = await h.stripe.subscriptions.update(sub.id, { items: [{ id: item.id, price: plans.enterpriseMonthly.id }] });
    expect(updated.latest_invoice).toBe(sub.latest_invoice);
    expect(await invoicesOf(sub.id)).toHaveLength(1);

    await h.advanceDays(21);
    const [renewal] = await invoicesOf(sub.id);
    expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', amount_paid: 854, status: 'paid', period_start: START_S, period_end: FEB_15 });
    expect(renewal?.lines.data.map((l) => l.amount)).toEqual([-152, 406, 600]);
    expect(renewal?.lines.data[2]?.period).toEqual({ start: FEB_15, end: MAR_15 });
  });

  it('starts a new cycle at once when the interval changes, crediting the unused month', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await h.advanceDays(10);
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    const updated = await h.stripe.subscriptions.update(sub.id, { items: [{ id: item.id, price: plans.premiumYearly.id }], expand: ['latest_invoice'] });
    expect(updated.items.data[0]).toMatchObject({ current_period_start: JAN_25, current_period_end: at('2026-01-25T12:00:00Z') });
    expect(updated.billing_cycle_anchor).toBe(JAN_25);
    expect(updated.latest_invoice).toMatchObject({ amount_paid: 2008, billing_reason: 'subscription_update', status: 'paid' });
  });

  it('changes without proration when asked (proration_behavior none)', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    await h.stripe.subscriptions.update(sub.id, { items: [{ id: item.id, price: plans.enterpriseMonthly.id }], proration_behavior: 'none' });
    await h.advanceDays(31);
    expect((await invoicesOf(sub.id))[0]?.amount_paid).toBe(600);
  });

  it('refuses an unknown item or price with the parameter that named it', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const noItem = (await h.stripe.subscriptions.update(sub.id, { items: [{ id: 'si_nope', price: plans.enterpriseMonthly.id }] }).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(noItem).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'items[0][id]' });
    const noPrice = (await h.stripe.subscriptions.update(sub.id, { items: [{ id: sub.items.data[0]?.id ?? '', price: 'price_nope' }] }).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(noPrice).toMatchObject({ statusCode: 404, param: 'items[0][price]' });
  });
});

describe('renewals and period ends on the sandbox clock', () => {
  it('renews when the period ends: a new period, a paid subscription_cycle invoice, and events', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await h.advanceDays(31);
    const renewed = await h.stripe.subscriptions.retrieve(sub.id);
    expect(renewed).toMatchObject({ status: 'active', current_period_start: FEB_15, current_period_end: MAR_15 });
    expect(renewed.items.data[0]).toMatchObject({ current_period_start: FEB_15, current_period_end: MAR_15 });
    const [renewal] = await invoicesOf(sub.id);
    expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: 225, created: FEB_15 });
    expect(renewal?.id).toBe(renewed.latest_invoice);

    const paid = await eventsOf('invoice.paid');
    expect(paid[0]?.data.object).toMatchObject({ id: renewal?.id });
    expect(paid[0]?.created).toBe(FEB_15);
    const [updated] = await eventsOf('customer.subscription.updated');
    expect(updated?.data.previous_attributes).toMatchObject({ current_period_start: START_S, current_period_end: FEB_15 });
  });

  it('renews once per period when the clock jumps several periods', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await h.advanceDays(95);
    expect((await invoicesOf(sub.id)).map((i) => i.billing_reason)).toEqual(['subscription_cycle', 'subscription_cycle', 'subscription_cycle', 'subscription_create']);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).items.data[0]?.current_period_start).toBe(at('2025-04-15T12:00:00Z'));
  });

  it('cancels at period end: active until then, then canceled with customer.subscription.deleted', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await h.advanceDays(2);
    const pending = await h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(pending).toMatchObject({ status: 'active', cancel_at_period_end: true, cancel_at: FEB_15, canceled_at: START_S + 2 * DAY_S });
    const [updated] = await eventsOf('customer.subscription.updated');
    expect(updated?.data.previous_attributes).toMatchObject({ cancel_at_period_end: false, cancel_at: null });

    await h.advanceDays(28);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    await h.advanceDays(1);
    const ended = await h.stripe.subscriptions.retrieve(sub.id);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: FEB_15 });
    expect(await invoicesOf(sub.id)).toHaveLength(1);
    const [deleted] = await eventsOf('customer.subscription.deleted');
    expect(deleted?.data.object).toMatchObject({ id: sub.id, status: 'canceled' });
    expect((await h.stripe.subscriptions.list({ customer: sub.customer as string })).data).toHaveLength(0);
    expect((await h.stripe.subscriptions.list({ customer: sub.customer as string, status: 'all' })).data).toHaveLength(1);
  });

  it('undoes a cancellation at period end with cancel_at_period_end=false', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    await h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: false });
    await h.advanceDays(31);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('fails a renewal marked to fail: invoice.payment_failed, past_due, then the retry three days later pays', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const marked = await h.control('POST', `/_sandbox/stripe/subscriptions/${sub.id}/fail-next-renewal`, {});
    expect(marked).toMatchObject({ status: 200, body: { failuresPending: 1 } });
    await h.advanceDays(31);

    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('past_due');
    const [open] = await invoicesOf(sub.id);
    expect(open).toMatchObject({ status: 'open', attempt_count: 1, amount_paid: 0, amount_remaining: 225, next_payment_attempt: FEB_15 + 3 * DAY_S });
    const [failed] = await eventsOf('invoice.payment_failed');
    expect(failed?.data.object).toMatchObject({ id: open?.id });
    const [updated] = await eventsOf('customer.subscription.updated');
    expect(updated?.data.object).toMatchObject({ status: 'past_due' });
    expect(updated?.data.previous_attributes).toMatchObject({ status: 'active' });
    const intent = await h.stripe.paymentIntents.retrieve(open?.payments?.data[0]?.payment.payment_intent as string);
    expect(intent).toMatchObject({ status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' } });

    await h.advanceDays(3);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    expect((await h.stripe.invoices.retrieve(open?.id ?? '')).status).toBe('paid');
  });

  it('ends the subscription when every retry fails, marking the invoice uncollectible', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await h.control('POST', `/_sandbox/stripe/subscriptions/${sub.id}/fail-next-renewal`, { failures: 4 });
    await h.advanceDays(31 + 15);
    const ended = await h.stripe.subscriptions.retrieve(sub.id);
    expect(ended).toMatchObject({ status: 'canceled', cancellation_details: { reason: 'payment_failed' } });
    const [invoice] = await invoicesOf(sub.id);
    expect(invoice).toMatchObject({ status: 'uncollectible', attempt_count: 4 });
  });

  it('declines renewals of a card that only pays on the page (4000 0000 0000 0341), and pays once the invoice is paid by hand', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id, CARDS.laterDeclines);
    await h.advanceDays(31);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('past_due');
    const [open] = await invoicesOf(sub.id);
    const error = (await h.stripe.invoices.pay(open?.id ?? '').catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);

    const page = await fetch(open?.hosted_invoice_url ?? '');
    expect(await page.text()).toContain('<button type="submit">Pay</button>');
    const paid = await fetch(`${open?.hosted_invoice_url ?? ''}/pay`, { method: 'POST', body: new URLSearchParams({ cardNumber: CARDS.pays }), redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });
});

describe('finding subscriptions', () => {
  it('lists by customer and searches by metadata', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    expect((await h.stripe.subscriptions.list({ customer: sub.customer as string })).data.map((s) => s.id)).toEqual([sub.id]);
    const found = await h.stripe.subscriptions.search({ query: "metadata['serverId']:'1300000000000000001' AND status:'active'" });
    expect(found).toMatchObject({ object: 'search_result', has_more: false });
    expect(found.data.map((s) => s.id)).toEqual([sub.id]);
    expect((await h.stripe.subscriptions.search({ query: "metadata['serverId']:'elsewhere'" })).data).toHaveLength(0);
    const bad = (await h.stripe.subscriptions.search({ query: 'serverId=1' }).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(bad).toMatchObject({ statusCode: 400, param: 'query' });
  });
});

describe('cancelling now and refunds', () => {
  it('cancels at once with DELETE', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await h.advanceDays(3);
    const canceled = await h.stripe.subscriptions.cancel(sub.id);
    expect(canceled).toMatchObject({ status: 'canceled', ended_at: START_S + 3 * DAY_S, canceled_at: START_S + 3 * DAY_S });
    const [deleted] = await eventsOf('customer.subscription.deleted');
    expect(deleted?.data.object).toMatchObject({ id: sub.id });
    const again = (await h.stripe.subscriptions.cancel(sub.id).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await h.advanceDays(40);
    expect(await invoicesOf(sub.id)).toHaveLength(1);
  });

  it('refunds the first payment in full by payment intent: charge.refunded with the charge refunded', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const invoice = await h.stripe.invoices.retrieve(sub.latest_invoice as string);
    const intentId = invoice.payments?.data[0]?.payment.payment_intent as string;
    const refund = await h.stripe.refunds.create({ payment_intent: intentId, reason: 'requested_by_customer' });
    expect(refund.id).toMatch(/^re_/);
    expect(refund).toMatchObject({ object: 'refund', amount: 225, status: 'succeeded', payment_intent: intentId, reason: 'requested_by_customer' });
    const charge = await h.stripe.charges.retrieve(refund.charge as string);
    expect(charge).toMatchObject({ refunded: true, amount_refunded: 225 });
    expect(await h.stripe.refunds.retrieve(refund.id)).toMatchObject({ id: refund.id, amount: 225 });

    const [event] = await eventsOf('charge.refunded');
    expect(event?.data.object).toMatchObject({ id: charge.id, refunded: true, amount_refunded: 225 });
    expect(event?.data.previous_attributes).toMatchObject({ refunded: false, amount_refunded: 0 });

    const twice = (await h.stripe.refunds.create({ charge: charge.id }).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(twice).toMatchObject({ code: 'charge_already_refunded', statusCode: 400 });
  });

  it('refunds part of a charge, and refuses more than is left', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const charges = await h.stripe.charges.list({ customer: sub.customer as string });
    const charge = charges.data[0] as Stripe.Charge;
    await h.stripe.refunds.create({ charge: charge.id, amount: 100 });
    expect(await h.stripe.charges.retrieve(charge.id)).toMatchObject({ refunded: false, amount_refunded: 100 });
    const tooMuch = (await h.stripe.refunds.create({ charge: charge.id, amount: 200 }).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(tooMuch).toMatchObject({ code: 'amount_too_large', param: 'amount', message: 'Refund amount ($2.00) is greater than unrefunded amount on charge ($1.25)' });
    await h.stripe.refunds.create({ charge: charge.id });
    expect(await h.stripe.charges.retrieve(charge.id)).toMatchObject({ refunded: true, amount_refunded: 225 });
    expect((await h.stripe.refunds.list({ charge: charge.id })).data.map((r) => r.amount)).toEqual([125, 100]);
  });
});
