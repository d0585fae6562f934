import { savedCardOutcome } from './stripe-cards.ts';
import { DECLINES } from './stripe-errors.ts';
import type { Decline } from './stripe-errors.ts';
import { randomToken } from './stripe-store.ts';
import type { LineSpec, StripeStore } from './stripe-store.ts';
import type { Charge, Invoice, InvoiceLine, Metadata, Origin, PaymentIntent, Price, Refund, Subscription } from './stripe-types.ts';
import type { StripeWebhooks } from './stripe-webhooks.ts';

const DAY = 86_400;
/** Days after each failed automatic attempt until the next one (Stripe's classic schedule); then the subscription ends. */
export const RETRY_DAYS = [3, 5, 7];

/** One state change in progress: when it happens (sandbox seconds) and which request caused it. */
export interface BillingContext {
  store: StripeStore;
  hooks: StripeWebhooks;
  at: number;
  origin: Origin;
}

export function emit(ctx: BillingContext, type: string, object: unknown, previous?: Record<string, unknown>): void {
  ctx.hooks.emit(type, object, ctx.origin, previous, ctx.at);
}

const ZERO_DECIMAL = new Set(['jpy', 'krw', 'vnd', 'clp', 'isk', 'ugx', 'xaf', 'xof']);
const SYMBOLS: Record<string, string> = { usd: '$', eur: '€', gbp: '£', cad: 'CA$', aud: 'A$' };

export function formatMoney(amount: number, currency: string): string {
  const symbol = SYMBOLS[currency] ?? `${currency.toUpperCase()} `;
  const sign = amount < 0 ? '-' : '';
  const value = ZERO_DECIMAL.has(currency) ? String(Math.abs(amount)) : (Math.abs(amount) / 100).toFixed(2);
  return `${sign}${symbol}${value}`;
}

export function formatDate(seconds: number): string {
  return new Date(seconds * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

export function intervalText(price: Price): string {
  const recurring = price.recurring;
  if (!recurring) return '';
  return recurring.interval_count === 1 ? `/ ${recurring.interval}` : `every ${recurring.interval_count} ${recurring.interval}s`;
}

/** "1 × Premium (at $2.25 / month)", as Stripe writes a subscription line. */
export function describeItem(store: StripeStore, price: Price, quantity: number): string {
  const product = store.get('product', price.product);
  return `${quantity} × ${product?.name ?? price.product} (at ${formatMoney(price.unit_amount, price.currency)} ${intervalText(price)})`;
}

export function productName(store: StripeStore, price: Price): string {
  return store.get('product', price.product)?.name ?? price.product;
}

function invoiceLine(store: StripeStore, invoiceId: string, subscriptionId: string, currency: string, spec: LineSpec): InvoiceLine {
  const price = store.get('price', spec.priceId);
  return {
    id: store.newId('il'),
    object: 'line_item',
    amount: spec.amount,
    currency,
    description: spec.description,
    discount_amounts: [],
    discountable: !spec.proration,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: spec.proration ? store.newId('ii') : null,
        proration: spec.proration,
        proration_details: { credited_items: null },
        subscription: subscriptionId,
        subscription_item: spec.itemId,
      },
    },
    period: { ...spec.period },
    pretax_credit_amounts: [],
    pricing: { price_details: { price: spec.priceId, product: spec.productId }, type: 'price_details', unit_amount_decimal: String(price?.unit_amount ?? spec.amount) },
    quantity: spec.quantity,
    subtotal: spec.amount,
    taxes: [],
  };
}

/** Makes and finalizes an invoice for a subscription; a credit (negative total) goes to the customer's balance. */
export function createInvoice(ctx: BillingContext, subscription: Subscription, specs: LineSpec[], reason: Invoice['billing_reason'], period: { start: number; end: number }): Invoice {
  const { store, at } = ctx;
  const customer = store.get('customer', subscription.customer);
  if (!customer) throw new Error(`subscription ${subscription.id} has no customer`);
  const id = store.newId('in');
  const lines = specs.map((spec) => invoiceLine(store, id, subscription.id, subscription.currency, spec));
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  const startingBalance = customer.balance;
  const afterBalance = total + startingBalance;
  const amountDue = Math.max(0, afterBalance);
  customer.balance = Math.min(0, afterBalance);
  const number = `${customer.invoice_prefix}-${String(customer.next_invoice_sequence).padStart(4, '0')}`;
  customer.next_invoice_sequence += 1;
  const invoice: Invoice = {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Sandbox',
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amountDue,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: reason,
    charge: null,
    collection_method: 'charge_automatically',
    created: at,
    currency: subscription.currency,
    customer: customer.id,
    customer_email: customer.email,
    customer_name: customer.name,
    default_payment_method: null,
    description: null,
    discounts: [],
    due_date: null,
    effective_at: at,
    ending_balance: Math.min(0, afterBalance),
    hosted_invoice_url: `${store.baseUrl()}/stripe/invoices/${id}`,
    invoice_pdf: null,
    last_finalization_error: null,
    lines: { object: 'list', data: lines, has_more: false, total_count: lines.length, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: amountDue > 0 ? at : null,
    number,
    paid: false,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id } },
    payment_intent: null,
    payments: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/invoice_payments?invoice=${id}` },
    period_end: period.end,
    period_start: period.start,
    starting_balance: startingBalance,
    status: 'open',
    status_transitions: { finalized_at: at, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subscription: subscription.id,
    subtotal: total,
    subtotal_excluding_tax: total,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_taxes: [],
    webhooks_delivered_at: at,
  };
  store.add(invoice);
  subscription.latest_invoice = invoice.id;
  emit(ctx, 'invoice.created', invoice);
  emit(ctx, 'invoice.finalized', invoice);
  return invoice;
}

function markPaid(ctx: BillingContext, invoice: Invoice): void {
  invoice.status = 'paid';
  invoice.paid = true;
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.paid_at = ctx.at;
  emit(ctx, 'invoice.paid', invoice);
  emit(ctx, 'invoice.payment_succeeded', invoice);
}

function paymentIntentFor(ctx: BillingContext, invoice: Invoice, paymentMethod: string): PaymentIntent {
  const { store, at } = ctx;
  const existing = invoice.payment_intent ? store.get('payment_intent', invoice.payment_intent) : undefined;
  if (existing) {
    existing.payment_method = paymentMethod;
    return existing;
  }
  const id = store.newId('pi');
  const intent: PaymentIntent = {
    id,
    object: 'payment_intent',
    amount: invoice.amount_due,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: `${id}_secret_${randomToken(25)}`,
    confirmation_method: 'automatic',
    created: at,
    currency: invoice.currency,
    customer: invoice.customer,
    description: invoice.billing_reason === 'subscription_create' ? 'Subscription creation' : invoice.billing_reason === 'subscription_cycle' ? 'Subscription cycle' : 'Subscription update',
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: {},
    next_action: null,
    on_behalf_of: null,
    payment_method: paymentMethod,
    payment_method_types: ['card'],
    processing: null,
    receipt_email: null,
    setup_future_usage: 'off_session',
    status: 'requires_payment_method',
  };
  store.add(intent);
  invoice.payment_intent = id;
  const payment = store.add({
    id: store.newId('inpay'),
    object: 'invoice_payment' as const,
    amount_paid: null,
    amount_requested: invoice.amount_due,
    created: at,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false as const,
    payment: { type: 'payment_intent' as const, payment_intent: id },
    status: 'open' as const,
    status_transitions: { canceled_at: null, paid_at: null },
  });
  invoice.payments.data.push(payment);
  invoice.payments.total_count = invoice.payments.data.length;
  return intent;
}

function makeCharge(ctx: BillingContext, intent: PaymentIntent, decline: Decline | null): Charge {
  const { store, at } = ctx;
  const method = store.get('payment_method', intent.payment_method);
  if (!method) throw new Error(`unknown payment method ${intent.payment_method}`);
  const id = store.newId('ch');
  return store.add({
    id,
    object: 'charge',
    amount: intent.amount,
    amount_captured: decline ? 0 : intent.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: decline ? null : store.newId('txn'),
    billing_details: { ...method.billing_details },
    calculated_statement_descriptor: 'SANDBOX',
    captured: !decline,
    created: at,
    currency: intent.currency,
    customer: intent.customer,
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: decline?.code ?? null,
    failure_message: decline?.message ?? null,
    fraud_details: {},
    livemode: false,
    metadata: {},
    on_behalf_of: null,
    outcome: decline
      ? { network_status: 'declined_by_network', reason: decline.declineCode ?? decline.code, risk_level: 'normal', risk_score: 20, seller_message: 'The bank did not return any further details with this decline.', type: 'issuer_declined' }
      : { network_status: 'approved_by_network', reason: null, risk_level: 'normal', risk_score: 20, seller_message: 'Payment complete.', type: 'authorized' },
    paid: !decline,
    payment_intent: intent.id,
    payment_method: method.id,
    payment_method_details: { card: { ...method.card, checks: { ...method.card.checks } }, type: 'card' },
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    refunds: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/charges/${id}/refunds` },
    review: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: decline ? 'failed' : 'succeeded',
    transfer_data: null,
    transfer_group: null,
  } satisfies Charge);
}

/**
 * Charges an open invoice with the subscription's card. On a hosted page the buyer has just typed
 * and confirmed the card (`onSession`); otherwise the saved card is charged, off-session unless
 * `offSession: false` (a subscription update's default), and the fail-next-renewal lever applies.
 */
export function chargeInvoice(ctx: BillingContext, invoice: Invoice, options: { onSession?: boolean; offSession?: boolean } = {}): boolean {
  const { store } = ctx;
  if (invoice.amount_due === 0) {
    markPaid(ctx, invoice);
    return true;
  }
  const subscription = store.get('subscription', invoice.subscription);
  const customer = store.get('customer', invoice.customer);
  const methodId = subscription?.default_payment_method ?? customer?.invoice_settings.default_payment_method ?? null;
  if (!methodId) throw new Error(`invoice ${invoice.id} has no payment method to charge`);
  const extras = store.extras(invoice.subscription);
  let decline: Decline | null = null;
  let requiresAction = false;
  if (extras.failuresPending > 0) {
    extras.failuresPending -= 1;
    decline = DECLINES.generic;
  } else if (!options.onSession) {
    const outcome = savedCardOutcome(store.cardNumbers.get(methodId) ?? '', options.offSession ?? true);
    if (outcome.kind === 'decline') decline = outcome.decline;
    if (outcome.kind === 'authenticate') {
      decline = DECLINES.authenticationRequired;
      requiresAction = true;
    }
  }
  const intent = paymentIntentFor(ctx, invoice, methodId);
  const charge = makeCharge(ctx, intent, decline);
  intent.latest_charge = charge.id;
  invoice.charge = charge.id;
  invoice.attempt_count += 1;
  invoice.attempted = true;
  const payment = invoice.payments.data.find((p) => p.payment.payment_intent === intent.id);
  if (!decline) {
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
    if (payment) {
      payment.status = 'paid';
      payment.amount_paid = intent.amount;
      payment.status_transitions.paid_at = ctx.at;
    }
    emit(ctx, 'charge.succeeded', charge);
    emit(ctx, 'payment_intent.succeeded', intent);
    markPaid(ctx, invoice);
    return true;
  }
  const method = store.get('payment_method', methodId);
  // A card that asks for authentication waits for the buyer (the hosted invoice page), not for a new card.
  intent.status = requiresAction ? 'requires_action' : 'requires_payment_method';
  intent.last_payment_error = {
    charge: charge.id,
    code: decline.code,
    ...(decline.declineCode ? { decline_code: decline.declineCode } : {}),
    doc_url: `https://stripe.com/docs/error-codes/${decline.code.replace(/_/g, '-')}`,
    message: decline.message,
    payment_method: structuredClone(method as NonNullable<typeof method>),
    type: 'card_error',
  };
  const delay = RETRY_DAYS[invoice.attempt_count - 1];
  invoice.next_payment_attempt = delay === undefined ? null : ctx.at + delay * DAY;
  emit(ctx, 'charge.failed', charge);
  emit(ctx, 'payment_intent.payment_failed', intent);
  emit(ctx, 'invoice.payment_failed', invoice);
  return false;
}

export function markUncollectible(ctx: BillingContext, invoice: Invoice): void {
  invoice.status = 'uncollectible';
  invoice.next_payment_attempt = null;
  invoice.status_transitions.marked_uncollectible_at = ctx.at;
  emit(ctx, 'invoice.marked_uncollectible', invoice);
}

/** Refunds part or all of a charge (the caller has checked the amount), and says so with charge.refunded. */
export function refundCharge(
  ctx: BillingContext,
  charge: Charge,
  amount: number,
  reason: Refund['reason'],
  metadata: Metadata,
): Refund {
  const { store, at } = ctx;
  const refund: Refund = {
    id: store.newId('re'),
    object: 'refund',
    amount,
    balance_transaction: store.newId('txn'),
    charge: charge.id,
    created: at,
    currency: charge.currency,
    destination_details: { card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' }, type: 'card' },
    metadata,
    payment_intent: charge.payment_intent,
    reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
  store.add(refund);
  const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded, refunds: structuredClone(charge.refunds) };
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded >= charge.amount;
  charge.refunds.data.unshift(refund);
  charge.refunds.total_count = charge.refunds.data.length;
  emit(ctx, 'charge.refunded', charge, previous);
  emit(ctx, 'refund.created', refund);
  return refund;
}

/** Voids an open invoice: it can no longer be paid, and its payment stops being retried. */
export function voidInvoice(ctx: BillingContext, invoice: Invoice): void {
  invoice.status = 'void';
  invoice.next_payment_attempt = null;
  invoice.status_transitions.voided_at = ctx.at;
  const intent = invoice.payment_intent ? ctx.store.get('payment_intent', invoice.payment_intent) : undefined;
  if (intent && intent.status !== 'succeeded') intent.status = 'canceled';
  emit(ctx, 'invoice.voided', invoice);
}
