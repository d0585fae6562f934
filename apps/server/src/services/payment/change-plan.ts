import {
  PLANS,
  type BillingInterval,
  type ChangePlanRequest,
  type ChangePlanResponse,
  type PaidPlanType,
  type PaymentProvider,
  type StatusResponse,
  type Subscription,
} from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { fromFlag } from '../../db/database';
import type { DB } from '../../db/schema';
import { ConflictError, ForbiddenError, NotFoundError } from '../../http/errors';
import type { Caller } from '../../http/route';
import type { PaypalClient } from '../../platform/paypal';
import type { Stripe } from '../../platform/stripe';
import type { PaypalPayments } from './paypal-payments';
import { PaypalPlanChanges } from './paypal-plan-change';
import * as repo from './repository';
import { ownSubscription, type PaymentService } from './service';
import { StripePlanChanges } from './stripe-plan-change';

/** The plan and billing period a change asks for. */
export interface PlanTarget {
  plan: PaidPlanType;
  interval: BillingInterval;
}

const level = (plan: string) => PLANS[plan as PaidPlanType].level;

/**
 * Changing the plan or the billing period of a subscription the caller pays for, dropping a change
 * scheduled for the end of the period, and the update result page's check of a change the buyer
 * confirmed at the provider (the 3-D Secure payment of a card upgrade, PayPal's approval of a
 * revise). What each provider does is in stripe-plan-change.ts and paypal-plan-change.ts.
 */
export class PlanChanges {
  private readonly stripeChanges: StripePlanChanges;
  private readonly paypalChanges: PaypalPlanChanges;

  constructor(
    private readonly db: Kysely<DB>,
    config: Config,
    stripe: Stripe,
    private readonly payments: PaymentService,
    paypalPayments: PaypalPayments,
    paypal: PaypalClient,
  ) {
    this.stripeChanges = new StripePlanChanges(db, config, stripe, payments);
    this.paypalChanges = new PaypalPlanChanges(db, config, paypal, paypalPayments);
  }

  private async answer(id: string): Promise<Subscription> {
    return (await this.payments.present([(await repo.findSubscription(this.db, id))!]))[0]!;
  }

  /**
   * Card: an upgrade within the billing period applies now, prorated (`applied`), or once the
   * buyer paid it on the card provider's page when the card needs them (`confirmation_required`);
   * a downgrade or a new billing period waits for the end of the period (`scheduled`). PayPal:
   * every change is approved by the buyer on PayPal's page (`confirmation_required`). Asking for
   * the current plan and period drops a scheduled change.
   */
  async changePlan(caller: Caller | null, request: ChangePlanRequest): Promise<ChangePlanResponse> {
    const row = await ownSubscription(this.db, caller, request.subscriptionId);
    if (row.state !== 'active' || fromFlag(row.cancel_at_period_end)) throw new ConflictError('Only an active subscription that renews can change its plan');
    const target: PlanTarget = { plan: request.plan, interval: request.interval };
    const periodChange = target.interval !== row.plan_interval;
    const what = periodChange ? 'Error updating billing period' : 'Error updating plan';
    const current = !periodChange && target.plan === row.plan_type;
    if (current && !row.scheduled_plan_type) throw new ConflictError('The subscription is already on this plan', 'body.plan');
    const upgrade = !periodChange && level(target.plan) > level(row.plan_type);
    // The buyer comes back to the result page of a server; a subscription on none is moved to one first.
    if ((row.provider === 'paypal' || upgrade) && !row.server_id) throw new ConflictError(`${what}: apply the subscription to a server first`);
    if (row.provider === 'paypal') return this.paypalChanges.change(row, target, row.server_id!, what);
    if (current) {
      await this.stripeChanges.dropScheduled(row, what);
      return { status: 'applied', requiresConfirmation: false, confirmationSession: null };
    }
    if (upgrade) return this.stripeChanges.upgrade(row, target, row.server_id!);
    return this.stripeChanges.schedule(row, target, what);
  }

  /** Drops the change waiting for the end of the period: the subscription renews on its plan and period. */
  async cancelScheduledChange(caller: Caller | null, subscriptionId: string): Promise<Subscription> {
    const row = await ownSubscription(this.db, caller, subscriptionId);
    if (!row.scheduled_plan_type) throw new ConflictError('This subscription has no scheduled change');
    if (row.provider === 'paypal') {
      // PayPal bills the approved plan from the next cycle; going back needs the buyer's approval again.
      throw new ConflictError('Error cancelling scheduled change: PayPal needs your approval to keep the current plan; change the plan to the current one instead');
    }
    await this.stripeChanges.dropScheduled(row, 'Error cancelling scheduled change');
    return this.answer(row.id);
  }

  /**
   * The update result page: verifies with the provider that the change the buyer confirmed went
   * through, and applies it (once, whether this or a webhook sees it first). `token` is the
   * invoice id (card) or the PayPal subscription id (PayPal's `subscription_id`); it must be of a
   * change the caller made for this server.
   */
  async completePlanUpdate(caller: Caller | null, serverId: string, provider: PaymentProvider, token: string): Promise<StatusResponse> {
    if (caller?.kind !== 'user') throw new ForbiddenError('Only a signed-in dashboard user can do this');
    const change = await repo.findPlanChange(this.db, provider, token);
    const row = change ? await repo.findSubscription(this.db, change.subscription_id) : undefined;
    if (!change || !row || change.server_id !== serverId || change.user_id !== caller.userId || row.user_id !== caller.userId) {
      throw new NotFoundError('No plan change with this token for this server');
    }
    return provider === 'stripe' ? this.stripeChanges.complete(change, row) : this.paypalChanges.complete(change);
  }
}
