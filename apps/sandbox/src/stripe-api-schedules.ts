import type { FastifyInstance } from 'fastify';
import { recurringPrice } from './stripe-api-billing.ts';
import { invalidRequest, missingParam } from './stripe-errors.ts';
import { emit } from './stripe-invoices.ts';
import { listOf, must, render, stripeRoute } from './stripe-http.ts';
import type { StripeRuntime } from './stripe-http.ts';
import { mergeMetadata } from './stripe-params.ts';
import type { Params } from './stripe-params.ts';
import { releaseSchedule, scheduleFromSubscription, updatePhases } from './stripe-schedules.ts';
import type { PhaseInput } from './stripe-schedules.ts';
import type { StripeStore } from './stripe-store.ts';
import { cancelSubscription } from './stripe-subscriptions.ts';
import type { Interval, ScheduleProration } from './stripe-types.ts';

const PRORATION: readonly ScheduleProration[] = ['always_invoice', 'create_prorations', 'none'];
const INTERVALS: readonly Interval[] = ['day', 'month', 'week', 'year'];

/** A timestamp parameter that also takes `now`. */
function timeOrNow(p: Params, key: string, now: number): number | undefined {
  if (!p.has(key)) return undefined;
  const raw = p.string(key);
  return raw === 'now' ? now : (Number.isSafeInteger(Number(raw)) ? Number(raw) : (p.int(key) as number));
}

function readPhase(store: StripeStore, phase: Params, now: number): PhaseInput {
  const items = phase.objects('items');
  if (!items || items.length === 0) throw missingParam(phase.name('items'));
  const input: PhaseInput = {
    param: phase.path,
    items: items.map((item) => {
      const price = recurringPrice(store, item.string('price', { required: true }) ?? '', item.name('price'));
      const quantity = item.int('quantity', { min: 1 }) ?? 1;
      const metadata = mergeMetadata({}, item.metadata());
      item.ignore('discounts', 'tax_rates', 'billing_thresholds');
      return { price, quantity, metadata };
    }),
  };
  const start = timeOrNow(phase, 'start_date', now);
  if (start !== undefined) input.startDate = start;
  const end = timeOrNow(phase, 'end_date', now);
  if (end !== undefined) input.endDate = end;
  const duration = phase.object('duration');
  if (duration) input.duration = { interval: duration.oneOf('interval', INTERVALS, { required: true }) as Interval, intervalCount: duration.int('interval_count', { min: 1 }) ?? 1 };
  const metadata = phase.metadata();
  // Kept as given: an empty value unsets that key of the subscription's metadata when the phase starts.
  if (metadata !== undefined) input.metadata = metadata ?? {};
  const proration = phase.oneOf('proration_behavior', PRORATION);
  if (proration) input.prorationBehavior = proration;
  const anchor = phase.oneOf('billing_cycle_anchor', ['automatic', 'phase_start'] as const);
  if (anchor) input.billingCycleAnchor = anchor;
  for (const unsupported of ['trial', 'trial_end', 'add_invoice_items', 'iterations']) {
    if (phase.has(unsupported)) throw invalidRequest(`The sandbox does not model ${phase.name(unsupported)}.`, { param: phase.name(unsupported) });
  }
  phase.ignore('automatic_tax', 'collection_method', 'currency', 'default_payment_method', 'default_tax_rates', 'description', 'discounts', 'invoice_settings', 'on_behalf_of', 'transfer_data', 'application_fee_percent', 'billing_thresholds');
  return input;
}

/**
 * Subscription schedules, the part of them a plan change at the end of a period needs: made from a
 * subscription, its later phases set (items, dates or durations, metadata given to the
 * subscription when a phase starts), released or cancelled; phases start on the sandbox clock.
 */
export function registerScheduleRoutes(api: FastifyInstance, runtime: StripeRuntime): void {
  const { store } = runtime;

  stripeRoute(api, runtime, 'POST', '/subscription_schedules', (call) => {
    const p = call.params;
    const from = p.string('from_subscription');
    for (const key of ['customer', 'phases', 'start_date', 'end_behavior', 'default_settings']) {
      if (!p.has(key)) continue;
      if (from) throw invalidRequest(`You cannot set \`${key}\` if \`from_subscription\` is set.`, { param: key });
      throw invalidRequest('The sandbox makes subscription schedules from an existing subscription only (from_subscription).', { param: key });
    }
    if (!from) throw missingParam('from_subscription');
    const metadata = mergeMetadata({}, p.metadata());
    const expand = p.expand();
    p.finish();
    const subscription = must(store, 'subscription', from, 'from_subscription');
    return render(store, scheduleFromSubscription(call.ctx(), subscription, metadata), expand);
  });

  stripeRoute(api, runtime, 'GET', '/subscription_schedules/:id', (call, request) => {
    const expand = call.params.expand();
    call.params.finish();
    return render(store, must(store, 'subscription_schedule', request.params.id ?? ''), expand);
  });

  stripeRoute(api, runtime, 'GET', '/subscription_schedules', (call) => {
    const p = call.params;
    const customer = p.string('customer');
    p.ignore('canceled_at', 'completed_at', 'created', 'released_at', 'scheduled');
    const items = store.all('subscription_schedule').filter((schedule) => !customer || schedule.customer === customer);
    return listOf(call, store, items, '/v1/subscription_schedules');
  });

  stripeRoute(api, runtime, 'POST', '/subscription_schedules/:id', (call, request) => {
    const schedule = must(store, 'subscription_schedule', request.params.id ?? '');
    const p = call.params;
    const ctx = call.ctx();
    const phases = p.objects('phases')?.map((phase) => readPhase(store, phase, ctx.at));
    const endBehavior = p.oneOf('end_behavior', ['release', 'cancel'] as const);
    const metadata = p.metadata();
    // Changes to the current phase's items are refused below, so there is nothing for it to prorate.
    p.oneOf('proration_behavior', PRORATION);
    p.ignore('default_settings');
    const expand = p.expand();
    p.finish();
    if (schedule.status !== 'active' && schedule.status !== 'not_started') {
      throw invalidRequest(`You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status. It must be in one of the following statuses: \`not_started\`, \`active\`.`);
    }
    const subscription = must(store, 'subscription', schedule.subscription ?? '', 'subscription');
    if (phases) updatePhases(ctx, schedule, subscription, phases);
    if (endBehavior) schedule.end_behavior = endBehavior;
    schedule.metadata = mergeMetadata(schedule.metadata, metadata);
    emit(ctx, 'subscription_schedule.updated', schedule);
    return render(store, schedule, expand);
  });

  stripeRoute(api, runtime, 'POST', '/subscription_schedules/:id/release', (call, request) => {
    const schedule = must(store, 'subscription_schedule', request.params.id ?? '');
    call.params.ignore('preserve_cancel_date');
    const expand = call.params.expand();
    call.params.finish();
    releaseSchedule(call.ctx(), schedule);
    return render(store, schedule, expand);
  });

  stripeRoute(api, runtime, 'POST', '/subscription_schedules/:id/cancel', (call, request) => {
    const schedule = must(store, 'subscription_schedule', request.params.id ?? '');
    const p = call.params;
    const invoiceNow = p.bool('invoice_now') ?? true;
    const prorate = p.bool('prorate') ?? true;
    const expand = p.expand();
    p.finish();
    if (schedule.status !== 'active' && schedule.status !== 'not_started') {
      throw invalidRequest(`You cannot cancel a subscription schedule that is currently in the \`${schedule.status}\` status. It must be in one of the following statuses: \`not_started\`, \`active\`.`);
    }
    const subscription = schedule.subscription ? store.get('subscription', schedule.subscription) : undefined;
    // Cancelling the subscription cancels the schedule with it.
    if (subscription && subscription.status !== 'canceled') cancelSubscription(call.ctx(), subscription, { invoiceNow, prorate });
    return render(store, schedule, expand);
  });
}
