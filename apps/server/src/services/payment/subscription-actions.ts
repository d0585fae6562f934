import { PLANS, PRICE_CURRENCY, type ChangePlanRequest, type ChangePlanResponse, type PaidPlanType, type StatusResponse, type Subscription } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { fromFlag, now, toFlag } from '../../db/database';
import type { DB } from '../../db/schema';
import { ConflictError, ForbiddenError, NotFoundError } from '../../http/errors';
import { assertServerAccess, type AuthResolver, type Caller } from '../../http/route';
import type { Stripe } from '../../platform/stripe';
import { applyPlan } from './apply-plan';
import { priceCents, recurringOf, withinRefundWindow } from './prices';
import type { PaypalPayments } from './paypal-payments';
import * as repo from './repository';
import { fieldsOfStripe, periodOf, upstream, type PaymentService } from './service';


/** What the buyer does with a subscription they pay for: cancel it, move it to another server. */
export class SubscriptionActions {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly stripe: Stripe,
    private readonly resolver: AuthResolver,
    private readonly payments: PaymentService,
    private readonly config: Config,
    private readonly paypal: PaypalPayments,
  ) {}

  /** The caller's own subscription; someone else's is unknown to them. */
  private async own(caller: Caller | null, subscriptionId: string): Promise<repo.SubscriptionRow> {
    if (caller?.kind !== 'user') throw new ForbiddenError('Only a signed-in dashboard user can do this');
    const row = await repo.findSubscription(this.db, subscriptionId);
    if (!row || row.user_id !== caller.userId) throw new NotFoundError(`You have no subscription ${subscriptionId}`);
    return row;
  }

  private async answer(id: string): Promise<Subscription> {
    const row = (await repo.findSubscription(this.db, id))!;
    return (await this.payments.present([row]))[0]!;
  }

  /**
   * Cancels at the end of the paid period (irreversible); within the refund window of the first
   * payment, refunds every payment in full and ends the plan at once.
   */
  async cancel(caller: Caller | null, subscriptionId: string): Promise<Subscription> {
    const row = await this.own(caller, subscriptionId);
    if (row.state === 'canceled' || fromFlag(row.cancel_at_period_end)) throw new ConflictError('This subscription is already cancelled');
    if (row.provider === 'paypal') {
      await this.paypal.cancel(row);
      return this.answer(row.id);
    }
    if (withinRefundWindow(row.first_paid_at)) {
      const payments = (await repo.listReceipts(this.db, { subscriptionId: row.id })).filter((r) => r.kind === 'payment' && r.provider_charge_id);
      const refunded = new Set((await repo.listReceipts(this.db, { subscriptionId: row.id })).filter((r) => r.kind === 'refund').map((r) => r.provider_charge_id));
      let sub: Stripe.Subscription;
      const refunds: repo.RefundMade[] = [];
      try {
        for (const payment of payments.filter((p) => !refunded.has(p.provider_charge_id))) {
          const refund = await this.stripe.refunds.create({ charge: payment.provider_charge_id!, reason: 'requested_by_customer' });
          refunds.push({ id: refund.id, amountCents: refund.amount, currency: refund.currency, payment });
        }
        sub = await this.stripe.subscriptions.cancel(row.provider_subscription_id);
      } catch (error) {
        throw upstream(error, 'Could not cancel the subscription with the card provider');
      }
      await this.db.transaction().execute(async (trx) => {
        await repo.insertRefundReceipts(trx, row, 'stripe', refunds);
        await repo.updateSubscription(trx, row.id, { ...fieldsOfStripe(sub), state: 'canceled' });
        if (row.server_id) await applyPlan(trx, row.server_id);
      });
      return this.answer(row.id);
    }
    let sub: Stripe.Subscription;
    try {
      sub = await this.stripe.subscriptions.update(row.provider_subscription_id, { cancel_at_period_end: true });
    } catch (error) {
      throw upstream(error, 'Could not cancel the subscription with the card provider');
    }
    await this.db.transaction().execute(async (trx) => {
      await repo.updateSubscription(trx, row.id, { ...fieldsOfStripe(sub), cancel_at_period_end: toFlag(true) });
      if (row.server_id) await applyPlan(trx, row.server_id);
    });
    return this.answer(row.id);
  }

  /** Moves the plan to another server where the buyer is staff; the server it leaves returns to Free. */
  async transfer(caller: Caller | null, subscriptionId: string, serverId: string): Promise<Subscription> {
    const row = await this.own(caller, subscriptionId);
    await assertServerAccess(caller, serverId, 'staff', false, this.resolver);
    if (row.state === 'canceled') throw new ConflictError('A cancelled subscription cannot be moved');
    const server = await this.db.selectFrom('servers').select('active').where('id', '=', serverId).executeTakeFirst();
    if (!server || server.active !== 1) throw new NotFoundError('The bot is not in this server');
    if (row.server_id === serverId) return this.answer(row.id);
    await this.db.transaction().execute(async (trx) => {
      const locked = (await repo.findSubscription(trx, row.id, true))!;
      await repo.updateSubscription(trx, row.id, { server_id: serverId, applied: 0, last_transferred: now() });
      if (locked.server_id) await applyPlan(trx, locked.server_id);
      await applyPlan(trx, serverId);
    });
    return this.answer(row.id);
  }

  /** A Stripe price of the plan for the interval, from the price table. */
  private async priceOf(plan: PaidPlanType, interval: ChangePlanRequest['interval']): Promise<string> {
    const price = await this.stripe.prices.create({
      currency: PRICE_CURRENCY.toLowerCase(),
      unit_amount: priceCents(this.config.payment, plan, interval),
      recurring: recurringOf(interval),
      product_data: { name: `${plan === 'premium' ? 'Premium' : 'Enterprise'} (${interval})` },
    });
    return price.id;
  }

  /**
   * An upgrade applies now, the difference prorated and charged at once; a downgrade is scheduled
   * for the end of the period (Stripe bills the new price from that renewal on). A change of the
   * billing period is refused for now: it cannot wait for the period's end at the provider.
   */
  async changePlan(caller: Caller | null, request: ChangePlanRequest): Promise<ChangePlanResponse> {
    const row = await this.own(caller, request.subscriptionId);
    if (row.state !== 'active' || fromFlag(row.cancel_at_period_end)) throw new ConflictError('Only an active subscription that renews can change its plan');
    if (row.provider !== 'stripe') throw new ConflictError('Only card subscriptions can change their plan here for now');
    if (request.interval !== row.plan_interval) {
      throw new ConflictError('Changing the billing period is not available yet; cancel and subscribe again with the new period', 'body.interval');
    }
    if (request.plan === row.plan_type && !row.scheduled_plan_type) throw new ConflictError('The subscription is already on this plan', 'body.plan');
    const upgrade = PLANS[request.plan].level > PLANS[row.plan_type as PaidPlanType].level;
    let sub: Stripe.Subscription;
    try {
      const current = await this.stripe.subscriptions.retrieve(row.provider_subscription_id);
      const item = current.items.data[0]!;
      const price = await this.priceOf(request.plan, request.interval);
      const end = periodOf(current).end;
      sub = await this.stripe.subscriptions.update(row.provider_subscription_id, {
        items: [{ id: item.id, price }],
        proration_behavior: upgrade ? 'always_invoice' : 'none',
        payment_behavior: 'error_if_incomplete',
        metadata:
          upgrade || request.plan === row.plan_type
            ? { planType: request.plan, planInterval: request.interval, scheduledPlanType: '', scheduledAt: '' }
            : { planType: row.plan_type, planInterval: row.plan_interval, scheduledPlanType: request.plan, scheduledAt: String(end ?? '') },
      });
    } catch (error) {
      throw upstream(error, 'Error updating plan');
    }
    await this.db.transaction().execute(async (trx) => {
      await repo.updateSubscription(trx, row.id, fieldsOfStripe(sub));
      if (row.server_id) await applyPlan(trx, row.server_id);
    });
    const status = upgrade ? 'applied' : request.plan === row.plan_type ? 'applied' : 'scheduled';
    return { status, requiresConfirmation: false, confirmationSession: null };
  }

  /** Drops the plan change waiting for the end of the period: the subscription renews on its plan. */
  async cancelScheduledChange(caller: Caller | null, subscriptionId: string): Promise<Subscription> {
    const row = await this.own(caller, subscriptionId);
    if (!row.scheduled_plan_type) throw new ConflictError('This subscription has no scheduled change');
    let sub: Stripe.Subscription;
    try {
      const current = await this.stripe.subscriptions.retrieve(row.provider_subscription_id);
      const price = await this.priceOf(row.plan_type as PaidPlanType, row.plan_interval as ChangePlanRequest['interval']);
      sub = await this.stripe.subscriptions.update(row.provider_subscription_id, {
        items: [{ id: current.items.data[0]!.id, price }],
        proration_behavior: 'none',
        metadata: { planType: row.plan_type, planInterval: row.plan_interval, scheduledPlanType: '', scheduledAt: '' },
      });
    } catch (error) {
      throw upstream(error, 'Error cancelling scheduled change');
    }
    await this.db.transaction().execute(async (trx) => {
      await repo.updateSubscription(trx, row.id, fieldsOfStripe(sub));
      if (row.server_id) await applyPlan(trx, row.server_id);
    });
    return this.answer(row.id);
  }

  /** Detaches the server's subscriptions from it: the server returns to Free, the buyers keep paying and may apply them elsewhere. */
  async revoke(serverId: string): Promise<StatusResponse> {
    const attached = (await repo.listByServer(this.db, serverId)).filter((s) => s.state !== 'canceled');
    if (attached.length === 0) throw new NotFoundError('This server has no subscription');
    await this.db.transaction().execute(async (trx) => {
      for (const sub of attached) await repo.updateSubscription(trx, sub.id, { server_id: null, applied: 0 });
      await applyPlan(trx, serverId);
    });
    return { status: 'complete', message: 'The subscription no longer applies to this server; its buyer can move it to another server' };
  }
}
