import { PRICE_CURRENCY, type BillingInterval, type CreateSessionRequest, type PaidPlanType, type SessionResponse, type StatusResponse, type SubscriptionState } from '@ticket/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config';
import { toTimestamp } from '../../db/database';
import type { DB } from '../../db/schema';
import { BadRequestError, NotFoundError, UpstreamError } from '../../http/errors';
import { centsOf, PaypalApiError, type PaypalClient, type PaypalSubscription, type PaypalTransaction } from '../../platform/paypal';
import type { PlanChangeListeners } from '../../platform/plan-changes';
import { activateCheckout } from './activate-checkout';
import { applyPlan, inPlanTransaction } from './apply-plan';
import { applyApprovedPaypalChange } from './paypal-plan-change';
import { carbonRemovalCents, priceCents, withinRefundWindow } from './prices';
import * as repo from './repository';
import { upstream } from './service';

const UNVERIFIED = 'The payment could not be verified with PayPal; check your e-mail or contact support';

/** PayPal's subscription statuses in the product's three states (SPEC §4). */
function stateOfPaypal(status: PaypalSubscription['status']): SubscriptionState {
  if (status === 'ACTIVE') return 'active';
  if (status === 'CANCELLED' || status === 'EXPIRED') return 'canceled';
  return 'paused';
}

/**
 * What our row should say after what PayPal says. PayPal stops a subscription at once when it is
 * cancelled; one we cancelled for the end of its period stays active until then (`endLapsed`).
 */
function fieldsOfPaypal(sub: PaypalSubscription, row?: repo.SubscriptionRow) {
  const ending = row?.state === 'active' && row.cancel_at_period_end === 1 && sub.status === 'CANCELLED' && row.current_period_end !== null && Date.parse(row.current_period_end) > Date.now();
  if (ending) return { state: 'active', cancel_at_period_end: 1 };
  const paidAt = sub.billing_info?.last_payment?.time ? Date.parse(sub.billing_info.last_payment.time) : null;
  return {
    state: stateOfPaypal(sub.status),
    period_start: paidAt !== null ? toTimestamp(paidAt) : null,
    current_period_end: sub.billing_info?.next_billing_time ? toTimestamp(Date.parse(sub.billing_info.next_billing_time)) : (row?.current_period_end ?? null),
    cancel_at_period_end: row?.cancel_at_period_end ?? 0,
    ...scheduledChangeDue(row, paidAt),
  };
}

/**
 * A change scheduled for the next billing (paypal-plan-change.ts) becomes the plan once PayPal has
 * billed that cycle: the revised plan is what PayPal charged for it.
 */
function scheduledChangeDue(row: repo.SubscriptionRow | undefined, paidAt: number | null) {
  if (!row?.scheduled_plan_type || !row.scheduled_plan_interval || !row.scheduled_effective_date || paidAt === null) return {};
  // PayPal stamps payments to the second.
  if (paidAt < Date.parse(row.scheduled_effective_date) - 60_000) return {};
  return { plan_type: row.scheduled_plan_type, plan_interval: row.scheduled_plan_interval, scheduled_plan_type: null, scheduled_plan_interval: null, scheduled_effective_date: null };
}

const planName = (type: PaidPlanType) => (type === 'premium' ? 'Premium' : 'Enterprise');

/** A billing plan of PayPal's catalog product for the plan type, billed every interval at `cents`. */
function planBody(productId: string, type: PaidPlanType, interval: BillingInterval, cents: number) {
  return {
    product_id: productId,
    name: `${planName(type)} (${interval})`,
    billing_cycles: [
      {
        frequency: interval === 'annually' ? { interval_unit: 'YEAR', interval_count: 1 } : { interval_unit: 'MONTH', interval_count: { monthly: 1, quarterly: 3, biannually: 6 }[interval] },
        tenure_type: 'REGULAR',
        sequence: 1,
        total_cycles: 0,
        pricing_scheme: { fixed_price: { value: (cents / 100).toFixed(2), currency_code: PRICE_CURRENCY } },
      },
    ],
    payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 1 },
  };
}

interface PaypalEvent {
  id: string;
  event_type: string;
  resource?: Record<string, unknown>;
}

/**
 * PayPal billing subscriptions: a plan from the price table, the buyer's approval on PayPal's page,
 * completion verified with PayPal, and its webhook events (verified by PayPal, each applied once).
 */
export class PaypalPayments {
  /**
   * Catalog products and billing plans settled in this process, by kind and key: the promise is
   * shared, so concurrent checkouts of one process settle each once. The database decides.
   */
  private readonly catalog = new Map<string, Promise<string>>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Config,
    private readonly paypal: PaypalClient,
    private readonly plans: PlanChangeListeners,
  ) {}

  /** A transaction that may change servers' plans; the features they give hear of it once committed (apply-plan.ts). */
  inPlanTransaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return inPlanTransaction(this.db, this.plans, work);
  }

  /** Whether PayPal credentials are configured (PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET). */
  get configured(): boolean {
    return this.paypal.configured;
  }

  /**
   * The PayPal billing plan of the plan type and interval at today's price, made once per
   * installation: a catalog product per plan type and a billing plan per plan type, interval, price,
   * currency and product are recorded in the database (provider_catalog) and reused by every process
   * and after restarts. A revise must stay within the subscription's catalog product, so a plan
   * change names it; the plan's key includes the product.
   */
  async planId(type: PaidPlanType, interval: BillingInterval, productId?: string): Promise<string> {
    const cents = priceCents(this.config.payment, type, interval);
    const product =
      productId ??
      (await this.catalogId(
        'product',
        type,
        async (id) => (await this.lookUp(`/v1/catalogs/products/${encodeURIComponent(id)}`)) !== null,
        async () => (await this.paypal.request<{ id: string }>('POST', '/v1/catalogs/products', { name: planName(type), type: 'SERVICE' })).id,
      ));
    return this.catalogId(
      'plan',
      `${type}:${interval}:${cents}:${PRICE_CURRENCY}:${product}`,
      // A plan deactivated at PayPal takes no subscriptions: it is replaced as if it were gone.
      async (id) => (await this.lookUp<{ status?: string }>(`/v1/billing/plans/${encodeURIComponent(id)}`))?.status === 'ACTIVE',
      async () => (await this.paypal.request<{ id: string }>('POST', '/v1/billing/plans', planBody(product, type, interval, cents))).id,
    );
  }

  /** The catalog object of the key, settled once per process (a failure is tried again next time). */
  private catalogId(kind: repo.CatalogKind, key: string, usable: (id: string) => Promise<boolean>, make: () => Promise<string>): Promise<string> {
    const name = `${kind}/${key}`;
    let settled = this.catalog.get(name);
    if (!settled) {
      settled = this.settleCatalog(kind, key, usable, make);
      this.catalog.set(name, settled);
      settled.catch(() => this.catalog.delete(name));
    }
    return settled;
  }

  /**
   * The recorded object of the key if PayPal still has it (a database kept over a new PayPal
   * account, or demo mode's sandbox that starts empty, may name one it does not); otherwise a new one,
   * recorded in its place. When processes race, the key decides: whoever records first wins and the
   * others use the winner's; the object a loser made stays unused at PayPal.
   */
  private async settleCatalog(kind: repo.CatalogKind, key: string, usable: (id: string) => Promise<boolean>, make: () => Promise<string>): Promise<string> {
    const known = await repo.findCatalogEntry(this.db, 'paypal', kind, key);
    if (known && (await usable(known))) return known;
    const made = await make();
    const recorded = known
      ? await repo.replaceCatalogEntry(this.db, 'paypal', kind, key, known, made)
      : await repo.insertCatalogEntry(this.db, 'paypal', kind, key, made);
    if (recorded) return made;
    const winner = await repo.findCatalogEntry(this.db, 'paypal', kind, key);
    if (!winner) throw new Error(`The PayPal ${kind} ${key} was neither recorded nor found`);
    return winner;
  }

  /** The PayPal object at that path, or null when PayPal has none (404); other failures throw. */
  private async lookUp<T>(path: string): Promise<T | null> {
    try {
      return await this.paypal.request<T>('GET', path);
    } catch (error) {
      if (error instanceof PaypalApiError && error.status === 404) return null;
      throw error;
    }
  }

  async createCheckout(userId: string, serverId: string, request: CreateSessionRequest): Promise<SessionResponse> {
    if (!this.paypal.configured) throw new UpstreamError('PayPal is not configured on this server (PAYPAL_CLIENT_ID)');
    const base = `${this.config.publicUrl}/staff/${serverId}/premium`;
    let sub: PaypalSubscription;
    try {
      sub = await this.paypal.request<PaypalSubscription>('POST', '/v1/billing/subscriptions', {
        plan_id: await this.planId(request.type, request.interval),
        custom_id: serverId,
        application_context: { return_url: `${base}/success?provider=paypal`, cancel_url: `${base}/cancel?provider=paypal`, user_action: 'SUBSCRIBE_NOW', shipping_preference: 'NO_SHIPPING' },
      });
    } catch (error) {
      throw upstream(error, 'Could not start the PayPal subscription');
    }
    const approve = sub.links?.find((l) => l.rel === 'approve')?.href;
    if (!approve) throw new UpstreamError('PayPal answered a subscription without an approval link');
    await repo.insertCheckoutSession(this.db, {
      provider: 'paypal',
      session_id: sub.id,
      server_id: serverId,
      user_id: userId,
      plan_type: request.type,
      plan_interval: request.interval,
      status: 'open',
    });
    return { status: 'open', session: { id: sub.id, url: approve } };
  }

  /** The result page's check: `token` is the subscription id PayPal hands back (`subscription_id`). */
  async complete(serverId: string, token: string): Promise<StatusResponse> {
    const row = await repo.findCheckoutSession(this.db, 'paypal', token);
    if (!row || row.server_id !== serverId) throw new NotFoundError('No checkout with this token for this server');
    let sub: PaypalSubscription;
    try {
      sub = await this.paypal.request<PaypalSubscription>('GET', `/v1/billing/subscriptions/${encodeURIComponent(token)}`);
    } catch {
      return { status: 'unverified', message: UNVERIFIED };
    }
    if (sub.status === 'APPROVAL_PENDING' || sub.status === 'APPROVED') return { status: 'processing', message: 'PayPal is still processing the payment' };
    if (sub.status === 'CANCELLED' || sub.status === 'EXPIRED') {
      if (!(await repo.findByProviderId(this.db, 'paypal', sub.id))) return { status: 'failed', message: 'The PayPal subscription was cancelled before it was paid' };
    }
    try {
      await this.activate(row, sub);
    } catch {
      return { status: 'unverified', message: UNVERIFIED };
    }
    return { status: 'complete' };
  }

  private async transactions(sub: PaypalSubscription): Promise<PaypalTransaction[]> {
    const start = new Date(Date.parse(sub.start_time ?? new Date().toISOString()) - 86_400_000).toISOString();
    const end = new Date(Date.now() + 366 * 86_400_000).toISOString();
    const answer = await this.paypal.request<{ transactions?: PaypalTransaction[] }>(
      'GET',
      `/v1/billing/subscriptions/${encodeURIComponent(sub.id)}/transactions?start_time=${start}&end_time=${end}`,
    );
    return (answer.transactions ?? []).filter((t) => t.status === 'COMPLETED' || t.status === 'REFUNDED' || t.status === 'PARTIALLY_REFUNDED');
  }

  /** An approved, paid PayPal subscription becomes our subscription for its server, with its receipts; again, it changes nothing. */
  async activate(row: repo.CheckoutSessionRow, sub: PaypalSubscription): Promise<void> {
    const paid = await this.transactions(sub);
    await activateCheckout(this.db, this.plans, row, {
      provider: 'paypal',
      id: sub.id,
      firstPaidAt: toTimestamp(paid[0] ? Date.parse(paid[0].time) : Date.now()),
      fields: fieldsOfPaypal(sub),
      changed: (existing) => fieldsOfPaypal(sub, existing),
      receipts: async (trx, stored) => {
        for (const t of paid) await this.receipt(trx, stored, t.id, centsOf(t.amount_with_breakdown.gross_amount), t.amount_with_breakdown.gross_amount.currency_code);
      },
    });
  }

  private async receipt(trx: Transaction<DB>, sub: repo.SubscriptionRow, saleId: string, cents: number, currency: string): Promise<void> {
    if (cents <= 0) return;
    await repo.insertReceipt(trx, {
      subscription_id: sub.id,
      user_id: sub.user_id,
      server_id: sub.server_id,
      kind: 'payment',
      plan_type: sub.plan_type,
      plan_interval: sub.plan_interval,
      period_start: sub.period_start,
      period_end: sub.current_period_end,
      amount_cents: cents,
      currency: currency.toUpperCase(),
      provider: 'paypal',
      provider_payment_id: saleId,
      provider_charge_id: saleId,
      carbon_removal_cents: carbonRemovalCents(cents),
    });
  }

  // --- Webhook -------------------------------------------------------------------------------

  /** The event, if PayPal confirms it sent it to our webhook; 400 otherwise. */
  async verify(headers: Record<string, string | string[] | undefined>, body: unknown): Promise<PaypalEvent> {
    const event = body as PaypalEvent | undefined;
    if (typeof event?.id !== 'string' || typeof event.event_type !== 'string') throw new BadRequestError('Not a PayPal webhook event');
    let verified = false;
    try {
      verified = await this.paypal.verifyWebhook(headers, body);
    } catch {
      verified = false;
    }
    if (!verified) throw new BadRequestError('The PayPal transmission signature could not be verified');
    return event;
  }

  async handle(event: PaypalEvent): Promise<void> {
    if (await repo.isEventRecorded(this.db, 'paypal', event.id)) return;
    try {
      await this.apply(event);
    } catch (error) {
      throw upstream(error, `Could not apply the PayPal event ${event.id}`);
    }
  }

  private async apply(event: PaypalEvent): Promise<void> {
    const resource = event.resource ?? {};
    const record = (db: Kysely<DB> | Transaction<DB> = this.db) => repo.recordEvent(db, 'paypal', event.id, event.event_type);
    let subscriptionId: string | null = null;
    if (event.event_type.startsWith('BILLING.SUBSCRIPTION.')) subscriptionId = typeof resource.id === 'string' ? resource.id : null;
    else if (event.event_type === 'PAYMENT.SALE.COMPLETED') subscriptionId = typeof resource.billing_agreement_id === 'string' ? resource.billing_agreement_id : null;
    else if (event.event_type === 'PAYMENT.SALE.REFUNDED') return this.refunded(event, resource);
    if (!subscriptionId) return void (await record());

    const known = await repo.findByProviderId(this.db, 'paypal', subscriptionId);
    const checkout = known ? null : await repo.findCheckoutSession(this.db, 'paypal', subscriptionId);
    if (!known && !checkout) return void (await record());
    // What PayPal says of the subscription now decides, so late or repeated events put back nothing older.
    const sub = await this.paypal.request<PaypalSubscription>('GET', `/v1/billing/subscriptions/${encodeURIComponent(subscriptionId)}`);
    if (!known) {
      if (sub.status !== 'APPROVAL_PENDING' && sub.status !== 'APPROVED') await this.activate(checkout!, sub);
      return void (await record());
    }
    const sale = event.event_type === 'PAYMENT.SALE.COMPLETED' ? resource : null;
    await this.inPlanTransaction(async (trx) => {
      if (!(await record(trx))) return;
      const locked = (await repo.findByProviderId(trx, 'paypal', subscriptionId, true))!;
      // A revise the buyer approved shows as the subscription on the revised plan.
      for (const change of await repo.openPlanChanges(trx, locked.id)) await applyApprovedPaypalChange(trx, change.id, sub);
      const row = (await repo.findSubscription(trx, locked.id))!;
      await repo.updateSubscription(trx, row.id, fieldsOfPaypal(sub, row));
      const updated = (await repo.findSubscription(trx, row.id))!;
      const amount = sale?.amount as { total?: string; currency?: string } | undefined;
      if (sale && typeof sale.id === 'string' && amount?.total) await this.receipt(trx, updated, sale.id, Math.round(Number(amount.total) * 100), amount.currency ?? PRICE_CURRENCY);
      if (row.server_id) await applyPlan(trx, row.server_id);
    });
  }

  private async refunded(event: PaypalEvent, refund: Record<string, unknown>): Promise<void> {
    const saleId = typeof refund.sale_id === 'string' ? refund.sale_id : null;
    const amount = refund.amount as { total?: string; currency?: string } | undefined;
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.recordEvent(trx, 'paypal', event.id, event.event_type))) return;
      const payment = saleId ? await repo.findPaymentByCharge(trx, 'paypal', saleId) : undefined;
      if (!payment || typeof refund.id !== 'string' || !amount?.total) return;
      // The notification gives the refunded amount negative (a refund's own record, positive): a receipt holds its size.
      const refunds = [{ id: refund.id, amountCents: Math.abs(Math.round(Number(amount.total) * 100)), currency: amount.currency ?? PRICE_CURRENCY, payment }];
      await repo.insertRefundReceipts(trx, { id: payment.subscription_id, user_id: payment.user_id }, 'paypal', refunds);
    });
  }

  // --- Cancelling ----------------------------------------------------------------------------

  /**
   * Cancels at PayPal. Within the refund window every payment is refunded and the plan ends now;
   * after it, PayPal bills no more and the plan stays until the end of the paid period.
   */
  async cancel(row: repo.SubscriptionRow): Promise<void> {
    const refundNow = withinRefundWindow(row.first_paid_at);
    const refunds: repo.RefundMade[] = [];
    try {
      if (refundNow) {
        for (const payment of await repo.unrefundedPayments(this.db, row.id)) {
          const refund = await this.paypal.request<{ id: string; amount?: { total?: string; currency?: string } }>('POST', `/v1/payments/sale/${encodeURIComponent(payment.provider_charge_id!)}/refund`, {});
          refunds.push({ id: refund.id, amountCents: refund.amount?.total ? Math.round(Number(refund.amount.total) * 100) : payment.amount_cents, currency: refund.amount?.currency ?? payment.currency, payment });
        }
      }
      await this.paypal.request('POST', `/v1/billing/subscriptions/${encodeURIComponent(row.provider_subscription_id)}/cancel`, { reason: 'Cancelled from the dashboard' });
    } catch (error) {
      throw upstream(error, 'Could not cancel the subscription with PayPal');
    }
    await this.inPlanTransaction(async (trx) => {
      await repo.insertRefundReceipts(trx, row, 'paypal', refunds);
      // Ending, it changes plan no more: a change waiting for the next billing is dropped.
      const unscheduled = { scheduled_plan_type: null, scheduled_plan_interval: null, scheduled_effective_date: null };
      await repo.updateSubscription(trx, row.id, refundNow ? { state: 'canceled', cancel_at_period_end: 1, ...unscheduled } : { cancel_at_period_end: 1, ...unscheduled });
      await repo.replaceOpenPlanChanges(trx, row.id);
      if (row.server_id) await applyPlan(trx, row.server_id);
    });
  }

  /**
   * Ends the PayPal subscriptions cancelled for the end of a period that is over; run now and then,
   * and at start-up, by any number of processes: each subscription ends once, in the transaction
   * that applies the server's plan, so a process killed half-way leaves it for the next run.
   */
  async endLapsed(at: Date = new Date()): Promise<number> {
    const when = toTimestamp(at);
    let ended = 0;
    for (const row of await repo.listLapsedPaypal(this.db, when)) {
      const mine = await this.inPlanTransaction(async (trx) => {
        if (!(await repo.endLapsedPaypal(trx, row.id, when))) return false;
        if (row.server_id) await applyPlan(trx, row.server_id);
        return true;
      });
      if (mine) ended += 1;
    }
    return ended;
  }
}
