import type { Approval, BillingCycle, CycleExecution, Payer, Plan, Refund, Sale, Subscription } from './paypal-store.ts';
import { newId, toCents } from './paypal-store.ts';
import { statusInvalid, unprocessable } from './paypal-errors.ts';
import type { PaypalWorld } from './paypal-events.ts';
import { emitCaptureRefunded, emitSaleCompleted, emitSaleRefunded, emitSubscriptionEvent } from './paypal-events.ts';
import { planCurrency, refundedCents } from './paypal-serializers.ts';

const DAY_MS = 86_400_000;
/** PayPal tries an unpaid cycle again five days later while the failure threshold is not reached. */
const RETRY_AFTER_MS = 5 * DAY_MS;
/** A runaway guard: a clock moved years ahead on a daily plan still ends. */
const MAX_CHARGES_PER_TICK = 1000;

/** The moment one billing interval after `from`; months keep the day of the month, clamped to short months. */
export function addInterval(from: number, frequency: BillingCycle['frequency']): number {
  const count = frequency.interval_count;
  if (frequency.interval_unit === 'DAY') return from + count * DAY_MS;
  if (frequency.interval_unit === 'WEEK') return from + count * 7 * DAY_MS;
  const date = new Date(from);
  const month = date.getUTCMonth() + (frequency.interval_unit === 'YEAR' ? 12 : 1) * count;
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), month + 1, 0)).getUTCDate();
  return Date.UTC(date.getUTCFullYear(), month, Math.min(date.getUTCDate(), lastDay), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds());
}

export function cyclesFor(plan: Plan): CycleExecution[] {
  return [...plan.billing_cycles]
    .sort((a, b) => a.sequence - b.sequence)
    .map((cycle) => ({ tenure_type: cycle.tenure_type, sequence: cycle.sequence, cycles_completed: 0, total_cycles: cycle.total_cycles }));
}

/** The billing cycle the next payment belongs to, or null once every finite cycle has run. */
function currentCycle(subscription: Subscription, plan: Plan): { cycle: BillingCycle; execution: CycleExecution } | null {
  for (const execution of subscription.cycles) {
    if (execution.total_cycles !== 0 && execution.cycles_completed >= execution.total_cycles) continue;
    const cycle = plan.billing_cycles.find((c) => c.sequence === execution.sequence);
    if (cycle) return { cycle, execution };
  }
  return null;
}

function touch(world: PaypalWorld, subscription: Subscription, status?: Subscription['status'], note?: string | null): void {
  const now = world.store.now();
  subscription.updateTime = now;
  if (status && status !== subscription.status) {
    subscription.status = status;
    subscription.statusUpdateTime = now;
  }
  if (note !== undefined) subscription.statusChangeNote = note;
}

type ChargeResult = { outcome: 'paid'; sale: Sale | null } | { outcome: 'failed'; suspended: boolean } | { outcome: 'finished' };

/**
 * Takes the payment of the cycle due at `subscription.nextBillingTime`, at `time`. Events are the
 * caller's to send, so an activation can announce itself before its first payment.
 */
function charge(world: PaypalWorld, subscription: Subscription, time: number): ChargeResult {
  const { store } = world;
  const plan = store.plans.get(subscription.planId);
  const current = plan ? currentCycle(subscription, plan) : null;
  if (!plan || !current) return { outcome: 'finished' };
  const cents = toCents(current.cycle.pricing_scheme.fixed_price.value) ?? 0;
  const currency = current.cycle.pricing_scheme.fixed_price.currency_code;
  if (cents > 0 && subscription.failuresPending > 0) {
    subscription.failuresPending -= 1;
    subscription.failedPaymentsCount += 1;
    subscription.outstandingCents = cents;
    const threshold = Math.max(1, plan.payment_preferences.payment_failure_threshold);
    const suspended = subscription.failedPaymentsCount >= threshold;
    subscription.retryTime = suspended ? null : time + RETRY_AFTER_MS;
    subscription.lastFailedPayment = { amountCents: cents, currency, time, nextRetry: subscription.retryTime };
    touch(world, subscription);
    return { outcome: 'failed', suspended };
  }
  let sale: Sale | null = null;
  if (cents > 0) {
    // PayPal's standard rate for a domestic payment: 3.49 % + 0.49.
    sale = { id: newId.transaction(), subscriptionId: subscription.id, amountCents: cents, feeCents: Math.round(cents * 0.0349) + 49, currency, time, customId: subscription.customId, refunds: [] };
    store.sales.set(sale.id, sale);
    subscription.lastPayment = { amountCents: cents, currency, time };
  }
  current.execution.cycles_completed += 1;
  subscription.failedPaymentsCount = 0;
  subscription.outstandingCents = 0;
  subscription.retryTime = null;
  subscription.nextBillingTime = addInterval(subscription.nextBillingTime ?? time, current.cycle.frequency);
  if (!currentCycle(subscription, plan)) subscription.finalPaymentTime = time;
  touch(world, subscription);
  return { outcome: 'paid', sale };
}

function announceCharge(world: PaypalWorld, subscription: Subscription, result: ChargeResult): void {
  if (result.outcome === 'paid' && result.sale) emitSaleCompleted(world, result.sale);
  if (result.outcome !== 'failed') return;
  // PayPal reports the failure while the subscription is still ACTIVE, then suspends it.
  emitSubscriptionEvent(world, 'BILLING.SUBSCRIPTION.PAYMENT.FAILED', subscription);
  if (result.suspended) {
    subscription.suspendedByFailures = true;
    touch(world, subscription, 'SUSPENDED', 'Payment failure threshold reached');
    emitSubscriptionEvent(world, 'BILLING.SUBSCRIPTION.SUSPENDED', subscription);
  }
}

/** ACTIVE from now: the first cycle is charged at once unless the subscription starts later. */
function start(world: PaypalWorld, subscription: Subscription): void {
  const now = world.store.now();
  subscription.nextBillingTime = Math.max(subscription.startTime, now);
  touch(world, subscription, 'ACTIVE', null);
  const result = subscription.nextBillingTime <= now ? charge(world, subscription, now) : null;
  emitSubscriptionEvent(world, 'BILLING.SUBSCRIPTION.ACTIVATED', subscription);
  if (result) announceCharge(world, subscription, result);
}

/** The buyer agreed on the approval page (or the control route did it for them). */
export function approve(world: PaypalWorld, approval: Approval, payer: Payer): Subscription | null {
  const { store } = world;
  store.approvals.delete(approval.baToken);
  const subscription = store.subscriptions.get(approval.subscriptionId);
  if (!subscription || subscription.approval?.baToken !== approval.baToken) return null;
  subscription.approval = null;
  if (approval.kind === 'revise') {
    const plan = store.plans.get(approval.planId);
    if (!plan) return subscription;
    applyPlan(subscription, plan);
    touch(world, subscription);
    emitSubscriptionEvent(world, 'BILLING.SUBSCRIPTION.UPDATED', subscription);
    return subscription;
  }
  subscription.payer = payer;
  if (approval.userAction === 'CONTINUE') {
    // The merchant activates it with POST …/activate, as PayPal's "Continue" button implies.
    touch(world, subscription, 'APPROVED');
    return subscription;
  }
  start(world, subscription);
  return subscription;
}

/** The buyer pressed "Cancel and return": a first approval stays pending, a plan change is dropped. */
export function declineApproval(world: PaypalWorld, approval: Approval): void {
  world.store.approvals.delete(approval.baToken);
  const subscription = world.store.subscriptions.get(approval.subscriptionId);
  if (subscription && approval.kind === 'revise' && subscription.approval?.baToken === approval.baToken) subscription.approval = null;
}

/** A plan change takes effect from the next payment; completed regular cycles carry over. */
export function applyPlan(subscription: Subscription, plan: Plan): void {
  const regularDone = subscription.cycles.filter((c) => c.tenure_type === 'REGULAR').reduce((sum, c) => sum + c.cycles_completed, 0);
  subscription.planId = plan.id;
  subscription.cycles = cyclesFor(plan).map((execution) => {
    if (execution.tenure_type === 'REGULAR') return { ...execution, cycles_completed: Math.min(regularDone, execution.total_cycles || regularDone) };
    return regularDone > 0 ? { ...execution, cycles_completed: execution.total_cycles } : execution;
  });
  subscription.finalPaymentTime = null;
}

export function cancel(world: PaypalWorld, subscription: Subscription, reason: string): void {
  if (subscription.status !== 'ACTIVE' && subscription.status !== 'SUSPENDED') throw statusInvalid('cancel', 'active or suspended');
  if (subscription.approval) world.store.approvals.delete(subscription.approval.baToken);
  subscription.approval = null;
  subscription.retryTime = null;
  touch(world, subscription, 'CANCELLED', reason);
  emitSubscriptionEvent(world, 'BILLING.SUBSCRIPTION.CANCELLED', subscription);
}

export function suspend(world: PaypalWorld, subscription: Subscription, reason: string): void {
  if (subscription.status !== 'ACTIVE') throw statusInvalid('suspend', 'active');
  touch(world, subscription, 'SUSPENDED', reason);
  emitSubscriptionEvent(world, 'BILLING.SUBSCRIPTION.SUSPENDED', subscription);
}

export function activate(world: PaypalWorld, subscription: Subscription, reason: string | null): void {
  if (subscription.status === 'APPROVED') {
    start(world, subscription);
    return;
  }
  if (subscription.status !== 'SUSPENDED') throw statusInvalid('activate', 'suspended');
  if (subscription.suspendedByFailures) {
    throw unprocessable('SUBSCRIPTION_CANNOT_BE_ACTIVATED', 'Subscription cannot be activated after payment failure threshold has reached.');
  }
  const plan = world.store.plans.get(subscription.planId);
  const now = world.store.now();
  // Cycles that fell due while suspended are skipped, not billed.
  const frequency = plan ? currentCycle(subscription, plan)?.cycle.frequency : undefined;
  while (frequency && subscription.nextBillingTime !== null && subscription.nextBillingTime <= now) {
    subscription.nextBillingTime = addInterval(subscription.nextBillingTime, frequency);
  }
  touch(world, subscription, 'ACTIVE', reason);
  emitSubscriptionEvent(world, 'BILLING.SUBSCRIPTION.ACTIVATED', subscription);
}

/** Told after the sandbox clock moves: charges what fell due, retries failed cycles, expires finished ones. */
export function runBilling(world: PaypalWorld, now: number): void {
  for (const subscription of world.store.subscriptions.values()) {
    for (let i = 0; i < MAX_CHARGES_PER_TICK && subscription.status === 'ACTIVE'; i += 1) {
      const due = subscription.retryTime ?? subscription.nextBillingTime;
      if (due === null || due > now) break;
      const result = charge(world, subscription, due);
      if (result.outcome === 'finished') {
        subscription.nextBillingTime = null;
        touch(world, subscription, 'EXPIRED');
        emitSubscriptionEvent(world, 'BILLING.SUBSCRIPTION.EXPIRED', subscription);
        break;
      }
      announceCharge(world, subscription, result);
    }
  }
}

export function remainingCents(sale: Sale): number {
  return sale.amountCents - refundedCents(sale);
}

/**
 * Records a refund the caller has validated; `via` decides the event, as a refund through the v2
 * captures API is announced as PAYMENT.CAPTURE.REFUNDED and one through v1 (or the dashboard) as
 * PAYMENT.SALE.REFUNDED.
 */
export function refund(world: PaypalWorld, sale: Sale, cents: number, via: 'v1' | 'v2', noteToPayer: string | null = null): Refund {
  const record: Refund = { id: newId.transaction(), saleId: sale.id, amountCents: cents, currency: sale.currency, time: world.store.now(), noteToPayer };
  sale.refunds.push(record);
  world.store.refunds.set(record.id, record);
  if (via === 'v2') emitCaptureRefunded(world, sale, record);
  else emitSaleRefunded(world, sale, record);
  return record;
}

export function subscriptionCurrency(world: PaypalWorld, subscription: Subscription): string {
  const plan = world.store.plans.get(subscription.planId);
  return plan ? planCurrency(plan) : 'USD';
}
