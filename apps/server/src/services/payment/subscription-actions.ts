import type { StatusResponse, Subscription } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import { fromFlag, now, toFlag } from '../../db/database';
import type { DB } from '../../db/schema';
import { ConflictError, NotFoundError } from '../../http/errors';
import { assertServerAccess, type AuthResolver, type Caller } from '../../http/route';
import type { Stripe } from '../../platform/stripe';
import { applyPlan } from './apply-plan';
import { withinRefundWindow } from './prices';
import type { PaypalPayments } from './paypal-payments';
import * as repo from './repository';
import { fieldsOfStripe, ownSubscription, upstream, type PaymentService } from './service';
import { dropScheduledChange } from './stripe-plan-change';

/** What the buyer does with a subscription they pay for: cancel it, move it to another server (plan changes: change-plan.ts). */
export class SubscriptionActions {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly stripe: Stripe,
    private readonly resolver: AuthResolver,
    private readonly payments: PaymentService,
    private readonly paypal: PaypalPayments,
  ) {}

  private async own(caller: Caller | null, subscriptionId: string): Promise<repo.SubscriptionRow> {
    return ownSubscription(this.db, caller, subscriptionId);
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
      const payments = await repo.unrefundedPayments(this.db, row.id);
      let sub: Stripe.Subscription;
      const refunds: repo.RefundMade[] = [];
      try {
        for (const payment of payments) {
          const refund = await this.stripe.refunds.create({ charge: payment.provider_charge_id!, reason: 'requested_by_customer' });
          refunds.push({ id: refund.id, amountCents: refund.amount, currency: refund.currency, payment });
        }
        sub = await this.stripe.subscriptions.cancel(row.provider_subscription_id);
      } catch (error) {
        throw upstream(error, 'Could not cancel the subscription with the card provider');
      }
      await this.payments.inPlanTransaction(async (trx) => {
        await repo.insertRefundReceipts(trx, row, 'stripe', refunds);
        await repo.updateSubscription(trx, row.id, { ...fieldsOfStripe(sub), state: 'canceled', scheduled_plan_type: null, scheduled_plan_interval: null, scheduled_effective_date: null });
        if (row.server_id) await applyPlan(trx, row.server_id);
      });
      return this.answer(row.id);
    }
    let sub: Stripe.Subscription;
    try {
      // A subscription that ends at the period's end changes plan no more: a scheduled change (and
      // the schedule that would make it, which Stripe lets set the cancellation alone) is dropped.
      const current = await dropScheduledChange(this.stripe, await this.stripe.subscriptions.retrieve(row.provider_subscription_id));
      sub = await this.stripe.subscriptions.update(current.id, { cancel_at_period_end: true });
    } catch (error) {
      throw upstream(error, 'Could not cancel the subscription with the card provider');
    }
    await this.payments.inPlanTransaction(async (trx) => {
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
    if (!(await repo.isServerActive(this.db, serverId))) throw new NotFoundError('The bot is not in this server');
    if (row.server_id === serverId) return this.answer(row.id);
    await this.payments.inPlanTransaction(async (trx) => {
      const locked = (await repo.findSubscription(trx, row.id, true))!;
      await repo.updateSubscription(trx, row.id, { server_id: serverId, applied: 0, last_transferred: now() });
      if (locked.server_id) await applyPlan(trx, locked.server_id);
      await applyPlan(trx, serverId);
    });
    return this.answer(row.id);
  }

  /** Detaches the server's subscriptions from it: the server returns to Free, the buyers keep paying and may apply them elsewhere. */
  async revoke(serverId: string): Promise<StatusResponse> {
    const attached = (await repo.listByServer(this.db, serverId)).filter((s) => s.state !== 'canceled');
    if (attached.length === 0) throw new NotFoundError('This server has no subscription');
    await this.payments.inPlanTransaction(async (trx) => {
      for (const sub of attached) await repo.updateSubscription(trx, sub.id, { server_id: null, applied: 0 });
      await applyPlan(trx, serverId);
    });
    return { status: 'complete', message: 'The subscription no longer applies to this server; its buyer can move it to another server' };
  }
}
