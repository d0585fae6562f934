import { createPaymentMethod } from './stripe-cards.ts';
import { invalidRequest } from './stripe-errors.ts';
import { chargeInvoice, createInvoice, describeItem, emit, formatDate, productName } from './stripe-invoices.ts';
import type { BillingContext } from './stripe-invoices.ts';
import { periodBoundary, randomToken } from './stripe-store.ts';
import type { CardInput, LineSpec, StripeStore } from './stripe-store.ts';
import type { CheckoutSession, Customer, Metadata, Price, Subscription, SubscriptionItem } from './stripe-types.ts';

/** The legacy `plan` an item still carries, made from its price. */
export function planOf(price: Price): Record<string, unknown> {
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? 'month',
    interval_count: price.recurring?.interval_count ?? 1,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

/** A subscription item of `price` with its id; `makeItem` keeps it in the store. */
export function itemOf(id: string, subscription: Subscription, price: Price, quantity: number, at: number): SubscriptionItem {
  return {
    id,
    object: 'subscription_item',
    billing_thresholds: null,
    created: at,
    current_period_end: subscription.current_period_end,
    current_period_start: subscription.current_period_start,
    discounts: [],
    metadata: {},
    plan: planOf(price),
    // The same object as in the store, so the item shows the price as it is now.
    price,
    quantity,
    subscription: subscription.id,
    tax_rates: [],
  };
}

export function makeItem(store: StripeStore, subscription: Subscription, price: Price, quantity: number, at: number): SubscriptionItem {
  return store.add(itemOf(store.newId('si'), subscription, price, quantity, at));
}

export function setPeriod(subscription: Subscription, start: number, end: number): void {
  subscription.current_period_start = start;
  subscription.current_period_end = end;
  for (const item of subscription.items.data) {
    item.current_period_start = start;
    item.current_period_end = end;
  }
}

/** Top-level fields whose value changed, with their old values: an event's `previous_attributes`. */
export function changedFields(before: object, after: object): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  const old = before as Record<string, unknown>;
  for (const [key, value] of Object.entries(after)) {
    if (JSON.stringify(value) !== JSON.stringify(old[key])) previous[key] = old[key];
  }
  return previous;
}

export function emitUpdated(ctx: BillingContext, subscription: Subscription, before: Subscription): void {
  const previous = changedFields(before, subscription);
  if (Object.keys(previous).length > 0) emit(ctx, 'customer.subscription.updated', subscription, previous);
}

export function fullLine(store: StripeStore, item: { id: string; price: Price; quantity: number }, period: { start: number; end: number }): LineSpec {
  return {
    amount: item.price.unit_amount * item.quantity,
    description: describeItem(store, item.price, item.quantity),
    priceId: item.price.id,
    productId: item.price.product,
    quantity: item.quantity,
    itemId: item.id,
    proration: false,
    period,
  };
}

export function prorationLine(store: StripeStore, kind: 'unused' | 'remaining', item: { id: string; price: Price; quantity: number }, fraction: number, from: number, end: number): LineSpec {
  const amount = Math.round(item.price.unit_amount * item.quantity * fraction);
  const words = kind === 'unused' ? 'Unused time on' : 'Remaining time on';
  return {
    amount: kind === 'unused' ? -amount : amount,
    description: `${words} ${item.quantity} × ${productName(store, item.price)} after ${formatDate(from)}`,
    priceId: item.price.id,
    productId: item.price.product,
    quantity: item.quantity,
    itemId: item.id,
    proration: true,
    period: { start: from, end },
  };
}

export function createSubscription(
  ctx: BillingContext,
  customer: Customer,
  items: { price: Price; quantity: number }[],
  options: { metadata: Metadata; description: string | null; paymentMethod: string },
): Subscription {
  const { store, at } = ctx;
  const first = items[0];
  if (!first?.price.recurring) throw new Error('a subscription needs a recurring price');
  const { interval, interval_count: count } = first.price.recurring;
  const subscription: Subscription = {
    id: store.newId('sub'),
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: at,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: 'charge_automatically',
    created: at,
    currency: first.price.currency,
    current_period_end: periodBoundary(at, interval, count, 1),
    current_period_start: at,
    customer: customer.id,
    days_until_due: null,
    default_payment_method: options.paymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: options.description,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: { object: 'list', data: [], has_more: false, total_count: 0, url: '' },
    latest_invoice: null,
    livemode: false,
    metadata: { ...options.metadata },
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: at,
    status: 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: null,
  };
  subscription.items.url = `/v1/subscription_items?subscription=${subscription.id}`;
  store.add(subscription);
  for (const { price, quantity } of items) subscription.items.data.push(makeItem(store, subscription, price, quantity, at));
  subscription.items.total_count = subscription.items.data.length;
  const period = { start: subscription.current_period_start, end: subscription.current_period_end };
  const invoice = createInvoice(ctx, subscription, subscription.items.data.map((item) => fullLine(store, item, period)), 'subscription_create', { start: at, end: at });
  emit(ctx, 'customer.subscription.created', subscription);
  chargeInvoice(ctx, invoice, { onSession: true });
  return subscription;
}

export function createCustomer(ctx: BillingContext, fields: { email: string | null; name: string | null; description?: string | null; phone?: string | null; metadata?: Metadata }): Customer {
  const { store, at } = ctx;
  const customer = store.add({
    id: store.newId('cus'),
    object: 'customer',
    address: null,
    balance: 0,
    created: at,
    currency: null,
    default_source: null,
    delinquent: false,
    description: fields.description ?? null,
    discount: null,
    email: fields.email,
    invoice_prefix: randomToken(8).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: fields.metadata ?? {},
    name: fields.name,
    next_invoice_sequence: 1,
    phone: fields.phone ?? null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  } satisfies Customer);
  emit(ctx, 'customer.created', customer);
  return customer;
}

/** The buyer paid on the hosted page: customer, card, subscription, first invoice, then the session completes. */
export function completeCheckout(ctx: BillingContext, session: CheckoutSession, card: CardInput, email: string): Subscription {
  const { store } = ctx;
  const extras = store.sessionExtras.get(session.id);
  if (!extras) throw new Error(`no line items for ${session.id}`);
  const customer = (session.customer ? store.get('customer', session.customer) : undefined) ?? createCustomer(ctx, { email, name: card.name });
  if (!customer.currency) customer.currency = session.currency;
  const method = createPaymentMethod(store, card, customer.id, email, ctx.at);
  const subscription = createSubscription(
    ctx,
    customer,
    extras.lineItems.map((line) => ({ price: line.price, quantity: line.quantity })),
    { metadata: extras.subscriptionMetadata, description: extras.subscriptionDescription, paymentMethod: method.id },
  );
  session.status = 'complete';
  session.payment_status = 'paid';
  session.customer = customer.id;
  session.customer_details = { address: null, email: customer.email ?? email, name: card.name, phone: null, tax_exempt: 'none', tax_ids: [] };
  session.subscription = subscription.id;
  session.invoice = subscription.latest_invoice;
  session.url = null;
  extras.awaitingAuthentication = null;
  emit(ctx, 'checkout.session.completed', session);
  return subscription;
}

export function endSubscription(ctx: BillingContext, subscription: Subscription, reason: 'cancellation_requested' | 'payment_failed'): void {
  // A schedule managing the subscription ends with it.
  const schedule = subscription.schedule ? ctx.store.get('subscription_schedule', subscription.schedule) : undefined;
  if (schedule && (schedule.status === 'active' || schedule.status === 'not_started')) {
    schedule.status = 'canceled';
    schedule.canceled_at = ctx.at;
    schedule.current_phase = null;
    emit(ctx, 'subscription_schedule.canceled', schedule);
  }
  subscription.status = 'canceled';
  subscription.ended_at = ctx.at;
  subscription.canceled_at ??= ctx.at;
  subscription.cancellation_details.reason ??= reason;
  if (reason === 'payment_failed') subscription.cancellation_details.reason = reason;
  emit(ctx, 'customer.subscription.deleted', subscription);
}

/** DELETE /v1/subscriptions/:id: ends it now; `prorate` credits the unused time, `invoice_now` bills what is pending. */
export function cancelSubscription(ctx: BillingContext, subscription: Subscription, options: { invoiceNow: boolean; prorate: boolean; comment?: string; feedback?: string }): Subscription {
  const { store, at } = ctx;
  if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
    throw invalidRequest(`This subscription has already been canceled: ${subscription.id}`, { param: 'id' });
  }
  const extras = store.extras(subscription.id);
  const { current_period_start: start, current_period_end: end } = subscription;
  if (options.prorate && at < end && end > start) {
    const fraction = (end - at) / (end - start);
    for (const item of subscription.items.data) extras.pending.push(prorationLine(store, 'unused', item, fraction, at, end));
  }
  if (options.invoiceNow && extras.pending.length > 0) {
    const invoice = createInvoice(ctx, subscription, extras.pending, 'subscription_update', { start: at, end: at });
    extras.pending = [];
    chargeInvoice(ctx, invoice);
  } else if (extras.pending.length > 0) {
    const credit = extras.pending.reduce((sum, line) => sum + line.amount, 0);
    const customer = store.get('customer', subscription.customer);
    if (customer && credit < 0) customer.balance += credit;
    extras.pending = [];
  }
  subscription.cancel_at_period_end = false;
  subscription.canceled_at = at;
  subscription.cancellation_details = { comment: options.comment ?? null, feedback: options.feedback ?? null, reason: 'cancellation_requested' };
  endSubscription(ctx, subscription, 'cancellation_requested');
  return subscription;
}

/** The next cycle of a subscription whose period ended: a new period, its invoice, and the payment. */
export function renewSubscription(ctx: BillingContext, subscription: Subscription): void {
  const { store } = ctx;
  const before = structuredClone(subscription);
  const recurring = subscription.items.data[0]?.price.recurring;
  if (!recurring) return;
  const oldStart = subscription.current_period_start;
  const start = subscription.current_period_end;
  let n = 1;
  let newEnd = periodBoundary(subscription.billing_cycle_anchor, recurring.interval, recurring.interval_count, n);
  while (newEnd <= start) {
    n += 1;
    newEnd = periodBoundary(subscription.billing_cycle_anchor, recurring.interval, recurring.interval_count, n);
  }
  setPeriod(subscription, start, newEnd);
  if (subscription.cancel_at_period_end) subscription.cancel_at = newEnd;
  const extras = store.extras(subscription.id);
  const period = { start, end: newEnd };
  const lines = [...extras.pending, ...subscription.items.data.map((item) => fullLine(store, item, period))];
  extras.pending = [];
  const invoice = createInvoice(ctx, subscription, lines, 'subscription_cycle', { start: oldStart, end: start });
  if (!chargeInvoice(ctx, invoice)) subscription.status = 'past_due';
  else if (subscription.status === 'past_due' && !hasUnpaidInvoice(store, subscription)) subscription.status = 'active';
  emitUpdated(ctx, subscription, before);
}

export function hasUnpaidInvoice(store: StripeStore, subscription: Subscription): boolean {
  return store.all('invoice').some((invoice) => invoice.subscription === subscription.id && invoice.status === 'open' && invoice.amount_remaining > 0);
}
