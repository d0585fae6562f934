import {
  BillingInterval,
  PaidPlanType,
  PRICE_CURRENCY,
  SessionStatus,
  type CreateSessionRequest,
  type PaymentProvider,
  type PriceTable,
  type Receipt,
  type SessionResponse,
  type StatusResponse,
  type Subscription,
  type SubscriptionState,
  type SubscriptionSummary,
} from '@ticket/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config';
import { fromFlag, toFlag, toTimestamp } from '../../db/database';
import type { DB } from '../../db/schema';
import { BadRequestError, ForbiddenError, NotFoundError, UpstreamError } from '../../http/errors';
import type { Caller } from '../../http/route';
import type { PlanChangeListeners } from '../../platform/plan-changes';
import { idOf, type Stripe } from '../../platform/stripe';
import { activateCheckout } from './activate-checkout';
import { inPlanTransaction } from './apply-plan';
import { renderReceiptPdf } from './receipt-pdf';
import type { PaypalPayments } from './paypal-payments';
import { carbonRemovalCents, priceCents, priceTable, recurringOf } from './prices';
import * as repo from './repository';

const PLAN_NAMES: Record<PaidPlanType, string> = { premium: 'Premium', enterprise: 'Enterprise' };

/** Stripe's subscription statuses in the product's three states (SPEC §4). */
export function stateOfStripe(status: Stripe.Subscription.Status): SubscriptionState {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'canceled' || status === 'incomplete_expired') return 'canceled';
  return 'paused';
}

const seconds = (value: number | null | undefined): string | null => (typeof value === 'number' ? toTimestamp(value * 1000) : null);

/** The period of a Stripe subscription (unix seconds): on its first item in current API versions, on the subscription in older ones. */
export function periodOf(sub: Stripe.Subscription): { start: number | null; end: number | null } {
  const item = sub.items?.data?.[0] as (Stripe.SubscriptionItem & { current_period_start?: number; current_period_end?: number }) | undefined;
  const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number };
  return { start: item?.current_period_start ?? legacy.current_period_start ?? null, end: item?.current_period_end ?? legacy.current_period_end ?? null };
}

/**
 * The plan a Stripe subscription pays for, from the metadata we gave it: its plan, or the plan and
 * billing period of a change scheduled for the end of a period (`scheduledPlanType`,
 * `scheduledPlanInterval`, `scheduledAt`) once a period starting then has begun. The schedule that
 * makes the change sets the same metadata when its phase starts; reading the period as well keeps
 * events out of order, or read before that, in agreement. Stripe's record decides.
 */
export function planOf(sub: Stripe.Subscription, periodStart: number | null) {
  const type = PaidPlanType.safeParse(sub.metadata?.planType);
  const interval = BillingInterval.safeParse(sub.metadata?.planInterval);
  if (!type.success || !interval.success) return null;
  const next = PaidPlanType.safeParse(sub.metadata?.scheduledPlanType);
  // Metadata written before the interval was kept means a change of plan only.
  const nextInterval = BillingInterval.catch(interval.data).parse(sub.metadata?.scheduledPlanInterval || interval.data);
  const at = Number(sub.metadata?.scheduledAt);
  const scheduled = next.success && Number.isFinite(at) && at > 0;
  if (scheduled && periodStart !== null && periodStart >= at) {
    return { plan_type: next.data, plan_interval: nextInterval, scheduled_plan_type: null, scheduled_plan_interval: null, scheduled_effective_date: null };
  }
  return {
    plan_type: type.data,
    plan_interval: interval.data,
    scheduled_plan_type: scheduled ? next.data : null,
    scheduled_plan_interval: scheduled ? nextInterval : null,
    scheduled_effective_date: scheduled ? toTimestamp(at * 1000) : null,
  };
}

/** What our row should say after what Stripe says of the subscription. */
export function fieldsOfStripe(sub: Stripe.Subscription) {
  const period = periodOf(sub);
  return {
    state: stateOfStripe(sub.status),
    period_start: seconds(period.start),
    current_period_end: seconds(period.end),
    cancel_at_period_end: toFlag(sub.cancel_at_period_end || sub.cancel_at !== null),
    provider_customer_id: idOf(sub.customer),
    ...(planOf(sub, period.start) ?? {}),
  };
}

/** The subscription an invoice bills: `parent.subscription_details` in current API versions, `subscription` in older ones. */
export function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const parent = invoice.parent?.subscription_details?.subscription;
  return idOf(parent ?? (invoice as unknown as { subscription?: string | { id: string } | null }).subscription);
}

/** The charge that paid an invoice, where the API version still names it. */
export const chargeOfInvoice = (invoice: Stripe.Invoice): string | null => idOf((invoice as unknown as { charge?: string | { id: string } | null }).charge);

export class PaymentService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Config,
    private readonly stripe: Stripe,
    private readonly iconUrl: (serverId: string, icon: string | null) => string | null,
    private readonly paypal: PaypalPayments,
    private readonly plans: PlanChangeListeners,
  ) {}

  /** A transaction that may change servers' plans; the features they give hear of it once committed (apply-plan.ts). */
  inPlanTransaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return inPlanTransaction(this.db, this.plans, work);
  }

  // --- Reading ------------------------------------------------------------------------------

  /** The price table (config.payment) and the providers configured to take payments. */
  prices(): PriceTable {
    const providers: PaymentProvider[] = [];
    if (this.config.payment.stripe.secretKey) providers.push('stripe');
    if (this.paypal.configured) providers.push('paypal');
    return priceTable(this.config.payment, providers);
  }

  async present(rows: repo.SubscriptionRow[]): Promise<Subscription[]> {
    const names = await repo.serverNames(this.db, [...new Set(rows.flatMap((r) => (r.server_id ? [r.server_id] : [])))]);
    return rows.map((row) => {
      const server = row.server_id ? names.get(row.server_id) : undefined;
      return {
        ...summaryOf(row),
        applied: fromFlag(row.applied),
        server: row.server_id && server ? { serverId: row.server_id, name: server.name, iconUrl: this.iconUrl(row.server_id, server.icon) } : null,
        scheduledChange:
          row.scheduled_plan_type && row.scheduled_plan_interval && row.scheduled_effective_date
            ? { planType: row.scheduled_plan_type as PaidPlanType, planInterval: row.scheduled_plan_interval as BillingInterval, effectiveDate: row.scheduled_effective_date }
            : null,
      };
    });
  }

  async serverSubscriptions(serverId: string, options: { multiple?: boolean; provider?: PaymentProvider }): Promise<Subscription[]> {
    let rows = await repo.listByServer(this.db, serverId);
    if (!options.multiple) rows = rows.filter((r) => fromFlag(r.applied));
    if (options.provider) rows = rows.filter((r) => r.provider === options.provider);
    return this.present(rows);
  }

  async mySubscriptions(caller: Caller | null): Promise<Subscription[]> {
    return this.present(await repo.listByUser(this.db, buyerOf(caller)));
  }

  async myReceipts(caller: Caller | null): Promise<Receipt[]> {
    const rows = await repo.listReceipts(this.db, { userId: buyerOf(caller) });
    const names = await repo.serverNames(this.db, [...new Set(rows.flatMap((r) => (r.server_id ? [r.server_id] : [])))]);
    return rows.map((row) => {
      const server = row.server_id ? names.get(row.server_id) : undefined;
      return {
        number: row.number,
        createdAt: row.created_at,
        kind: row.kind,
        subscriptionId: row.subscription_id,
        userId: row.user_id,
        server: row.server_id && server ? { serverId: row.server_id, name: server.name, iconUrl: this.iconUrl(row.server_id, server.icon) } : null,
        planType: row.plan_type as PaidPlanType,
        planInterval: row.plan_interval as BillingInterval,
        periodStart: row.period_start,
        periodEnd: row.period_end,
        amountCents: row.amount_cents,
        currency: row.currency,
        provider: row.provider as PaymentProvider,
        carbonRemovalCents: row.carbon_removal_cents,
      };
    });
  }

  /** One of the caller's receipts as a PDF; someone else's is unknown to them. */
  async receiptPdf(caller: Caller | null, number: number): Promise<{ fileName: string; pdf: Buffer }> {
    const receipt = (await this.myReceipts(caller)).find((r) => r.number === number);
    if (!receipt) throw new NotFoundError(`You have no receipt ${number}`);
    const user = await repo.findUserNames(this.db, receipt.userId);
    return { fileName: `receipt-${number}.pdf`, pdf: await renderReceiptPdf(receipt, user?.global_name ?? user?.username ?? receipt.userId) };
  }

  async bulk(serverIds: string[]): Promise<SubscriptionSummary[]> {
    return (await repo.listApplied(this.db, serverIds)).map(summaryOf);
  }

  // --- Checkout -----------------------------------------------------------------------------

  async createCheckout(caller: Caller | null, serverId: string, queryProvider: PaymentProvider | undefined, request: CreateSessionRequest): Promise<SessionResponse> {
    const userId = buyerOf(caller);
    if (queryProvider && queryProvider !== request.provider) throw new BadRequestError('The provider in the query must be the one in the body', 'querystring.provider');
    if (!(await repo.isServerActive(this.db, serverId))) throw new NotFoundError('The bot is not in this server');
    if (request.provider === 'paypal') return this.paypal.createCheckout(userId, serverId, request);
    if (!this.config.payment.stripe.secretKey) throw new UpstreamError('Card payments are not configured on this server (STRIPE_SECRET_KEY)');

    const base = `${this.config.publicUrl}/staff/${serverId}/premium`;
    const metadata = { serverId, userId, planType: request.type, planInterval: request.interval };
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ quantity: 1, price: await this.stripePrice(request.type, request.interval) }],
        // Stripe puts the session's id in place of the placeholder, which must stay unencoded.
        success_url: `${base}/success?provider=stripe&token={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}/cancel`,
        client_reference_id: serverId,
        metadata,
        subscription_data: { metadata },
      });
    } catch (error) {
      throw upstream(error, 'Could not start the checkout with the card provider');
    }
    if (!session.url) throw new UpstreamError('The card provider answered a checkout without a payment page');
    await repo.insertCheckoutSession(this.db, {
      provider: 'stripe',
      session_id: session.id,
      server_id: serverId,
      user_id: userId,
      plan_type: request.type,
      plan_interval: request.interval,
      status: SessionStatus.catch('open').parse(session.status),
    });
    return { status: SessionStatus.catch('open').parse(session.status), session: { id: session.id, url: session.url } };
  }

  /**
   * The Stripe price of the plan and billing period at today's price table, found by its lookup key
   * and made the first time. A catalog price (unlike Checkout's inline `price_data`, which Stripe
   * makes inactive) can be named again: by a plan change, or a subscription schedule's phases.
   */
  async stripePrice(plan: PaidPlanType, interval: BillingInterval): Promise<string> {
    const amount = priceCents(this.config.payment, plan, interval);
    const currency = PRICE_CURRENCY.toLowerCase();
    const lookupKey = `${plan}_${interval}_${amount}_${currency}`;
    const find = async () => (await this.stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 })).data[0]?.id;
    const known = await find();
    if (known) return known;
    try {
      const price = await this.stripe.prices.create({
        currency,
        unit_amount: amount,
        recurring: recurringOf(interval),
        lookup_key: lookupKey,
        product_data: { name: `${PLAN_NAMES[plan]} (${interval})`, metadata: { planType: plan } },
        metadata: { planType: plan, planInterval: interval },
      });
      return price.id;
    } catch (error) {
      // Another process made it meanwhile: the lookup key is taken.
      const made = await find();
      if (made) return made;
      throw error;
    }
  }

  /**
   * The result page asks: what the provider says of the checkout decides. A paid checkout becomes
   * the server's subscription (once, however often this or the webhook asks).
   */
  async completeCheckout(caller: Caller | null, serverId: string, provider: PaymentProvider, token: string): Promise<StatusResponse> {
    buyerOf(caller);
    if (provider === 'paypal') return this.paypal.complete(serverId, token);
    const row = await repo.findCheckoutSession(this.db, 'stripe', token);
    if (!row || row.server_id !== serverId) throw new NotFoundError('No checkout with this token for this server');
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.retrieve(token);
    } catch {
      return { status: 'unverified', message: 'The payment could not be verified with the card provider; check your e-mail or contact support' };
    }
    if (session.status === 'expired') {
      await repo.updateCheckoutSession(this.db, 'stripe', token, { status: 'expired' });
      return { status: 'failed', message: 'The checkout expired before it was paid' };
    }
    if (session.status !== 'complete' || session.payment_status === 'unpaid' || !session.subscription) {
      return { status: 'processing', message: 'The payment is still being processed' };
    }
    try {
      await this.activate(row, session);
    } catch (error) {
      if (error instanceof NotFoundError) throw error;
      return { status: 'unverified', message: 'The payment could not be verified with the card provider; check your e-mail or contact support' };
    }
    return { status: 'complete' };
  }

  /**
   * A paid checkout becomes our subscription for its server, with its receipt, and the server's
   * plan follows; done again it changes nothing.
   */
  async activate(row: repo.CheckoutSessionRow, session: Stripe.Checkout.Session): Promise<repo.SubscriptionRow> {
    const stripeSubId = idOf(session.subscription);
    if (!stripeSubId) throw new BadRequestError('The checkout has no subscription');
    const sub = await this.stripe.subscriptions.retrieve(stripeSubId);
    const invoiceId = idOf(session.invoice) ?? idOf(sub.latest_invoice);
    const invoice = invoiceId ? await this.stripe.invoices.retrieve(invoiceId) : null;
    return activateCheckout(this.db, this.plans, row, {
      provider: 'stripe',
      id: sub.id,
      firstPaidAt: seconds(invoice?.status_transitions?.paid_at) ?? toTimestamp(Date.now()),
      fields: fieldsOfStripe(sub),
      receipts: async (trx, stored) => {
        if (invoice) await this.receiptOfInvoice(trx, stored, invoice);
      },
    });
  }

  /** A paid invoice's receipt, once per invoice. */
  async receiptOfInvoice(trx: Transaction<DB>, sub: repo.SubscriptionRow, invoice: Stripe.Invoice): Promise<void> {
    if (invoice.status !== 'paid' || invoice.amount_paid <= 0) return;
    const line = invoice.lines?.data?.[0];
    await repo.insertReceipt(trx, {
      subscription_id: sub.id,
      user_id: sub.user_id,
      server_id: sub.server_id,
      kind: 'payment',
      plan_type: sub.plan_type,
      plan_interval: sub.plan_interval,
      period_start: seconds(line?.period?.start ?? invoice.period_start),
      period_end: seconds(line?.period?.end ?? invoice.period_end),
      amount_cents: invoice.amount_paid,
      currency: invoice.currency.toUpperCase(),
      provider: 'stripe',
      provider_payment_id: invoice.id!,
      provider_charge_id: chargeOfInvoice(invoice),
      carbon_removal_cents: carbonRemovalCents(invoice.amount_paid),
    });
  }
}

/** The caller's own subscription; someone else's is unknown to them. */
export async function ownSubscription(db: Kysely<DB>, caller: Caller | null, subscriptionId: string): Promise<repo.SubscriptionRow> {
  if (caller?.kind !== 'user') throw new ForbiddenError('Only a signed-in dashboard user can do this');
  const row = await repo.findSubscription(db, subscriptionId);
  if (!row || row.user_id !== caller.userId) throw new NotFoundError(`You have no subscription ${subscriptionId}`);
  return row;
}

/** The buyer: only a signed-in user pays (an API key or an operator has no one to bill). */
function buyerOf(caller: Caller | null): string {
  if (caller?.kind !== 'user') throw new ForbiddenError('Only a signed-in dashboard user can do this');
  return caller.userId;
}

function summaryOf(row: repo.SubscriptionRow): SubscriptionSummary {
  return {
    id: row.id,
    userId: row.user_id,
    state: row.state as SubscriptionState,
    provider: row.provider as PaymentProvider,
    planInterval: row.plan_interval as BillingInterval,
    planType: row.plan_type as PaidPlanType,
    nextBilling: row.current_period_end,
    cancelAtPeriodEnd: fromFlag(row.cancel_at_period_end),
    ...(row.server_id ? { serverId: row.server_id } : {}),
    ...(row.last_transferred ? { lastTransferred: row.last_transferred } : {}),
  };
}

/** A provider's refusal or failure, as the dashboard is told of it (never the provider's internals). */
export function upstream(error: unknown, what: string): UpstreamError {
  const message = (error as { message?: string } | null)?.message;
  return new UpstreamError(message ? `${what}: ${message}` : what);
}
