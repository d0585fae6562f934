import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addInterval } from './paypal-billing.ts';
import type { EventBody, PaypalErrorBody, PaypalTestSandbox, SubscriptionBody, TransactionsBody } from './paypal-test-support.ts';
import { createPlan, createSubscription, decideOnPage, linkOf, startPaypalSandbox } from './paypal-test-support.ts';
import { startEndpoint } from './test-endpoint.ts';
import type { TestEndpoint } from './test-endpoint.ts';

let t: PaypalTestSandbox;
let endpoint: TestEndpoint;
beforeEach(async () => {
  endpoint = await startEndpoint(() => ({ status: 200 }));
  t = await startPaypalSandbox({ webhookUrl: endpoint.url });
});
afterEach(async () => {
  await t.close();
  await endpoint.close();
});

async function subscribe(options: Parameters<typeof createPlan>[1] = {}): Promise<string> {
  const plan = await createPlan(t, options);
  const created = await createSubscription(t, plan.id);
  await decideOnPage(linkOf(created, 'approve'), 'approve');
  await t.control('POST', '/paypal/deliveries/wait');
  endpoint.requests.length = 0;
  return created.id;
}

const show = async (id: string) => (await t.call<SubscriptionBody>('GET', `/v1/billing/subscriptions/${id}`)).json;
const delivered = () => endpoint.requests.map((r) => (r.json as EventBody).event_type);

describe('PayPal billing on the sandbox clock', () => {
  it('renews when the clock passes next_billing_time, and the webhook has arrived when the clock call returns', async () => {
    const id = await subscribe();
    await t.advanceDays(20);
    expect(delivered()).toEqual([]);
    await t.advanceDays(11);
    expect(delivered()).toEqual(['PAYMENT.SALE.COMPLETED']);
    const sale = endpoint.requests[0]!.json as EventBody;
    expect(sale.resource).toMatchObject({ billing_agreement_id: id, amount: { total: '2.25', currency: 'USD' }, create_time: '2025-02-15T12:00:00Z' });
    expect(await show(id)).toMatchObject({
      status: 'ACTIVE',
      billing_info: { next_billing_time: '2025-03-15T12:00:00Z', last_payment: { time: '2025-02-15T12:00:00Z' }, cycle_executions: [{ cycles_completed: 2 }] },
    });
  });

  it('charges every cycle that fell due when the clock jumps several periods', async () => {
    const id = await subscribe({ unit: 'WEEK' });
    await t.advanceDays(22);
    expect(delivered()).toEqual(['PAYMENT.SALE.COMPLETED', 'PAYMENT.SALE.COMPLETED', 'PAYMENT.SALE.COMPLETED']);
    const transactions = await t.call<TransactionsBody>('GET', `/v1/billing/subscriptions/${id}/transactions?start_time=2025-01-01T00:00:00Z&end_time=2025-12-31T00:00:00Z`);
    expect(transactions.json.transactions.map((tx) => tx.time)).toEqual(['2025-01-15T12:00:00Z', '2025-01-22T12:00:00Z', '2025-01-29T12:00:00Z', '2025-02-05T12:00:00Z']);
    expect((await show(id)).billing_info.next_billing_time).toBe('2025-02-12T12:00:00Z');
  });

  it('fails the renewal marked to fail, then suspends the subscription, which PayPal will not reactivate', async () => {
    const id = await subscribe();
    const marked = await t.control('POST', `/paypal/subscriptions/${id}/fail-next-payment`);
    expect(marked.status).toBe(200);
    await t.advanceDays(31);
    expect(delivered()).toEqual(['BILLING.SUBSCRIPTION.PAYMENT.FAILED', 'BILLING.SUBSCRIPTION.SUSPENDED']);
    const failed = endpoint.requests[0]!.json as EventBody;
    expect(failed.resource).toMatchObject({ id, status: 'ACTIVE', billing_info: { failed_payments_count: 1, last_failed_payment: { reason_code: 'PAYMENT_DENIED', amount: { value: '2.25' } } } });
    const shown = await show(id);
    expect(shown).toMatchObject({ status: 'SUSPENDED', billing_info: { failed_payments_count: 1, outstanding_balance: { value: '2.25' }, last_payment: { time: '2025-01-15T12:00:00Z' } } });

    const activate = await t.call<PaypalErrorBody>('POST', `/v1/billing/subscriptions/${id}/activate`, { reason: 'retry' });
    expect(activate.status).toBe(422);
    expect(activate.json.details[0]!.issue).toBe('SUBSCRIPTION_CANNOT_BE_ACTIVATED');
    // Nothing more is charged while suspended; the merchant can still cancel it.
    await t.advanceDays(31);
    expect(delivered()).toHaveLength(2);
    expect((await t.call('POST', `/v1/billing/subscriptions/${id}/cancel`, { reason: 'Payment failed' })).status).toBe(204);
  });

  it('retries an unpaid cycle five days later while under a higher failure threshold', async () => {
    const id = await subscribe({ threshold: 3 });
    await t.control('POST', `/paypal/subscriptions/${id}/fail-next-payment`, { count: 1 });
    await t.advanceDays(31);
    expect(delivered()).toEqual(['BILLING.SUBSCRIPTION.PAYMENT.FAILED']);
    expect(await show(id)).toMatchObject({
      status: 'ACTIVE',
      billing_info: { failed_payments_count: 1, last_failed_payment: { next_payment_retry_time: '2025-02-20T12:00:00Z' }, next_billing_time: '2025-02-15T12:00:00Z' },
    });
    await t.advanceDays(5);
    expect(delivered()).toEqual(['BILLING.SUBSCRIPTION.PAYMENT.FAILED', 'PAYMENT.SALE.COMPLETED']);
    expect(await show(id)).toMatchObject({
      status: 'ACTIVE',
      billing_info: { failed_payments_count: 0, outstanding_balance: { value: '0.00' }, last_payment: { time: '2025-02-20T12:00:00Z' }, next_billing_time: '2025-03-15T12:00:00Z' },
    });
  });

  it('expires after the last cycle of a plan with a fixed number of payments', async () => {
    const id = await subscribe({ totalCycles: 2 });
    await t.advanceDays(31);
    expect(delivered()).toEqual(['PAYMENT.SALE.COMPLETED']);
    expect((await show(id)).billing_info.final_payment_time).toBe('2025-02-15T12:00:00Z');
    await t.advanceDays(30);
    expect(delivered()).toEqual(['PAYMENT.SALE.COMPLETED', 'BILLING.SUBSCRIPTION.EXPIRED']);
    expect((await show(id)).status).toBe('EXPIRED');
  });

  it('lets the buyer cancel in their PayPal account and the merchant refund from the dashboard', async () => {
    const id = await subscribe();
    const cancelled = await t.control('POST', `/paypal/subscriptions/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    const state = await t.control<{ sales: { id: string; subscriptionId: string }[] }>('GET', '/paypal');
    const saleId = state.json.sales.find((s) => s.subscriptionId === id)!.id;
    expect((await t.control('POST', `/paypal/sales/${saleId}/refund`, { amount: '1.00' })).status).toBe(200);
    expect(delivered()).toEqual(['BILLING.SUBSCRIPTION.CANCELLED', 'PAYMENT.SALE.REFUNDED']);
    expect((endpoint.requests[1]!.json as EventBody).resource).toMatchObject({ sale_id: saleId, amount: { total: '-1.00' } });
    expect((await t.call('GET', `/v2/payments/captures/${saleId}`)).json).toMatchObject({ status: 'PARTIALLY_REFUNDED' });
  });

  it('keeps the day of the month, clamped to shorter months', () => {
    const monthly = { interval_unit: 'MONTH' as const, interval_count: 1 };
    expect(new Date(addInterval(Date.parse('2025-01-31T10:00:00Z'), monthly)).toISOString()).toBe('2025-02-28T10:00:00.000Z');
    expect(new Date(addInterval(Date.parse('2024-02-29T10:00:00Z'), { interval_unit: 'YEAR', interval_count: 1 })).toISOString()).toBe('2025-02-28T10:00:00.000Z');
    expect(new Date(addInterval(Date.parse('2025-01-15T10:00:00Z'), { interval_unit: 'MONTH', interval_count: 3 })).toISOString()).toBe('2025-04-15T10:00:00.000Z');
  });
});
