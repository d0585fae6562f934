import { randomUUID } from 'node:crypto';
import { PLANS, type ChangePlanResponse, type PaidPlanType, type StatusResponse } from '@ticket/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config';
import { toTimestamp } from '../../db/database';
import type { DB } from '../../db/schema';
import { UpstreamError } from '../../http/errors';
import type { PaypalClient, PaypalSubscription } from '../../platform/paypal';
import { applyPlan } from './apply-plan';
import type { PlanTarget } from './change-plan';
import type { PaypalPayments } from './paypal-payments';
import * as repo from './repository';
import { upstream } from './service';

/** PayPal's approval links last three hours; a change not approved by then has lapsed. */
const APPROVAL_TTL_MS = 3 * 3600 * 1000;

/**
 * What our row says once PayPal has the revised plan. PayPal bills a revised plan from the next
 * billing cycle and does not prorate. We give an upgrade within the same billing period at once
 * (the buyer pays the new price from the next cycle; the rest of this one is on us); a downgrade,
 * or a new billing period, waits for that next billing and shows as the scheduled change until
 * then. Going back to the current plan and period drops the scheduled change.
 */
export function fieldsOfApprovedChange(row: repo.SubscriptionRow, change: Pick<repo.PlanChangeRow, 'plan_type' | 'plan_interval'>, nextBilling: string | null) {
  const nothing = { scheduled_plan_type: null, scheduled_plan_interval: null, scheduled_effective_date: null };
  if (change.plan_type === row.plan_type && change.plan_interval === row.plan_interval) return nothing;
  const upgrade = change.plan_interval === row.plan_interval && PLANS[change.plan_type as PaidPlanType].level > PLANS[row.plan_type as PaidPlanType].level;
  if (upgrade) return { ...nothing, plan_type: change.plan_type };
  return { scheduled_plan_type: change.plan_type, scheduled_plan_interval: change.plan_interval, scheduled_effective_date: nextBilling ?? row.current_period_end };
}

/**
 * Applies a revise PayPal reports approved (the subscription is on the revised plan), in the
 * caller's transaction and once: the result page and the webhook may both see it. True when this
 * call applied it.
 */
export async function applyApprovedPaypalChange(trx: Transaction<DB>, changeId: string, sub: PaypalSubscription): Promise<boolean> {
  const seen = await repo.findPlanChangeById(trx, changeId);
  if (!seen) return false;
  // The subscription first, then its change: the order the webhook takes them in.
  const row = await repo.findSubscription(trx, seen.subscription_id, true);
  const change = await repo.findPlanChangeById(trx, changeId, true);
  if (!row || change?.status !== 'open' || sub.plan_id !== change.provider_plan_id) return false;
  const nextBilling = sub.billing_info?.next_billing_time ? toTimestamp(Date.parse(sub.billing_info.next_billing_time)) : null;
  await repo.updateSubscription(trx, row.id, fieldsOfApprovedChange(row, change, nextBilling));
  await repo.setPlanChangeStatus(trx, change.id, 'complete');
  if (row.server_id) await applyPlan(trx, row.server_id);
  return true;
}

/**
 * Plan and billing-period changes of PayPal subscriptions: PayPal's revise with the new plan, which
 * the buyer approves on PayPal's page (return and cancel URLs to the update result and cancel
 * pages); once PayPal reports the subscription on the new plan (the result page asks, or a webhook
 * tells) the change is applied as `fieldsOfApprovedChange` says.
 */
export class PaypalPlanChanges {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Config,
    private readonly paypal: PaypalClient,
    private readonly payments: PaypalPayments,
  ) {}

  private subscriptionPath = (row: repo.SubscriptionRow) => `/v1/billing/subscriptions/${encodeURIComponent(row.provider_subscription_id)}`;

  async change(row: repo.SubscriptionRow, target: PlanTarget, serverId: string, what: string): Promise<ChangePlanResponse> {
    if (!this.paypal.configured) throw new UpstreamError(`${what}: PayPal is not configured on this server (PAYPAL_CLIENT_ID)`);
    const base = `${this.config.publicUrl}/staff/${serverId}/premium`;
    let planId: string;
    let answer: { links?: { href: string; rel: string }[] };
    try {
      const current = await this.paypal.request<PaypalSubscription>('GET', this.subscriptionPath(row));
      // A revise stays within the catalog product of the subscription's plan.
      const plan = await this.paypal.request<{ product_id: string }>('GET', `/v1/billing/plans/${encodeURIComponent(current.plan_id)}`);
      planId = await this.payments.planId(target.plan, target.interval, plan.product_id);
      answer = await this.paypal.request('POST', `${this.subscriptionPath(row)}/revise`, {
        plan_id: planId,
        application_context: { return_url: `${base}/update/success?provider=paypal`, cancel_url: `${base}/cancel?provider=paypal`, shipping_preference: 'NO_SHIPPING' },
      });
    } catch (error) {
      throw upstream(error, what);
    }
    const change = {
      id: randomUUID(),
      provider: 'paypal',
      token: row.provider_subscription_id,
      subscription_id: row.id,
      server_id: serverId,
      user_id: row.user_id,
      plan_type: target.plan,
      plan_interval: target.interval,
      provider_plan_id: planId,
      status: 'open',
    };
    await this.db.transaction().execute(async (trx) => {
      await repo.replaceOpenPlanChanges(trx, row.id);
      await repo.insertPlanChange(trx, change);
    });
    const approve = answer.links?.find((l) => l.rel === 'approve')?.href;
    if (approve) return { status: 'confirmation_required', requiresConfirmation: true, confirmationSession: { id: row.provider_subscription_id, url: approve } };
    // The same terms need no consent: PayPal has swapped the plan already.
    const result = await this.complete((await repo.findPlanChangeById(this.db, change.id))!);
    if (result.status !== 'complete') throw new UpstreamError(`${what}: PayPal did not confirm the new plan`);
    return { status: fieldsOfApprovedChange(row, change, null).scheduled_plan_type ? 'scheduled' : 'applied', requiresConfirmation: false, confirmationSession: null };
  }

  /** The update result page's check: PayPal's subscription on the revised plan means the buyer approved it. */
  async complete(change: repo.PlanChangeRow): Promise<StatusResponse> {
    if (change.status === 'complete') return { status: 'complete' };
    if (change.status !== 'open') return { status: 'failed', message: 'This plan change lapsed, or another change replaced it; the plan stays as it was' };
    let sub: PaypalSubscription;
    try {
      sub = await this.paypal.request<PaypalSubscription>('GET', `/v1/billing/subscriptions/${encodeURIComponent(change.token)}`);
    } catch {
      return { status: 'unverified', message: 'The change could not be verified with PayPal; check your e-mail or contact support' };
    }
    if (sub.plan_id === change.provider_plan_id) {
      await this.payments.inPlanTransaction((trx) => applyApprovedPaypalChange(trx, change.id, sub));
      return { status: 'complete' };
    }
    if (Date.now() - Date.parse(change.created_at) > APPROVAL_TTL_MS) {
      await repo.setPlanChangeStatus(this.db, change.id, 'failed');
      return { status: 'failed', message: 'The change was not approved on PayPal in time; the plan stays as it was' };
    }
    return { status: 'processing', message: 'PayPal has not confirmed the change yet' };
  }
}
