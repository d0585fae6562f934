import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { BadRequestError } from '../../http/errors';
import { idOf, STRIPE_WEBHOOK_TOLERANCE_SECONDS, type Stripe } from '../../platform/stripe';
import { applyPlan } from './apply-plan';
import * as repo from './repository';
import { fieldsOfStripe, subscriptionOfInvoice, upstream, type PaymentService } from './service';

/**
 * Stripe's webhook events. Each is kept by its id and applied once; what an event says of a
 * subscription is read again from Stripe before it is applied, so events arriving late or out of
 * order never put back an older state. Events about subscriptions we do not know change nothing.
 */
export class StripeEvents {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly stripe: Stripe,
    private readonly webhookSecret: string,
    private readonly payments: PaymentService,
  ) {}

  /** The event the raw body carries, if the signature header proves Stripe sent it (within 5 minutes). */
  verify(rawBody: string | undefined, signature: string | string[] | undefined): Stripe.Event {
    if (typeof signature !== 'string' || signature === '') throw new BadRequestError('The Stripe-Signature header is missing');
    if (!this.webhookSecret) throw new BadRequestError('Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)');
    try {
      return this.stripe.webhooks.constructEvent(rawBody ?? '', signature, this.webhookSecret, STRIPE_WEBHOOK_TOLERANCE_SECONDS);
    } catch {
      throw new BadRequestError('The Stripe-Signature header does not match the body');
    }
  }

  async handle(event: Stripe.Event): Promise<void> {
    if (await repo.isEventRecorded(this.db, 'stripe', event.id)) return;
    try {
      await this.apply(event);
    } catch (error) {
      // Stripe delivers again until it is answered 2xx; the event is not marked as done.
      throw upstream(error, `Could not apply the Stripe event ${event.id}`);
    }
  }

  private async apply(event: Stripe.Event): Promise<void> {
    switch (event.type) {
      case 'checkout.session.completed':
        return this.sessionCompleted(event, event.data.object);
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return this.subscriptionChanged(event, event.data.object.id);
      case 'invoice.paid':
      case 'invoice.payment_failed':
        return this.invoiceEvent(event, event.data.object);
      case 'charge.refunded':
        return this.chargeRefunded(event, event.data.object);
      default:
        await repo.recordEvent(this.db, 'stripe', event.id, event.type);
    }
  }

  private async sessionCompleted(event: Stripe.Event, session: Stripe.Checkout.Session): Promise<void> {
    const row = await repo.findCheckoutSession(this.db, 'stripe', session.id);
    if (row && session.subscription) {
      const fresh = await this.stripe.checkout.sessions.retrieve(session.id);
      if (fresh.status === 'complete' && fresh.payment_status !== 'unpaid') await this.payments.activate(row, fresh);
    }
    await repo.recordEvent(this.db, 'stripe', event.id, event.type);
  }

  /** Our subscription takes what Stripe says of it now; its server's plan follows. */
  private async subscriptionChanged(event: Stripe.Event, stripeSubId: string, failedInvoice?: Stripe.Invoice): Promise<void> {
    const known = await repo.findByProviderId(this.db, 'stripe', stripeSubId);
    if (!known) {
      await repo.recordEvent(this.db, 'stripe', event.id, event.type);
      return;
    }
    const sub = await this.stripe.subscriptions.retrieve(stripeSubId);
    const fields = fieldsOfStripe(sub);
    // A renewal that failed leaves the subscription unpaid until a later payment succeeds.
    if (failedInvoice && fields.state === 'active' && idOf(sub.latest_invoice) === failedInvoice.id) {
      const invoice = await this.stripe.invoices.retrieve(failedInvoice.id!);
      if (invoice.status !== 'paid') fields.state = 'paused';
    }
    await this.payments.inPlanTransaction(async (trx) => {
      if (!(await repo.recordEvent(trx, 'stripe', event.id, event.type))) return;
      const row = (await repo.findByProviderId(trx, 'stripe', stripeSubId, true))!;
      await repo.updateSubscription(trx, row.id, fields);
      if (row.server_id) await applyPlan(trx, row.server_id);
    });
  }

  private async invoiceEvent(event: Stripe.Event, invoice: Stripe.Invoice): Promise<void> {
    const stripeSubId = subscriptionOfInvoice(invoice);
    if (!stripeSubId) {
      await repo.recordEvent(this.db, 'stripe', event.id, event.type);
      return;
    }
    if (event.type === 'invoice.payment_failed') return this.subscriptionChanged(event, stripeSubId, invoice);
    const known = await repo.findByProviderId(this.db, 'stripe', stripeSubId);
    if (!known) {
      // A checkout's first invoice may come before the checkout itself: its receipt is made then.
      await repo.recordEvent(this.db, 'stripe', event.id, event.type);
      return;
    }
    const [sub, fresh] = await Promise.all([this.stripe.subscriptions.retrieve(stripeSubId), this.stripe.invoices.retrieve(invoice.id!)]);
    const change = await repo.findPlanChange(this.db, 'stripe', fresh.id!);
    await this.payments.inPlanTransaction(async (trx) => {
      if (!(await repo.recordEvent(trx, 'stripe', event.id, event.type))) return;
      const row = (await repo.findByProviderId(trx, 'stripe', stripeSubId, true))!;
      const fields = fieldsOfStripe(sub);
      await repo.updateSubscription(trx, row.id, fields);
      const updated = (await repo.findSubscription(trx, row.id))!;
      await this.payments.receiptOfInvoice(trx, updated, fresh);
      // The invoice of an upgrade that waited for its buyer is paid: Stripe has applied the change.
      if (change?.status === 'open' && change.subscription_id === row.id && fresh.status === 'paid' && !sub.pending_update) {
        await repo.setPlanChangeStatus(trx, change.id, fields.plan_type === change.plan_type && fields.plan_interval === change.plan_interval ? 'complete' : 'failed');
      }
      if (row.server_id) await applyPlan(trx, row.server_id);
    });
  }

  /** A refund made here or in Stripe's dashboard: a refund receipt for each refund of a charge we have a payment of. */
  private async chargeRefunded(event: Stripe.Event, charge: Stripe.Charge): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.recordEvent(trx, 'stripe', event.id, event.type))) return;
      const payment = await repo.findPaymentByCharge(trx, 'stripe', charge.id);
      if (!payment) return;
      const refunds = charge.refunds?.data?.length ? charge.refunds.data.map((r) => ({ id: r.id, amount: r.amount })) : [{ id: charge.id, amount: charge.amount_refunded }];
      const made = refunds.filter((r) => r.amount > 0).map((r) => ({ id: r.id, amountCents: r.amount, currency: charge.currency, payment }));
      await repo.insertRefundReceipts(trx, { id: payment.subscription_id, user_id: payment.user_id }, 'stripe', made);
    });
  }
}
