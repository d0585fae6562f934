import { savedCardOutcome } from './stripe-cards.ts';
import { DECLINES, cardError, invalidRequest, missingParam, noSuch } from './stripe-errors.ts';
import type { Decline } from './stripe-errors.ts';
import { chargeInvoice, createInvoice, voidInvoice } from './stripe-invoices.ts';
import type { BillingContext } from './stripe-invoices.ts';
import { mergeMetadata } from './stripe-params.ts';
import { periodBoundary } from './stripe-store.ts';
import type { LineSpec, StripeStore } from './stripe-store.ts';
import { emitUpdated, fullLine, itemOf, makeItem, planOf, prorationLine, setPeriod } from './stripe-subscriptions.ts';
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
  /** Whether the buyer is away while the update's invoice is paid; Stripe's default is false (present). */
  offSession: boolean;
  defaultPaymentMethod?: string;
  cancellationDetails?: { comment?: string; feedback?: string };
}

function predictDecline(store: StripeStore, subscription: Subscription, offSession: boolean): Decline | null {
  if (store.extras(subscription.id).failuresPending > 0) return DECLINES.generic;
  const outcome = savedCardOutcome(store.cardNumbers.get(subscription.default_payment_method ?? '') ?? '', offSession);
  if (outcome.kind === 'authenticate') return DECLINES.authenticationRequired;
  return outcome.kind === 'decline' ? outcome.decline : null;
}

export interface PlannedItem {
  existing: SubscriptionItem | null;
  price: Price;
  quantity: number;
  removed: boolean;
}

/** Puts the planned items on the subscription; an item keeps its id when only its price or quantity changes. */
export function applyItems(store: StripeStore, subscription: Subscription, plan: PlannedItem[], at: number, lines: LineSpec[] = []): void {
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
}

/** Parameters a pending update takes (Stripe's list, with metadata since 2026-05-27.dahlia); anything else is refused with it. */
function assertPendingParams(change: SubscriptionChange): void {
  const refused = [
    change.cancelAtPeriodEnd !== undefined && 'cancel_at_period_end',
    change.cancelAt !== undefined && 'cancel_at',
    change.description !== undefined && 'description',
    change.defaultPaymentMethod !== undefined && 'default_payment_method',
    change.cancellationDetails !== undefined && 'cancellation_details',
  ].filter((name): name is string => typeof name === 'string');
  if (refused.length > 0) {
    throw invalidRequest(
      `When payment_behavior=pending_if_incomplete, only these parameters may be passed: expand, payment_behavior, proration_behavior, proration_date, billing_cycle_anchor, items, metadata, off_session, trial_end, trial_from_plan, add_invoice_items. Received: ${refused.join(', ')}.`,
      { param: refused[0] },
    );
  }
}

/** Pending updates are dropped if their invoice is not paid within 23 hours. */
export const PENDING_UPDATE_TTL_S = 23 * 3600;

/**
 * payment_behavior=pending_if_incomplete when the payment cannot be taken now: the invoice is made
 * and attempted, the subscription stays as it was (and active), and `pending_update` says what
 * will change once `latest_invoice` is paid (on the hosted invoice page, by POST /v1/invoices/:id/pay,
 * or a retry).
 */
function makePendingUpdate(ctx: BillingContext, subscription: Subscription, before: Subscription, plan: PlannedItem[], specs: LineSpec[], options: { resetCycle: boolean; metadata: SubscriptionChange['metadata']; offSession: boolean }): Subscription {
  const { store, at } = ctx;
  const extras = store.extras(subscription.id);
  if (extras.pendingChange) discardPendingChange(ctx, subscription);
  let lines = [...specs];
  const kept = plan.filter((p) => !p.removed);
  if (options.resetCycle) {
    const recurring = kept[0]?.price.recurring;
    const period = { start: at, end: recurring ? periodBoundary(at, recurring.interval, recurring.interval_count, 1) : at };
    lines.push(...kept.map((p) => fullLine(store, { id: p.existing?.id ?? 'pending', price: p.price, quantity: p.quantity }, period)));
  }
  lines = [...extras.pending, ...lines];
  extras.pending = [];
  const invoice = createInvoice(ctx, subscription, lines, 'subscription_update', { start: at, end: at });
  const paidNow = chargeInvoice(ctx, invoice, { offSession: options.offSession });
  extras.pendingChange = {
    invoiceId: invoice.id,
    items: kept.map((p) => ({ itemId: p.existing?.id ?? null, price: p.price, quantity: p.quantity, removed: false })).concat(
      plan.filter((p) => p.removed && p.existing).map((p) => ({ itemId: p.existing?.id ?? null, price: p.price, quantity: p.quantity, removed: true })),
    ),
    metadata: options.metadata,
    resetCycle: options.resetCycle,
  };
  subscription.pending_update = {
    billing_cycle_anchor: options.resetCycle ? at : null,
    cancel_at_period_end: null,
    discount: null,
    discounts: null,
    expires_at: at + PENDING_UPDATE_TTL_S,
    metadata: options.metadata ?? null,
    subscription_items: kept.map((p) => ({ ...structuredClone(p.existing ?? itemOf('si_pending', subscription, p.price, p.quantity, at)), price: p.price, plan: planOf(p.price), quantity: p.quantity })),
    trial_end: null,
    trial_from_plan: null,
  };
  // The prediction said it would fail; if it paid after all, apply it now as Stripe would.
  if (paidNow) applyPendingChange(ctx, subscription, invoice.id);
  emitUpdated(ctx, subscription, before);
  return subscription;
}


/**
 * The invoice of a pending update was paid: its items and metadata become the subscription's.
 * The caller emits customer.subscription.updated (it compares with the state before the payment).
 */
export function applyPendingChange(ctx: BillingContext, subscription: Subscription, invoiceId: string): boolean {
  const { store, at } = ctx;
  const extras = store.extras(subscription.id);
  const change = extras.pendingChange;
  if (!change || change.invoiceId !== invoiceId) return false;
  const plan: PlannedItem[] = change.items.map((c) => ({
    existing: c.itemId ? (subscription.items.data.find((item) => item.id === c.itemId) ?? null) : null,
    price: c.price,
    quantity: c.quantity,
    removed: c.removed,
  }));
  applyItems(store, subscription, plan, at);
  if (change.resetCycle) {
    const recurring = subscription.items.data[0]?.price.recurring;
    if (recurring) {
      setPeriod(subscription, at, periodBoundary(at, recurring.interval, recurring.interval_count, 1));
      subscription.billing_cycle_anchor = at;
    }
  }
  subscription.metadata = mergeMetadata(subscription.metadata, change.metadata);
  subscription.pending_update = null;
  extras.pendingChange = null;
  return true;
}

/** Drops a pending update (it expired, or another update replaced it); its invoice is voided so it cannot be paid for nothing. */
export function discardPendingChange(ctx: BillingContext, subscription: Subscription): void {
  const extras = ctx.store.extras(subscription.id);
  const change = extras.pendingChange;
  extras.pendingChange = null;
  subscription.pending_update = null;
  const invoice = change ? ctx.store.get('invoice', change.invoiceId) : undefined;
  if (invoice?.status === 'open') voidInvoice(ctx, invoice);
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
  if (subscription.schedule && (change.cancelAtPeriodEnd !== undefined || change.cancelAt !== undefined)) {
    throw invalidRequest(
      `The subscription is managed by the subscription schedule \`${subscription.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
    );
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
  if (change.paymentBehavior === 'pending_if_incomplete') assertPendingParams(change);
  const due = lines.reduce((sum, l) => sum + l.amount, 0) + (resetCycle ? kept.reduce((sum, p) => sum + p.price.unit_amount * p.quantity, 0) : 0);
  if (invoiceNow && change.paymentBehavior === 'error_if_incomplete') {
    const decline = due > 0 ? predictDecline(store, subscription, change.offSession) : null;
    if (decline) {
      if (extras.failuresPending > 0) extras.failuresPending -= 1;
      throw cardError(decline);
    }
  }
  if (invoiceNow && change.paymentBehavior === 'pending_if_incomplete' && due > 0 && predictDecline(store, subscription, change.offSession)) {
    return makePendingUpdate(ctx, subscription, before, plan, lines, { resetCycle, metadata: change.metadata, offSession: change.offSession });
  }
  // An update that goes through replaces one still waiting for its payment.
  if (extras.pendingChange && change.items) discardPendingChange(ctx, subscription);

  applyItems(store, subscription, plan, at, lines);
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
    if (!chargeInvoice(ctx, invoice, { offSession: change.offSession })) subscription.status = 'past_due';
  }
  emitUpdated(ctx, subscription, before);
  return subscription;
}
