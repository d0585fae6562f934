import { cardOutcome } from './stripe-cards.ts';
import { DECLINES, cardError, invalidRequest, missingParam, noSuch } from './stripe-errors.ts';
import type { Decline } from './stripe-errors.ts';
import { chargeInvoice, createInvoice } from './stripe-invoices.ts';
import type { BillingContext } from './stripe-invoices.ts';
import { mergeMetadata } from './stripe-params.ts';
import { periodBoundary } from './stripe-store.ts';
import type { LineSpec, StripeStore } from './stripe-store.ts';
import { emitUpdated, fullLine, makeItem, planOf, prorationLine, setPeriod } from './stripe-subscriptions.ts';
import type { Price, Subscription, SubscriptionItem } from './stripe-types.ts';

export type ProrationBehavior = 'create_prorations' | 'always_invoice' | 'none';
export type PaymentBehavior = 'allow_incomplete' | 'error_if_incomplete' | 'default_incomplete' | 'pending_if_incomplete';

export interface ItemChange {
  /** The parameter it came from, e.g. `items[0]`, for error messages. */
  param: string;
  id?: string;
  price?: Price;
  quantity?: number;
  deleted?: boolean;
}

export interface SubscriptionChange {
  items?: ItemChange[];
  prorationBehavior: ProrationBehavior;
  prorationDate?: number;
  cancelAtPeriodEnd?: boolean;
  /** A unix time, or null to clear it. */
  cancelAt?: number | null;
  metadata?: Record<string, string> | null;
  description?: string | null;
  billingCycleAnchorNow: boolean;
  paymentBehavior: PaymentBehavior;
  defaultPaymentMethod?: string;
  cancellationDetails?: { comment?: string; feedback?: string };
}

function predictDecline(store: StripeStore, subscription: Subscription): Decline | null {
  if (store.extras(subscription.id).failuresPending > 0) return DECLINES.generic;
  const outcome = cardOutcome(store.cardNumbers.get(subscription.default_payment_method ?? '') ?? '', false);
  return outcome.kind === 'decline' ? outcome.decline : null;
}

interface PlannedItem {
  existing: SubscriptionItem | null;
  price: Price;
  quantity: number;
  removed: boolean;
}

function planItems(subscription: Subscription, changes: ItemChange[]): PlannedItem[] {
  const plan: PlannedItem[] = subscription.items.data.map((item) => ({ existing: item, price: item.price, quantity: item.quantity, removed: false }));
  for (const change of changes) {
    if (change.id) {
      const target = plan.find((p) => p.existing?.id === change.id);
      if (!target) throw noSuch('subscription item', change.id, `${change.param}[id]`);
      if (change.deleted) target.removed = true;
      if (change.price) target.price = change.price;
      if (change.quantity !== undefined) target.quantity = change.quantity;
      continue;
    }
    if (!change.price) throw missingParam(`${change.param}[price]`);
    if (plan.some((p) => !p.removed && p.price.id === change.price?.id)) {
      throw invalidRequest(`Cannot add multiple subscription items with the same plan: ${change.price.id}`, { param: `${change.param}[price]` });
    }
    plan.push({ existing: null, price: change.price, quantity: change.quantity ?? 1, removed: false });
  }
  const kept = plan.filter((p) => !p.removed);
  if (kept.length === 0) throw invalidRequest('A subscription must have at least one active plan. To cancel a subscription, please use the cancel API endpoint on /v1/subscriptions.', { param: 'items' });
  const first = kept[0]?.price.recurring;
  for (const p of kept) {
    if (p.price.currency !== subscription.currency) throw invalidRequest(`The price specified (${p.price.id}) has a currency that does not match the subscription's currency (${subscription.currency}).`, { param: 'items' });
    if (p.price.recurring?.interval !== first?.interval || p.price.recurring?.interval_count !== first?.interval_count) {
      throw invalidRequest('Currency and interval fields must match across all plans on this subscription. Found mismatch in interval field.', { param: 'items' });
    }
  }
  return plan;
}

/** POST /v1/subscriptions/:id, Stripe's way: prorations, a new cycle when the interval changes, cancel at period end. */
export function updateSubscription(ctx: BillingContext, subscription: Subscription, change: SubscriptionChange): Subscription {
  const { store, at } = ctx;
  const onlyMetadata = !change.items && change.cancelAtPeriodEnd === undefined && change.cancelAt === undefined && !change.billingCycleAnchorNow && change.defaultPaymentMethod === undefined && change.description === undefined;
  if ((subscription.status === 'canceled' || subscription.status === 'incomplete_expired') && !onlyMetadata) {
    throw invalidRequest('A canceled subscription can only update its cancellation_details and metadata.');
  }
  const before = structuredClone(subscription);
  const extras = store.extras(subscription.id);
  const plan = change.items ? planItems(subscription, change.items) : subscription.items.data.map((item) => ({ existing: item, price: item.price, quantity: item.quantity, removed: false }));
  const kept = plan.filter((p) => !p.removed);
  const oldRecurring = subscription.items.data[0]?.price.recurring;
  const newRecurring = kept[0]?.price.recurring;
  const intervalChanged = !!newRecurring && (oldRecurring?.interval !== newRecurring.interval || oldRecurring.interval_count !== newRecurring.interval_count);
  const resetCycle = subscription.status !== 'canceled' && (intervalChanged || change.billingCycleAnchorNow);
  const { current_period_start: start, current_period_end: end } = subscription;
  const changed = plan.filter((p) => !p.existing || p.removed || p.price.id !== p.existing.price.id || p.quantity !== p.existing.quantity);
  const from = Math.min(Math.max(change.prorationDate ?? at, start), end);
  const fraction = end > start ? (end - from) / (end - start) : 0;
  const prorate = change.prorationBehavior !== 'none' && from < end;

  let lines: LineSpec[] = [];
  let newEnd = end;
  let invoiceNow = false;
  if (resetCycle && newRecurring) {
    newEnd = periodBoundary(at, newRecurring.interval, newRecurring.interval_count, 1);
    if (prorate) for (const p of plan) if (p.existing) lines.push(prorationLine(store, 'unused', p.existing, fraction, from, end));
    invoiceNow = true;
  } else if (changed.length > 0 && prorate) {
    for (const p of changed) {
      if (p.existing) lines.push(prorationLine(store, 'unused', p.existing, fraction, from, end));
      if (!p.removed) lines.push(prorationLine(store, 'remaining', { id: p.existing?.id ?? 'pending', price: p.price, quantity: p.quantity }, fraction, from, end));
    }
    invoiceNow = change.prorationBehavior === 'always_invoice';
  }
  if (invoiceNow && change.paymentBehavior === 'error_if_incomplete') {
    const due = lines.reduce((sum, l) => sum + l.amount, 0) + (resetCycle ? kept.reduce((sum, p) => sum + p.price.unit_amount * p.quantity, 0) : 0);
    const decline = due > 0 ? predictDecline(store, subscription) : null;
    if (decline) {
      if (extras.failuresPending > 0) extras.failuresPending -= 1;
      throw cardError(decline);
    }
  }

  // Apply the new items; an item keeps its id when only its price or quantity changes.
  for (const p of plan) {
    if (p.existing && p.removed) {
      subscription.items.data = subscription.items.data.filter((item) => item !== p.existing);
      store.remove(p.existing.id);
    } else if (p.existing) {
      p.existing.price = p.price;
      p.existing.plan = planOf(p.price);
      p.existing.quantity = p.quantity;
    } else {
      const item = makeItem(store, subscription, p.price, p.quantity, at);
      subscription.items.data.push(item);
      for (const line of lines) if (line.itemId === 'pending' && line.priceId === p.price.id) line.itemId = item.id;
    }
  }
  subscription.items.total_count = subscription.items.data.length;
  if (resetCycle) {
    setPeriod(subscription, at, newEnd);
    subscription.billing_cycle_anchor = at;
    const period = { start: at, end: newEnd };
    lines.push(...subscription.items.data.map((item) => fullLine(store, item, period)));
  }
  if (invoiceNow) {
    lines = [...extras.pending, ...lines];
    extras.pending = [];
  } else {
    extras.pending.push(...lines);
  }

  if (change.cancelAtPeriodEnd !== undefined) {
    subscription.cancel_at_period_end = change.cancelAtPeriodEnd;
    subscription.cancel_at = change.cancelAtPeriodEnd ? subscription.current_period_end : null;
    subscription.canceled_at = change.cancelAtPeriodEnd ? at : null;
    subscription.cancellation_details = { comment: null, feedback: null, reason: change.cancelAtPeriodEnd ? 'cancellation_requested' : null };
  } else if (subscription.cancel_at_period_end && resetCycle) {
    subscription.cancel_at = subscription.current_period_end;
  }
  if (change.cancelAt !== undefined) {
    subscription.cancel_at = change.cancelAt;
    subscription.cancel_at_period_end = change.cancelAt !== null && change.cancelAt === subscription.current_period_end;
    subscription.canceled_at = change.cancelAt === null ? null : at;
    subscription.cancellation_details.reason = change.cancelAt === null ? null : 'cancellation_requested';
  }
  if (change.cancellationDetails) {
    if (change.cancellationDetails.comment !== undefined) subscription.cancellation_details.comment = change.cancellationDetails.comment || null;
    if (change.cancellationDetails.feedback !== undefined) subscription.cancellation_details.feedback = change.cancellationDetails.feedback || null;
  }
  subscription.metadata = mergeMetadata(subscription.metadata, change.metadata);
  if (change.description !== undefined) subscription.description = change.description;
  if (change.defaultPaymentMethod !== undefined) subscription.default_payment_method = change.defaultPaymentMethod;

  if (invoiceNow) {
    const invoice = createInvoice(ctx, subscription, lines, 'subscription_update', { start: at, end: at });
    if (!chargeInvoice(ctx, invoice)) subscription.status = 'past_due';
  }
  emitUpdated(ctx, subscription, before);
  return subscription;
}
