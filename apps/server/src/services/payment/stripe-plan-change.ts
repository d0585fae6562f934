import { randomUUID } from 'node:crypto';
import type { ChangePlanResponse, StatusResponse } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { DB } from '../../db/schema';
import { AppError, ConflictError, UpstreamError } from '../../http/errors';
import { idOf, type Stripe } from '../../platform/stripe';
import { applyPlan } from './apply-plan';
import { recurringOf } from './prices';
import * as repo from './repository';
import { fieldsOfStripe, upstream, type PaymentService } from './service';
import type { PlanTarget } from './change-plan';

/** The metadata keys of a change scheduled for the end of the period, emptied (Stripe deletes a key set to ''). */
const NOTHING_SCHEDULED = { scheduledPlanType: '', scheduledPlanInterval: '', scheduledAt: '' } as const;

const UNVERIFIED: StatusResponse = { status: 'unverified', message: 'The payment could not be verified with the card provider; check your e-mail or contact support' };

/** A provider failure as the dashboard is told of it; our own typed errors (a conflict) pass as they are. */
const failure = (error: unknown, what: string) => (error instanceof AppError ? error : upstream(error, what));

/**
 * Drops a change scheduled for the end of the period at Stripe: releases the subscription schedule
 * that would make it (the subscription goes on as it is, nothing is charged) and clears the
 * metadata that announces it. A subscription with nothing scheduled is answered as it is.
 */
export async function dropScheduledChange(stripe: Stripe, sub: Stripe.Subscription): Promise<Stripe.Subscription> {
  const schedule = idOf(sub.schedule);
  if (schedule) await stripe.subscriptionSchedules.release(schedule);
  if (!schedule && !sub.metadata?.scheduledPlanType) return sub;
  return stripe.subscriptions.update(sub.id, { metadata: NOTHING_SCHEDULED });
}

/**
 * Plan changes of card subscriptions.
 *
 * - An upgrade within the same billing period applies now: the price changes, the rest of the
 *   period is prorated and invoiced at once. It is made with `payment_behavior=pending_if_incomplete`:
 *   when the card cannot be charged without the buyer (authentication, a decline), Stripe keeps the
 *   change pending on the subscription and the plan changes only once the invoice is paid. The
 *   buyer pays it on Stripe's hosted invoice page; its metadata (the new plan) comes with the change.
 * - A downgrade, or any change of billing period, waits for the end of the period: a subscription
 *   schedule from the subscription gets a second phase with the new price (one period long, then
 *   released), which Stripe starts at the period's end, moving the billing anchor there when the
 *   interval changes, without charging anything now. The phase sets the plan's metadata when it
 *   starts; until then the metadata says what is scheduled, and when.
 * - Cancelling the scheduled change releases the schedule: nothing changes, nothing is charged.
 *   A new change replaces a scheduled one the same way; one waiting for its payment must be paid
 *   or lapse first.
 */
export class StripePlanChanges {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Config,
    private readonly stripe: Stripe,
    private readonly payments: PaymentService,
  ) {}

  private priceOf(target: PlanTarget): Promise<string> {
    return this.payments.stripePrice(target.plan, target.interval);
  }

  /** Our row takes what Stripe says of the subscription now; its server's plan follows. */
  private async write(row: repo.SubscriptionRow, sub: Stripe.Subscription): Promise<void> {
    await this.payments.inPlanTransaction(async (trx) => {
      await repo.updateSubscription(trx, row.id, fieldsOfStripe(sub));
      if (row.server_id) await applyPlan(trx, row.server_id);
    });
  }

  /** The subscription at Stripe, unless an earlier change still waits for its payment. */
  private async current(row: repo.SubscriptionRow): Promise<Stripe.Subscription> {
    const sub = await this.stripe.subscriptions.retrieve(row.provider_subscription_id);
    if (sub.pending_update) throw new ConflictError('An earlier plan change is waiting for its payment: pay it on the card provider’s page, or try again once it has lapsed (within a day)');
    return sub;
  }

  /** Where the buyer pays the invoice of a change, and comes back to the update result page with its id. */
  private payUrl(invoice: Stripe.Invoice, serverId: string): string {
    const url = new URL(invoice.hosted_invoice_url!);
    // Stripe's hosted invoice page has no return URL and ignores this parameter: there the buyer comes
    // back on their own, and the invoice.paid webhook applies the change meanwhile. The sandbox's page
    // honours it, so a demo's buyer lands on the result page, which verifies the change.
    url.searchParams.set('return_url', `${this.config.publicUrl}/staff/${serverId}/premium/update/success?provider=stripe&token=${encodeURIComponent(invoice.id!)}`);
    return url.toString();
  }

  /** An upgrade within the billing period, now and prorated; or, if the card needs its buyer, once they paid. */
  async upgrade(row: repo.SubscriptionRow, target: PlanTarget, serverId: string): Promise<ChangePlanResponse> {
    let sub: Stripe.Subscription;
    let invoice: Stripe.Invoice | null = null;
    try {
      sub = await dropScheduledChange(this.stripe, await this.current(row));
      const item = sub.items.data[0]!;
      sub = await this.stripe.subscriptions.update(sub.id, {
        items: [{ id: item.id, price: await this.priceOf(target) }],
        proration_behavior: 'always_invoice',
        // The buyer is at the dashboard (Stripe's default for an update is on-session): a card that
        // asks for authentication, or declines, leaves the change pending until its invoice is paid.
        payment_behavior: 'pending_if_incomplete',
        metadata: { planType: target.plan, planInterval: target.interval, ...NOTHING_SCHEDULED },
      });
      const invoiceId = sub.pending_update ? idOf(sub.latest_invoice) : null;
      if (invoiceId) invoice = await this.stripe.invoices.retrieve(invoiceId);
    } catch (error) {
      throw failure(error, 'Error updating plan');
    }
    if (!sub.pending_update) {
      await this.write(row, sub);
      return { status: 'applied', requiresConfirmation: false, confirmationSession: null };
    }
    if (!invoice?.id || !invoice.hosted_invoice_url) throw new UpstreamError('Error updating plan: the card provider answered without a page to pay the change');
    const invoiceId = invoice.id;
    await this.payments.inPlanTransaction(async (trx) => {
      await repo.replaceOpenPlanChanges(trx, row.id);
      await repo.insertPlanChange(trx, {
        id: randomUUID(),
        provider: 'stripe',
        token: invoiceId,
        subscription_id: row.id,
        server_id: serverId,
        user_id: row.user_id,
        plan_type: target.plan,
        plan_interval: target.interval,
        provider_plan_id: null,
        status: 'open',
      });
      await repo.updateSubscription(trx, row.id, fieldsOfStripe(sub));
      if (row.server_id) await applyPlan(trx, row.server_id);
    });
    return { status: 'confirmation_required', requiresConfirmation: true, confirmationSession: { id: invoiceId, url: this.payUrl(invoice, serverId) } };
  }

  /** A downgrade or a new billing period, from the end of the current period (see the class). */
  async schedule(row: repo.SubscriptionRow, target: PlanTarget, what: string): Promise<ChangePlanResponse> {
    let sub: Stripe.Subscription;
    try {
      sub = await dropScheduledChange(this.stripe, await this.current(row));
      const price = await this.priceOf(target);
      const schedule = await this.stripe.subscriptionSchedules.create({ from_subscription: sub.id });
      const now = schedule.phases[0]!;
      await this.stripe.subscriptionSchedules.update(schedule.id, {
        end_behavior: 'release',
        phases: [
          { items: now.items.map((item) => ({ price: idOf(item.price)!, quantity: item.quantity ?? 1 })), start_date: now.start_date, end_date: now.end_date },
          {
            items: [{ price, quantity: 1 }],
            duration: recurringOf(target.interval),
            proration_behavior: 'none',
            metadata: { planType: target.plan, planInterval: target.interval, ...NOTHING_SCHEDULED },
          },
        ],
      });
      sub = await this.stripe.subscriptions.update(sub.id, {
        metadata: { planType: row.plan_type, planInterval: row.plan_interval, scheduledPlanType: target.plan, scheduledPlanInterval: target.interval, scheduledAt: String(now.end_date) },
      });
    } catch (error) {
      throw failure(error, what);
    }
    await this.write(row, sub);
    return { status: 'scheduled', requiresConfirmation: false, confirmationSession: null };
  }

  /** Drops the change waiting for the end of the period; the subscription renews on its plan and period, nothing charged now. */
  async dropScheduled(row: repo.SubscriptionRow, what: string): Promise<void> {
    let sub: Stripe.Subscription;
    try {
      sub = await dropScheduledChange(this.stripe, await this.stripe.subscriptions.retrieve(row.provider_subscription_id));
    } catch (error) {
      throw failure(error, what);
    }
    await this.write(row, sub);
  }

  /**
   * The update result page's check (the invoice.paid webhook applies it too, stripe-events.ts): the
   * change is applied once its invoice is paid and Stripe applied the pending update. While the
   * invoice waits for the buyer it is processing; a pending update that lapsed (Stripe drops it
   * after 23 hours) failed, and its invoice is voided so that it cannot be paid for nothing.
   */
  async complete(change: repo.PlanChangeRow, row: repo.SubscriptionRow): Promise<StatusResponse> {
    if (change.status === 'complete') return { status: 'complete' };
    if (change.status !== 'open') return { status: 'failed', message: 'This plan change was not paid in time, or another change replaced it; the plan stays as it was' };
    let invoice: Stripe.Invoice;
    let sub: Stripe.Subscription;
    try {
      [invoice, sub] = await Promise.all([this.stripe.invoices.retrieve(change.token), this.stripe.subscriptions.retrieve(row.provider_subscription_id)]);
    } catch {
      return UNVERIFIED;
    }
    if (invoice.status === 'paid' && sub.pending_update) return { status: 'processing', message: 'The card provider is applying the change' };
    if (invoice.status === 'paid') {
      const fields = fieldsOfStripe(sub);
      const applied = fields.plan_type === change.plan_type && fields.plan_interval === change.plan_interval;
      await this.payments.inPlanTransaction(async (trx) => {
        await repo.updateSubscription(trx, row.id, fields);
        await this.payments.receiptOfInvoice(trx, (await repo.findSubscription(trx, row.id))!, invoice);
        await repo.setPlanChangeStatus(trx, change.id, applied ? 'complete' : 'failed');
        if (row.server_id) await applyPlan(trx, row.server_id);
      });
      return applied ? { status: 'complete' } : { status: 'failed', message: 'The invoice was paid after the change had lapsed; contact support for a refund' };
    }
    if (invoice.status === 'open' && sub.pending_update && idOf(sub.latest_invoice) === invoice.id) {
      return { status: 'processing', message: 'The change waits for its payment on the card provider’s page' };
    }
    if (invoice.status === 'open') await this.stripe.invoices.voidInvoice(invoice.id!).catch(() => undefined);
    await repo.setPlanChangeStatus(this.db, change.id, 'failed');
    return { status: 'failed', message: 'The change was not paid in time; the plan stays as it was' };
  }
}
