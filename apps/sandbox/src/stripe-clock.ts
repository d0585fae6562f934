import { chargeInvoice, emit, markUncollectible } from './stripe-invoices.ts';
import type { BillingContext } from './stripe-invoices.ts';
import { emitUpdated, endSubscription, hasUnpaidInvoice, renewSubscription } from './stripe-subscriptions.ts';
import type { StripeStore } from './stripe-store.ts';
import { advanceSchedule, phaseEnd } from './stripe-schedules.ts';
import type { CheckoutSession, Invoice, Subscription, SubscriptionSchedule } from './stripe-types.ts';
import { applyPendingChange, discardPendingChange } from './stripe-update-subscription.ts';
import type { StripeWebhooks } from './stripe-webhooks.ts';

type Due =
  | { at: number; kind: 'phase'; schedule: SubscriptionSchedule }
  | { at: number; kind: 'pending'; subscription: Subscription }
  | { at: number; kind: 'period'; subscription: Subscription }
  | { at: number; kind: 'retry'; invoice: Invoice }
  | { at: number; kind: 'expire'; session: CheckoutSession };

const LIVE = new Set(['active', 'past_due', 'trialing', 'unpaid']);
// A jump of years still ends; a month-long period renews at most a few dozen times per call.
const MAX_STEPS = 10_000;

function nextDue(store: StripeStore, now: number): Due | null {
  let best: Due | null = null;
  const consider = (due: Due) => {
    if (due.at <= now && (!best || due.at < best.at)) best = due;
  };
  // A schedule's next phase comes before the renewal due at the same moment, so the renewal bills it.
  for (const schedule of store.all('subscription_schedule').reverse()) {
    const end = phaseEnd(schedule);
    if (end !== null) consider({ at: end, kind: 'phase', schedule });
  }
  for (const subscription of store.all('subscription').reverse()) {
    if (subscription.pending_update) consider({ at: subscription.pending_update.expires_at, kind: 'pending', subscription });
  }
  for (const subscription of store.all('subscription').reverse()) {
    if (!LIVE.has(subscription.status)) continue;
    const { cancel_at: cancelAt, current_period_end: end } = subscription;
    consider({ at: cancelAt !== null && cancelAt <= end ? cancelAt : end, kind: 'period', subscription });
  }
  for (const invoice of store.all('invoice').reverse()) {
    if (invoice.status === 'open' && invoice.attempt_count > 0 && invoice.next_payment_attempt !== null) consider({ at: invoice.next_payment_attempt, kind: 'retry', invoice });
  }
  for (const session of store.all('checkout.session').reverse()) {
    if (session.status === 'open') consider({ at: session.expires_at, kind: 'expire', session });
  }
  return best;
}

function retryInvoice(ctx: BillingContext, invoice: Invoice): void {
  const subscription = ctx.store.get('subscription', invoice.subscription);
  if (!subscription || subscription.status === 'canceled') {
    invoice.next_payment_attempt = null;
    return;
  }
  const before = structuredClone(subscription);
  if (chargeInvoice(ctx, invoice)) {
    applyPendingChange(ctx, subscription, invoice.id);
    if (subscription.status === 'past_due' && !hasUnpaidInvoice(ctx.store, subscription)) subscription.status = 'active';
  } else if (invoice.next_payment_attempt === null) {
    // Every retry failed: Stripe's default settings mark the invoice uncollectible and cancel the subscription.
    markUncollectible(ctx, invoice);
    endSubscription(ctx, subscription, 'payment_failed');
    return;
  }
  emitUpdated(ctx, subscription, before);
}

/**
 * Does, in time order, everything that fell due up to `now` on the sandbox clock: schedule phases
 * starting, pending updates expiring, period ends (renewal, or the end of a subscription set to
 * cancel), payment retries, and checkout sessions expiring. Each change is stamped with the moment it fell due, not with `now`.
 */
export function advanceStripeClock(store: StripeStore, hooks: StripeWebhooks, now: number): number {
  let steps = 0;
  for (let due = nextDue(store, now); due && steps < MAX_STEPS; due = nextDue(store, now)) {
    steps += 1;
    const ctx: BillingContext = { store, hooks, at: due.at, origin: null };
    if (due.kind === 'phase') {
      advanceSchedule(ctx, store, due.schedule);
    } else if (due.kind === 'pending') {
      // Stripe drops a pending update not paid within 23 hours (customer.subscription.pending_update_expired).
      discardPendingChange(ctx, due.subscription);
      emit(ctx, 'customer.subscription.pending_update_expired', due.subscription);
    } else if (due.kind === 'retry') {
      retryInvoice(ctx, due.invoice);
    } else if (due.kind === 'expire') {
      due.session.status = 'expired';
      due.session.url = null;
      emit(ctx, 'checkout.session.expired', due.session);
    } else {
      const { subscription } = due;
      if (subscription.cancel_at !== null && subscription.cancel_at <= subscription.current_period_end) endSubscription(ctx, subscription, 'cancellation_requested');
      else renewSubscription(ctx, subscription);
    }
  }
  return steps;
}
