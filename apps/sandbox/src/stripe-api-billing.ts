import type { FastifyInstance } from 'fastify';
import { cardError, DECLINES, invalidRequest } from './stripe-errors.ts';
import { listOf, must, render, stripeRoute } from './stripe-http.ts';
import type { StripeRuntime } from './stripe-http.ts';
import { chargeInvoice, formatMoney, refundCharge, voidInvoice } from './stripe-invoices.ts';
import { cancelSubscription, emitUpdated, hasUnpaidInvoice } from './stripe-subscriptions.ts';
import { applyPendingChange, discardPendingChange, updateSubscription } from './stripe-update-subscription.ts';
import type { ItemChange, PaymentBehavior, ProrationBehavior, SubscriptionChange } from './stripe-update-subscription.ts';
import type { Params } from './stripe-params.ts';
import type { StripeStore } from './stripe-store.ts';
import type { Charge, Price } from './stripe-types.ts';

const STATUSES = ['active', 'all', 'canceled', 'ended', 'incomplete', 'incomplete_expired', 'past_due', 'paused', 'trialing', 'unpaid'] as const;
const PRORATION: readonly ProrationBehavior[] = ['always_invoice', 'create_prorations', 'none'];
const PAYMENT_BEHAVIOR: readonly PaymentBehavior[] = ['allow_incomplete', 'default_incomplete', 'error_if_incomplete', 'pending_if_incomplete'];

export function recurringPrice(store: StripeStore, id: string, param: string): Price {
  const price = must(store, 'price', id, param);
  if (!price.recurring) throw invalidRequest('The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', { param });
  if (!price.active) throw invalidRequest('The price specified is inactive. This field only accepts active prices.', { param });
  return price;
}

function readChange(store: StripeStore, p: Params): SubscriptionChange {
  const items: ItemChange[] | undefined = p.objects('items')?.map((item) => {
    const priceId = item.string('price');
    const change: ItemChange = { param: item.path };
    const id = item.string('id');
    if (id) change.id = id;
    if (priceId) change.price = recurringPrice(store, priceId, item.name('price'));
    const quantity = item.int('quantity', { min: 0 });
    if (quantity !== undefined) change.quantity = quantity;
    if (item.bool('deleted')) change.deleted = true;
    item.ignore('metadata', 'clear_usage', 'discounts', 'tax_rates', 'billing_thresholds');
    return change;
  });
  for (const unsupported of ['trial_end', 'trial_period_days', 'pause_collection', 'add_invoice_items']) {
    if (p.has(unsupported)) throw invalidRequest(`The sandbox does not model ${unsupported}.`, { param: unsupported });
  }
  const change: SubscriptionChange = {
    prorationBehavior: p.oneOf('proration_behavior', PRORATION) ?? 'create_prorations',
    billingCycleAnchorNow: p.oneOf('billing_cycle_anchor', ['now', 'unchanged'] as const) === 'now',
    paymentBehavior: p.oneOf('payment_behavior', PAYMENT_BEHAVIOR) ?? 'allow_incomplete',
    offSession: p.bool('off_session') ?? false,
  };
  if (items) change.items = items;
  const prorationDate = p.int('proration_date');
  if (prorationDate !== undefined) change.prorationDate = prorationDate;
  const cancelAtPeriodEnd = p.bool('cancel_at_period_end');
  if (cancelAtPeriodEnd !== undefined) change.cancelAtPeriodEnd = cancelAtPeriodEnd;
  if (p.has('cancel_at')) change.cancelAt = p.string('cancel_at', { allowEmpty: true }) === '' ? null : (p.int('cancel_at') ?? null);
  const metadata = p.metadata();
  if (metadata !== undefined) change.metadata = metadata;
  if (p.has('description')) change.description = p.string('description', { allowEmpty: true }) || null;
  const method = p.string('default_payment_method');
  if (method) change.defaultPaymentMethod = must(store, 'payment_method', method, 'default_payment_method').id;
  const details = p.object('cancellation_details');
  if (details) {
    const comment = details.string('comment', { allowEmpty: true });
    const feedback = details.string('feedback', { allowEmpty: true });
    change.cancellationDetails = { ...(comment !== undefined ? { comment } : {}), ...(feedback !== undefined ? { feedback } : {}) };
  }
  p.ignore('automatic_tax', 'default_tax_rates', 'payment_settings', 'collection_method', 'days_until_due', 'discounts', 'invoice_settings', 'on_behalf_of', 'transfer_data', 'application_fee_percent', 'default_source');
  return change;
}

/** Stripe's checks before a refund: a succeeded charge with that much left to refund. */
function refundableCharge(store: StripeStore, p: Params): Charge {
  const chargeId = p.string('charge');
  const intentId = p.string('payment_intent');
  if (!chargeId && !intentId) throw invalidRequest('Must provide either `charge` or `payment_intent`.', { param: 'charge', code: 'parameter_missing' });
  if (chargeId) return must(store, 'charge', chargeId, 'charge');
  const intent = must(store, 'payment_intent', intentId ?? '', 'payment_intent');
  const charge = intent.status === 'succeeded' && intent.latest_charge ? store.get('charge', intent.latest_charge) : undefined;
  if (!charge) throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, { param: 'payment_intent', code: 'charge_not_refundable' });
  return charge;
}

export function registerBillingRoutes(api: FastifyInstance, runtime: StripeRuntime): void {
  const { store } = runtime;
  const get = (path: string, name: Parameters<typeof must>[1]) =>
    stripeRoute(api, runtime, 'GET', path, (call, request) => {
      const expand = call.params.expand();
      call.params.finish();
      return render(store, must(store, name, request.params.id ?? ''), expand);
    });

  get('/subscriptions/:id', 'subscription');
  get('/subscription_items/:id', 'subscription_item');
  get('/invoices/:id', 'invoice');
  get('/charges/:id', 'charge');
  get('/payment_intents/:id', 'payment_intent');
  get('/refunds/:id', 'refund');

  stripeRoute(api, runtime, 'GET', '/subscriptions', (call) => {
    const p = call.params;
    const customer = p.string('customer');
    const price = p.string('price');
    const status = p.oneOf('status', STATUSES);
    p.ignore('created', 'current_period_end', 'current_period_start', 'collection_method', 'test_clock', 'automatic_tax');
    const items = store.all('subscription').filter((sub) => {
      if (customer && sub.customer !== customer) return false;
      if (price && !sub.items.data.some((item) => item.price.id === price)) return false;
      if (status === 'all') return true;
      if (status === 'ended') return sub.status === 'canceled' || sub.status === 'incomplete_expired';
      return status ? sub.status === status : sub.status !== 'canceled';
    });
    return listOf(call, store, items, '/v1/subscriptions');
  });

  stripeRoute(api, runtime, 'POST', '/subscriptions/:id', (call, request) => {
    const subscription = must(store, 'subscription', request.params.id ?? '');
    const change = readChange(store, call.params);
    const expand = call.params.expand();
    call.params.finish();
    return render(store, updateSubscription(call.ctx(), subscription, change), expand);
  });

  stripeRoute(api, runtime, 'DELETE', '/subscriptions/:id', (call, request) => {
    const subscription = must(store, 'subscription', request.params.id ?? '');
    const p = call.params;
    const invoiceNow = p.bool('invoice_now') ?? false;
    const prorate = p.bool('prorate') ?? false;
    const details = p.object('cancellation_details');
    const comment = details?.string('comment');
    const feedback = details?.string('feedback');
    const expand = p.expand();
    p.finish();
    const options = { invoiceNow, prorate, ...(comment ? { comment } : {}), ...(feedback ? { feedback } : {}) };
    return render(store, cancelSubscription(call.ctx(), subscription, options), expand);
  });

  stripeRoute(api, runtime, 'GET', '/subscription_items', (call) => {
    const subscription = must(store, 'subscription', call.params.string('subscription', { required: true }) ?? '', 'subscription');
    return listOf(call, store, [...subscription.items.data], `/v1/subscription_items?subscription=${subscription.id}`);
  });

  stripeRoute(api, runtime, 'GET', '/invoices', (call) => {
    const p = call.params;
    const customer = p.string('customer');
    const subscription = p.string('subscription');
    const status = p.oneOf('status', ['draft', 'open', 'paid', 'uncollectible', 'void'] as const);
    p.ignore('created', 'due_date', 'collection_method');
    const items = store
      .all('invoice')
      .filter((inv) => (!customer || inv.customer === customer) && (!subscription || inv.subscription === subscription) && (!status || inv.status === status));
    return listOf(call, store, items, '/v1/invoices');
  });

  stripeRoute(api, runtime, 'GET', '/invoices/:id/lines', (call, request) => {
    const invoice = must(store, 'invoice', request.params.id ?? '');
    return listOf(call, store, [...invoice.lines.data], `/v1/invoices/${invoice.id}/lines`);
  });

  stripeRoute(api, runtime, 'GET', '/invoice_payments', (call) => {
    const p = call.params;
    const invoiceId = p.string('invoice');
    const items = store.all('invoice_payment').filter((payment) => !invoiceId || payment.invoice === invoiceId);
    p.ignore('payment', 'status');
    return listOf(call, store, items, '/v1/invoice_payments');
  });

  // Pays an open invoice with the subscription's card now (what a dunning email's link leads to).
  stripeRoute(api, runtime, 'POST', '/invoices/:id/pay', (call, request) => {
    const invoice = must(store, 'invoice', request.params.id ?? '');
    const p = call.params;
    const method = p.string('payment_method');
    const offSession = p.bool('off_session');
    p.ignore('forgive', 'paid_out_of_band', 'source', 'mandate');
    const expand = p.expand();
    p.finish();
    if (invoice.status === 'paid') throw invalidRequest('Invoice is already paid', { code: 'invoice_already_paid' });
    if (invoice.status !== 'open') throw invalidRequest(`You can only pay an invoice that is open (this one is ${invoice.status}).`, { code: 'invoice_not_editable' });
    const subscription = must(store, 'subscription', invoice.subscription, 'subscription');
    if (method) subscription.default_payment_method = must(store, 'payment_method', method, 'payment_method').id;
    const ctx = call.ctx();
    const before = structuredClone(subscription);
    if (!chargeInvoice(ctx, invoice, { offSession: offSession ?? true })) {
      const intent = invoice.payment_intent ? store.get('payment_intent', invoice.payment_intent) : undefined;
      const error = intent?.last_payment_error;
      throw cardError(error ? { code: error.code, message: error.message, ...(error.decline_code ? { declineCode: error.decline_code } : {}) } : DECLINES.generic, { charge: invoice.charge ?? '' });
    }
    applyPendingChange(ctx, subscription, invoice.id);
    if (subscription.status === 'past_due' && !hasUnpaidInvoice(store, subscription)) subscription.status = 'active';
    emitUpdated(ctx, subscription, before);
    return render(store, invoice, expand);
  });

  // Voids an open invoice; a pending update waiting for it is dropped with it.
  stripeRoute(api, runtime, 'POST', '/invoices/:id/void', (call, request) => {
    const invoice = must(store, 'invoice', request.params.id ?? '');
    const expand = call.params.expand();
    call.params.finish();
    if (invoice.status !== 'open') throw invalidRequest(`You can only void an open invoice (this one is ${invoice.status}).`, { code: 'invoice_not_editable' });
    const ctx = call.ctx();
    const subscription = store.get('subscription', invoice.subscription);
    if (subscription && store.extras(subscription.id).pendingChange?.invoiceId === invoice.id) {
      const before = structuredClone(subscription);
      discardPendingChange(ctx, subscription);
      emitUpdated(ctx, subscription, before);
    } else {
      voidInvoice(ctx, invoice);
    }
    return render(store, invoice, expand);
  });

  stripeRoute(api, runtime, 'GET', '/charges', (call) => {
    const p = call.params;
    const customer = p.string('customer');
    const intent = p.string('payment_intent');
    p.ignore('created', 'transfer_group');
    const items = store.all('charge').filter((ch) => (!customer || ch.customer === customer) && (!intent || ch.payment_intent === intent));
    return listOf(call, store, items, '/v1/charges');
  });

  stripeRoute(api, runtime, 'GET', '/charges/:id/refunds', (call, request) => {
    const charge = must(store, 'charge', request.params.id ?? '');
    return listOf(call, store, [...charge.refunds.data], `/v1/charges/${charge.id}/refunds`);
  });

  stripeRoute(api, runtime, 'POST', '/refunds', (call) => {
    const p = call.params;
    const charge = refundableCharge(store, p);
    const remaining = charge.amount - charge.amount_refunded;
    const amount = p.int('amount');
    if (amount !== undefined && amount <= 0) throw invalidRequest('Invalid positive integer', { param: 'amount', code: 'parameter_invalid_integer' });
    const reason = p.oneOf('reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null;
    const metadata = p.metadata() ?? {};
    p.ignore('instructions_email', 'refund_application_fee', 'reverse_transfer', 'origin');
    const expand = p.expand();
    p.finish();
    if (charge.status !== 'succeeded') throw invalidRequest(`Charge ${charge.id} has not succeeded and cannot be refunded.`, { param: 'charge', code: 'charge_not_refundable' });
    if (remaining <= 0) throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { param: 'charge', code: 'charge_already_refunded' });
    if (amount !== undefined && amount > remaining) {
      throw invalidRequest(`Refund amount (${formatMoney(amount, charge.currency)}) is greater than unrefunded amount on charge (${formatMoney(remaining, charge.currency)})`, {
        param: 'amount',
        code: 'amount_too_large',
      });
    }
    return render(store, refundCharge(call.ctx(), charge, amount ?? remaining, reason, metadata), expand);
  });

  stripeRoute(api, runtime, 'GET', '/refunds', (call) => {
    const p = call.params;
    const charge = p.string('charge');
    const intent = p.string('payment_intent');
    p.ignore('created');
    const items = store.all('refund').filter((re) => (!charge || re.charge === charge) && (!intent || re.payment_intent === intent));
    return listOf(call, store, items, '/v1/refunds');
  });
}
