import { invalidRequest } from './stripe-errors.ts';
import { chargeInvoice, createInvoice, emit } from './stripe-invoices.ts';
import type { BillingContext } from './stripe-invoices.ts';
import { mergeMetadata } from './stripe-params.ts';
import { periodBoundary } from './stripe-store.ts';
import type { StripeStore } from './stripe-store.ts';
import { emitUpdated, endSubscription, fullLine, setPeriod } from './stripe-subscriptions.ts';
import { applyItems } from './stripe-update-subscription.ts';
import type { PlannedItem } from './stripe-update-subscription.ts';
import type { Interval, Metadata, Price, SchedulePhase, ScheduleProration, Subscription, SubscriptionSchedule } from './stripe-types.ts';

/** A phase as an update request describes it, before its dates are worked out. */
export interface PhaseInput {
  /** The parameter it came from, e.g. `phases[1]`, for error messages. */
  param: string;
  items: { price: Price; quantity: number; metadata: Metadata }[];
  startDate?: number;
  endDate?: number;
  duration?: { interval: Interval; intervalCount: number };
  metadata?: Metadata;
  prorationBehavior?: ScheduleProration;
  billingCycleAnchor?: 'automatic' | 'phase_start';
}

function phaseOf(subscription: Subscription, input: Omit<PhaseInput, 'param'> & { startDate: number; endDate: number }): SchedulePhase {
  return {
    add_invoice_items: [],
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: input.billingCycleAnchor ?? null,
    billing_thresholds: null,
    collection_method: null,
    currency: subscription.currency,
    default_payment_method: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    end_date: input.endDate,
    invoice_settings: null,
    items: input.items.map((item) => ({ billing_thresholds: null, discounts: [], metadata: item.metadata, plan: item.price.id, price: item.price.id, quantity: item.quantity, tax_rates: [] })),
    metadata: input.metadata ?? {},
    on_behalf_of: null,
    proration_behavior: input.prorationBehavior ?? 'create_prorations',
    start_date: input.startDate,
    transfer_data: null,
    trial_end: null,
  };
}

/** POST /v1/subscription_schedules with `from_subscription`: one phase, the subscription's current period and items. */
export function scheduleFromSubscription(ctx: BillingContext, subscription: Subscription, metadata: Metadata): SubscriptionSchedule {
  const { store, at } = ctx;
  if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
    throw invalidRequest(`You cannot migrate a subscription that is already canceled: ${subscription.id}`, { param: 'from_subscription' });
  }
  if (subscription.schedule) {
    throw invalidRequest(`You cannot migrate a subscription that is already attached to a schedule: \`${subscription.schedule}\`.`, { param: 'from_subscription' });
  }
  const before = structuredClone(subscription);
  const schedule: SubscriptionSchedule = {
    id: store.newId('sub_sched'),
    object: 'subscription_schedule',
    application: null,
    billing_mode: { flexible: null, type: 'classic' },
    canceled_at: null,
    completed_at: null,
    created: at,
    current_phase: { start_date: subscription.current_period_start, end_date: subscription.current_period_end },
    customer: subscription.customer,
    customer_account: null,
    default_settings: {
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: 'automatic',
      billing_thresholds: null,
      collection_method: 'charge_automatically',
      default_payment_method: null,
      description: null,
      invoice_settings: { account_tax_ids: null, days_until_due: null, issuer: { type: 'self' } },
      on_behalf_of: null,
      transfer_data: null,
    },
    end_behavior: 'release',
    livemode: false,
    metadata,
    phases: [
      phaseOf(subscription, {
        items: subscription.items.data.map((item) => ({ price: item.price, quantity: item.quantity, metadata: {} })),
        startDate: subscription.current_period_start,
        endDate: subscription.current_period_end,
      }),
    ],
    released_at: null,
    released_subscription: null,
    status: 'active',
    subscription: subscription.id,
    test_clock: null,
  };
  store.add(schedule);
  subscription.schedule = schedule.id;
  emit(ctx, 'subscription_schedule.created', schedule);
  emitUpdated(ctx, subscription, before);
  return schedule;
}

const sameItems = (phase: SchedulePhase, input: PhaseInput) =>
  phase.items.length === input.items.length && phase.items.every((item, i) => item.price === input.items[i]?.price.id && item.quantity === input.items[i]?.quantity);

/**
 * POST /v1/subscription_schedules/:id with `phases`: the phases from the current one on, each
 * starting where the one before ends; a phase lasts until `end_date`, for `duration`, or (the last
 * one only) one billing period of its price.
 */
export function updatePhases(ctx: BillingContext, schedule: SubscriptionSchedule, subscription: Subscription, inputs: PhaseInput[]): void {
  const current = schedule.current_phase;
  const first = inputs[0];
  if (!current || !first) throw invalidRequest('A subscription schedule needs at least one phase.', { param: 'phases' });
  if (first.startDate !== undefined && first.startDate !== current.start_date) {
    throw invalidRequest('You can not modify the start date of the current phase.', { param: `${first.param}[start_date]` });
  }
  const running = schedule.phases.find((phase) => phase.start_date === current.start_date);
  if (running && !sameItems(running, first)) {
    throw invalidRequest("The sandbox does not model changing the items of the current phase; update the subscription itself, or release the schedule first.", { param: `${first.param}[items]` });
  }
  const phases: SchedulePhase[] = [];
  let start = current.start_date;
  inputs.forEach((input, i) => {
    if (input.items.length === 0) throw invalidRequest('Each phase needs at least one item.', { param: `${input.param}[items]` });
    if (input.endDate !== undefined && input.duration) throw invalidRequest('You may only specify one of these parameters: end_date, duration.', { param: `${input.param}[duration]` });
    if (i > 0 && input.startDate !== undefined && input.startDate !== start) {
      throw invalidRequest("A phase's start_date must be the end_date of the phase before it.", { param: `${input.param}[start_date]` });
    }
    const recurring = input.items[0]?.price.recurring;
    let end = input.endDate;
    if (end === undefined && input.duration) end = periodBoundary(start, input.duration.interval, input.duration.intervalCount, 1);
    if (end === undefined && i === inputs.length - 1 && recurring) end = periodBoundary(start, recurring.interval, recurring.interval_count, 1);
    if (end === undefined) throw invalidRequest('Every phase but the last needs an end_date or a duration.', { param: `${input.param}[end_date]` });
    if (end <= start) throw invalidRequest("The phase's end_date must be after its start_date.", { param: `${input.param}[end_date]` });
    phases.push(phaseOf(subscription, { ...input, startDate: start, endDate: end }));
    start = end;
  });
  schedule.phases = phases;
  schedule.current_phase = { start_date: current.start_date, end_date: phases[0]!.end_date };
}

/** POST /v1/subscription_schedules/:id/release: the schedule stops; the subscription goes on as it is. */
export function releaseSchedule(ctx: BillingContext, schedule: SubscriptionSchedule): void {
  if (schedule.status !== 'active' && schedule.status !== 'not_started') {
    throw invalidRequest(`You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status. It must be in one of the following statuses: \`not_started\`, \`active\`.`);
  }
  const subscription = schedule.subscription ? ctx.store.get('subscription', schedule.subscription) : undefined;
  const before = subscription ? structuredClone(subscription) : null;
  schedule.status = 'released';
  schedule.released_at = ctx.at;
  schedule.released_subscription = schedule.subscription;
  schedule.subscription = null;
  schedule.current_phase = null;
  emit(ctx, 'subscription_schedule.released', schedule);
  if (subscription && before) {
    subscription.schedule = null;
    emitUpdated(ctx, subscription, before);
  }
}

/** When the running phase of an active schedule ends, if it does. */
export function phaseEnd(schedule: SubscriptionSchedule): number | null {
  return schedule.status === 'active' && schedule.current_phase ? schedule.current_phase.end_date : null;
}

/**
 * The running phase ended (at `ctx.at`): the next one starts, giving the subscription its items
 * and metadata; with a new billing interval (or `billing_cycle_anchor=phase_start`) a new cycle
 * starts and is invoiced now. After the last phase the schedule releases or cancels the
 * subscription, as `end_behavior` says. Phases are expected to change at period ends: a change in
 * the middle of a period is made without prorations.
 */
export function advanceSchedule(ctx: BillingContext, store: StripeStore, schedule: SubscriptionSchedule): void {
  const current = schedule.current_phase;
  const subscription = schedule.subscription ? store.get('subscription', schedule.subscription) : undefined;
  if (!current || !subscription) {
    schedule.current_phase = null;
    return;
  }
  const next = schedule.phases.find((phase) => phase.start_date === current.end_date);
  if (!next) {
    if (schedule.end_behavior === 'cancel') {
      schedule.status = 'completed';
      schedule.completed_at = ctx.at;
      schedule.current_phase = null;
      emit(ctx, 'subscription_schedule.completed', schedule);
      endSubscription(ctx, subscription, 'cancellation_requested');
      return;
    }
    releaseSchedule(ctx, schedule);
    return;
  }
  const before = structuredClone(subscription);
  const oldRecurring = subscription.items.data[0]?.price.recurring;
  const prices = next.items.map((item) => store.get('price', item.price));
  const plan: PlannedItem[] = subscription.items.data.map((item, i) => {
    const price = prices[i];
    return price ? { existing: item, price, quantity: next.items[i]?.quantity ?? 1, removed: false } : { existing: item, price: item.price, quantity: item.quantity, removed: true };
  });
  prices.slice(subscription.items.data.length).forEach((price, i) => {
    if (price) plan.push({ existing: null, price, quantity: next.items[subscription.items.data.length + i]?.quantity ?? 1, removed: false });
  });
  applyItems(store, subscription, plan, ctx.at);
  subscription.metadata = mergeMetadata(subscription.metadata, next.metadata);
  const recurring = subscription.items.data[0]?.price.recurring;
  const intervalChanged = !!recurring && (recurring.interval !== oldRecurring?.interval || recurring.interval_count !== oldRecurring.interval_count);
  if (recurring && (intervalChanged || next.billing_cycle_anchor === 'phase_start')) {
    const end = periodBoundary(ctx.at, recurring.interval, recurring.interval_count, 1);
    const oldStart = subscription.current_period_start;
    setPeriod(subscription, ctx.at, end);
    subscription.billing_cycle_anchor = ctx.at;
    const extras = store.extras(subscription.id);
    const lines = [...extras.pending, ...subscription.items.data.map((item) => fullLine(store, item, { start: ctx.at, end }))];
    extras.pending = [];
    const invoice = createInvoice(ctx, subscription, lines, 'subscription_update', { start: oldStart, end: ctx.at });
    if (!chargeInvoice(ctx, invoice)) subscription.status = 'past_due';
  }
  schedule.current_phase = { start_date: next.start_date, end_date: next.end_date };
  emit(ctx, 'subscription_schedule.updated', schedule);
  emitUpdated(ctx, subscription, before);
}
