import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CARDS, DAY_S, START_S, createPlans, postForm, startStripeSandbox, subscribe } from './stripe-test-support.ts';
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
const FEB_15_2026 = at('2026-02-15T12:00:00Z');
const ALWAYS_AUTHENTICATES = '4000 0027 6000 3184';
const RESULT_PAGE = 'http://localhost:5173/staff/1300000000000000001/premium/update/success?provider=stripe&token=x';

const eventsOf = async (type: string) => (await h.stripe.events.list({ type, limit: 100 })).data;
const invoicesOf = async (subscription: string) => (await h.stripe.invoices.list({ subscription })).data;
const failure = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => e as Stripe.errors.StripeError);
const itemOf = (sub: Stripe.Subscription) => sub.items.data[0] as Stripe.SubscriptionItem;

describe('subscription schedules', () => {
  /** A schedule from the subscription whose second phase moves it to `price` at the end of the period. */
  async function scheduleChange(sub: Stripe.Subscription, price: string, metadata: Record<string, string>, duration: Stripe.SubscriptionScheduleUpdateParams.Phase.Duration) {
    const schedule = await h.stripe.subscriptionSchedules.create({ from_subscription: sub.id });
    const current = schedule.phases[0] as Stripe.SubscriptionSchedule.Phase;
    return h.stripe.subscriptionSchedules.update(schedule.id, {
      end_behavior: 'release',
      phases: [
        { items: [{ price: current.items[0]?.price as string, quantity: 1 }], start_date: current.start_date, end_date: current.end_date },
        { items: [{ price, quantity: 1 }], duration, proration_behavior: 'none', metadata },
      ],
    });
  }

  it('makes a schedule from a subscription: one phase, its current period and items', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const schedule = await h.stripe.subscriptionSchedules.create({ from_subscription: sub.id });
    expect(schedule.id).toMatch(/^sub_sched_/);
    expect(schedule).toMatchObject({ object: 'subscription_schedule', status: 'active', end_behavior: 'release', subscription: sub.id, customer: sub.customer, current_phase: { start_date: START_S, end_date: FEB_15 } });
    expect(schedule.phases).toHaveLength(1);
    expect(schedule.phases[0]).toMatchObject({ start_date: START_S, end_date: FEB_15, items: [{ price: plans.premiumMonthly.id, quantity: 1 }] });
    expect((await h.stripe.subscriptions.retrieve(sub.id)).schedule).toBe(schedule.id);
    expect(await h.stripe.subscriptionSchedules.retrieve(schedule.id)).toMatchObject({ id: schedule.id });
    expect((await eventsOf('subscription_schedule.created'))[0]?.data.object).toMatchObject({ id: schedule.id });

    const again = await failure(h.stripe.subscriptionSchedules.create({ from_subscription: sub.id }));
    expect(again).toMatchObject({ statusCode: 400, param: 'from_subscription', message: `You cannot migrate a subscription that is already attached to a schedule: \`${schedule.id}\`.` });
    const both = await failure(h.stripe.subscriptionSchedules.create({ from_subscription: sub.id, end_behavior: 'cancel' }));
    expect(both).toMatchObject({ statusCode: 400, param: 'end_behavior' });
  });

  it('moves to a yearly price at the end of the period: a new cycle and anchor then, its invoice, the phase metadata, then released', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const updated = await scheduleChange(sub, plans.premiumYearly.id, { planInterval: 'annually', scheduledAt: '' }, { interval: 'year' });
    expect(updated.phases.map((p) => [p.start_date, p.end_date])).toEqual([
      [START_S, FEB_15],
      [FEB_15, FEB_15_2026],
    ]);
    expect(updated.phases[1]).toMatchObject({ items: [{ price: plans.premiumYearly.id }], proration_behavior: 'none', metadata: { planInterval: 'annually' } });
    await h.stripe.subscriptions.update(sub.id, { metadata: { scheduledAt: String(FEB_15) } });
    // Nothing is charged until then.
    await h.advanceDays(30);
    expect(await invoicesOf(sub.id)).toHaveLength(1);

    await h.advanceDays(1);
    const moved = await h.stripe.subscriptions.retrieve(sub.id);
    expect(moved).toMatchObject({ status: 'active', billing_cycle_anchor: FEB_15, metadata: { planInterval: 'annually' }, schedule: updated.id });
    expect(moved.metadata.scheduledAt).toBeUndefined();
    expect(itemOf(moved)).toMatchObject({ id: itemOf(sub).id, price: { id: plans.premiumYearly.id }, current_period_start: FEB_15, current_period_end: FEB_15_2026 });
    const invoices = await invoicesOf(sub.id);
    expect(invoices.map((i) => [i.amount_paid, i.status, i.created])).toEqual([
      [2160, 'paid', FEB_15],
      [225, 'paid', START_S],
    ]);
    expect((await h.stripe.subscriptionSchedules.retrieve(updated.id)).current_phase).toEqual({ start_date: FEB_15, end_date: FEB_15_2026 });

    await h.advanceDays(366);
    const released = await h.stripe.subscriptionSchedules.retrieve(updated.id);
    expect(released).toMatchObject({ status: 'released', released_subscription: sub.id, subscription: null, released_at: FEB_15_2026 });
    const renewed = await h.stripe.subscriptions.retrieve(sub.id);
    expect(renewed).toMatchObject({ schedule: null, status: 'active' });
    expect(itemOf(renewed).current_period_start).toBe(FEB_15_2026);
    expect((await invoicesOf(sub.id)).map((i) => i.amount_paid)).toEqual([2160, 2160, 225]);
  });

  it('moves to a cheaper price of the same interval at the end of the period, and the renewal bills it', async () => {
    const sub = await subscribe(h, plans.enterpriseMonthly.id);
    await scheduleChange(sub, plans.premiumMonthly.id, { planType: 'premium' }, { interval: 'month' });
    await h.advanceDays(31);
    const renewed = await h.stripe.subscriptions.retrieve(sub.id);
    expect(renewed).toMatchObject({ billing_cycle_anchor: START_S, metadata: { planType: 'premium' } });
    expect(itemOf(renewed)).toMatchObject({ price: { id: plans.premiumMonthly.id }, current_period_start: FEB_15, current_period_end: MAR_15 });
    expect((await invoicesOf(sub.id)).map((i) => [i.billing_reason, i.amount_paid])).toEqual([
      ['subscription_cycle', 225],
      ['subscription_create', 600],
    ]);
  });

  it('releases a schedule: the subscription goes on as it was, and a released schedule cannot change', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const schedule = await scheduleChange(sub, plans.premiumYearly.id, {}, { interval: 'year' });
    const released = await h.stripe.subscriptionSchedules.release(schedule.id);
    expect(released).toMatchObject({ status: 'released', released_subscription: sub.id, subscription: null });
    expect((await h.stripe.subscriptions.retrieve(sub.id)).schedule).toBeNull();
    expect((await eventsOf('subscription_schedule.released'))[0]?.data.object).toMatchObject({ id: schedule.id });
    await h.advanceDays(31);
    expect((await invoicesOf(sub.id)).map((i) => i.amount_paid)).toEqual([225, 225]);
    const twice = await failure(h.stripe.subscriptionSchedules.release(schedule.id));
    expect(twice).toMatchObject({ statusCode: 400 });
    expect(twice?.message).toContain('`released` status');
    const update = await failure(h.stripe.subscriptionSchedules.update(schedule.id, { end_behavior: 'cancel' }));
    expect(update).toMatchObject({ statusCode: 400 });
  });

  it('refuses a cancellation set on the subscription itself while a schedule manages it, and a new start for the current phase', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const schedule = await h.stripe.subscriptionSchedules.create({ from_subscription: sub.id });
    const cancel = await failure(h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true }));
    expect(cancel).toMatchObject({ statusCode: 400 });
    expect(cancel?.message).toBe(`The subscription is managed by the subscription schedule \`${schedule.id}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`);
    const moved = await failure(h.stripe.subscriptionSchedules.update(schedule.id, { phases: [{ items: [{ price: plans.premiumMonthly.id }], start_date: START_S + DAY_S }] }));
    expect(moved).toMatchObject({ statusCode: 400, param: 'phases[0][start_date]' });
    const unknown = await failure(h.stripe.subscriptionSchedules.retrieve('sub_sched_nope'));
    expect(unknown).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('cancels the schedule with its subscription when the subscription is cancelled', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const schedule = await h.stripe.subscriptionSchedules.create({ from_subscription: sub.id });
    await h.stripe.subscriptions.cancel(sub.id);
    expect(await h.stripe.subscriptionSchedules.retrieve(schedule.id)).toMatchObject({ status: 'canceled', current_phase: null });
  });
});

describe('pending updates (payment_behavior=pending_if_incomplete)', () => {
  const upgrade = (sub: Stripe.Subscription, extra: Partial<Stripe.SubscriptionUpdateParams> = {}) =>
    h.stripe.subscriptions.update(sub.id, {
      items: [{ id: itemOf(sub).id, price: plans.enterpriseMonthly.id }],
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
      metadata: { planType: 'enterprise' },
      ...extra,
    });

  it('applies an upgrade at once when the card pays', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const updated = await upgrade(sub);
    expect(updated).toMatchObject({ pending_update: null, metadata: { planType: 'enterprise' } });
    expect(itemOf(updated).price.id).toBe(plans.enterpriseMonthly.id);
  });

  it('keeps the change pending while the card needs its buyer, and applies it, metadata too, once the invoice is paid on its page', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id, CARDS.authenticates);
    await h.advanceDays(10);
    const pending = await upgrade(sub);
    expect(pending.status).toBe('active');
    expect(itemOf(pending).price.id).toBe(plans.premiumMonthly.id);
    expect(pending.metadata.planType).toBeUndefined();
    expect(pending.pending_update).toMatchObject({ expires_at: START_S + 10 * DAY_S + 23 * 3600, metadata: { planType: 'enterprise' }, billing_cycle_anchor: null });
    expect(pending.pending_update?.subscription_items?.[0]).toMatchObject({ id: itemOf(sub).id, price: { id: plans.enterpriseMonthly.id } });
    const invoice = await h.stripe.invoices.retrieve(pending.latest_invoice as string);
    expect(invoice).toMatchObject({ status: 'open', billing_reason: 'subscription_update', amount_remaining: 254 });
    const intent = await h.stripe.paymentIntents.retrieve(invoice.payments?.data[0]?.payment.payment_intent as string);
    expect(intent).toMatchObject({ status: 'requires_action', last_payment_error: { code: 'authentication_required' } });

    // The hosted invoice page, opened with a return URL, asks for authentication, then sends the browser back.
    const url = `${invoice.hosted_invoice_url}?return_url=${encodeURIComponent(RESULT_PAGE)}`;
    const page = await (await fetch(url)).text();
    expect(page).toContain(`name="return_url" value="${RESULT_PAGE.replace(/&/g, '&amp;')}"`);
    const step = await postForm(`${invoice.hosted_invoice_url}/pay`, { cardNumber: CARDS.authenticates, return_url: RESULT_PAGE });
    expect(step.html).toContain('<h1>Complete authentication</h1>');
    expect((await h.stripe.invoices.retrieve(invoice.id)).status).toBe('open');
    const back = await postForm(`${invoice.hosted_invoice_url}/authenticate`, { outcome: 'complete' });
    expect(back).toMatchObject({ status: 303, location: RESULT_PAGE });

    expect(await h.stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 254 });
    const applied = await h.stripe.subscriptions.retrieve(sub.id);
    expect(applied).toMatchObject({ pending_update: null, metadata: { planType: 'enterprise' }, status: 'active' });
    expect(itemOf(applied)).toMatchObject({ id: itemOf(sub).id, price: { id: plans.enterpriseMonthly.id } });
    const [event] = await eventsOf('customer.subscription.updated');
    expect(event?.data.previous_attributes).toHaveProperty('pending_update');
    expect(event?.data.previous_attributes).toHaveProperty('items');
  });

  it('charges a card that authenticated once without asking when off_session is set', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id, CARDS.authenticates);
    const updated = await upgrade(sub, { off_session: true });
    expect(updated.pending_update).toBeNull();
    expect(itemOf(updated).price.id).toBe(plans.enterpriseMonthly.id);
  });

  it('drops a pending update after 23 hours: the invoice is voided and customer.subscription.pending_update_expired sent', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id, ALWAYS_AUTHENTICATES);
    const pending = await upgrade(sub);
    expect(pending.pending_update).not.toBeNull();
    await h.advanceDays(1);
    const after = await h.stripe.subscriptions.retrieve(sub.id);
    expect(after).toMatchObject({ pending_update: null, status: 'active' });
    expect(itemOf(after).price.id).toBe(plans.premiumMonthly.id);
    expect(await h.stripe.invoices.retrieve(pending.latest_invoice as string)).toMatchObject({ status: 'void' });
    expect((await eventsOf('customer.subscription.pending_update_expired'))[0]?.data.object).toMatchObject({ id: sub.id });
    const late = await postForm(`${(await h.stripe.invoices.retrieve(pending.latest_invoice as string)).hosted_invoice_url}/pay`, { cardNumber: CARDS.pays });
    expect(late.status).toBe(409);
  });

  it('drops a pending update whose invoice is voided, and pays one through the control route', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id, ALWAYS_AUTHENTICATES);
    const first = await upgrade(sub);
    await h.stripe.invoices.voidInvoice(first.latest_invoice as string);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).pending_update).toBeNull();

    const second = await upgrade(sub);
    const paid = await h.control<{ status: string }>('POST', `/_sandbox/stripe/invoices/${second.latest_invoice as string}/pay`, { cardNumber: ALWAYS_AUTHENTICATES });
    expect(paid).toMatchObject({ status: 200, body: { status: 'paid' } });
    expect(itemOf(await h.stripe.subscriptions.retrieve(sub.id)).price.id).toBe(plans.enterpriseMonthly.id);
  });

  it('refuses parameters a pending update cannot carry', async () => {
    const sub = await subscribe(h, plans.premiumMonthly.id);
    const refused = await failure(upgrade(sub, { cancel_at_period_end: true }));
    expect(refused).toMatchObject({ statusCode: 400, param: 'cancel_at_period_end' });
  });
});
