import type { BillingInterval, CheckoutSession, PaidPlanType, PaymentProvider } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { DB } from '../../db/schema';
import type { Caller } from '../../http/route';
import { PaypalApiError, PaypalClient } from '../../platform/paypal';
import { createStripe, type Stripe } from '../../platform/stripe';
import { applyPlan } from './apply-plan';
import * as repo from './repository';
import type { PaymentService } from './service';

/** A paid plan demo mode gives a server: bought by `buyerId` (the server's owner) through `provider`. */
export interface DemoPlan {
  serverId: string;
  buyerId: string;
  planType: PaidPlanType;
  interval: BillingInterval;
  provider: PaymentProvider;
}

/**
 * What the buyer does on the provider's own page (the card form, PayPal's approval page) once the
 * checkout has started. Demo mode hands in one that acts on the sandbox's pages.
 */
export type PayAtProvider = (provider: PaymentProvider, session: CheckoutSession, buyerId: string) => Promise<void>;

export interface DemoAction {
  serverId: string;
  /**
   * bought: the server had none and got its plan; kept: the provider knows the subscription;
   * replaced: the provider had forgotten it (a fresh sandbox) and it was bought again in its place;
   * ended: the provider had forgotten one that was cancelled for the end of its period; failed: see message.
   */
  action: 'bought' | 'kept' | 'replaced' | 'ended' | 'failed';
  subscriptionId: string | null;
  message?: string;
}

const isLive = (row: repo.SubscriptionRow) => row.state !== 'canceled';

/**
 * Demo mode's paid plans (issue 13): a demo server on a paid plan holds a real subscription at the
 * sandbox's providers, bought by its owner through the product's own checkout (createCheckout, the
 * provider's page, completeCheckout), with its receipt; its plan then comes from that subscription
 * as any server's does.
 *
 * The database persists across starts while the sandbox starts empty each time. A server that has
 * (or had) a subscription gets no second one: what its buyer did with it in the dashboard stands
 * (cancelled, moved to another server, detached). A live subscription the provider no longer knows
 * is bought again the same way (same buyer, provider, plan, billing period, server) and replaces
 * the stale one, its receipts, checkout and plan changes with it, so cancelling or changing it
 * reaches a subscription the provider has (a change scheduled for the end of its period is not
 * carried over). One that was cancelled for the end of its period simply ends.
 */
export class DemoSubscriptions {
  private readonly stripe: Stripe;
  private readonly paypal: PaypalClient;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Config,
    private readonly payments: PaymentService,
    private readonly pay: PayAtProvider,
    /** The providers the sandbox plays; subscriptions and plans of any other provider are left alone. */
    private readonly providers: readonly PaymentProvider[],
  ) {
    this.stripe = createStripe(config.payment.stripe);
    this.paypal = new PaypalClient(config.payment.paypal);
  }

  /**
   * Brings the demo servers' subscriptions in step with the providers, and gives each plan's server
   * its subscription if it never had one. `serverIds` are all the demo's servers (also the free
   * ones: what a visitor bought for them is kept in step too); every one's plan is then applied
   * from its subscriptions, whatever an older demo database stored.
   */
  async ensure(plans: DemoPlan[], serverIds: string[] = []): Promise<DemoAction[]> {
    if (!this.config.demo) throw new Error('Demo subscriptions are only made in demo mode');
    const servers = [...new Set([...serverIds, ...plans.map((p) => p.serverId)])];
    const rowsOf = new Map<string, repo.SubscriptionRow[]>();
    for (const serverId of servers) rowsOf.set(serverId, await this.rowsOf(serverId));

    const actions: DemoAction[] = [];
    const seen = new Set<string>();
    for (const serverId of servers) {
      for (const row of rowsOf.get(serverId)!) {
        if (seen.has(row.id) || !isLive(row) || !this.providers.includes(row.provider as PaymentProvider)) continue;
        seen.add(row.id);
        actions.push(await this.attempt(row.server_id ?? serverId, row.id, () => this.refresh(row)));
      }
    }
    for (const plan of plans) {
      if (rowsOf.get(plan.serverId)!.length > 0 || !this.providers.includes(plan.provider)) continue;
      actions.push(await this.attempt(plan.serverId, null, async () => ({ action: 'bought', subscriptionId: await this.buy(plan) })));
    }
    for (const serverId of servers) await this.payments.inPlanTransaction((trx) => applyPlan(trx, serverId));
    return actions;
  }

  private async attempt(serverId: string, subscriptionId: string | null, run: () => Promise<Omit<DemoAction, 'serverId'>>): Promise<DemoAction> {
    try {
      return { serverId, ...(await run()) };
    } catch (error) {
      return { serverId, action: 'failed', subscriptionId, message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The server's subscriptions: attached to it now, or bought for it and moved or detached since. */
  private async rowsOf(serverId: string): Promise<repo.SubscriptionRow[]> {
    const attached = await repo.listByServer(this.db, serverId);
    const boughtHere = await repo.listBoughtOnServer(this.db, serverId);
    const ids = new Set(attached.map((r) => r.id));
    return [...attached, ...boughtHere.filter((r) => !ids.has(r.id))];
  }

  /** Whether the provider still has the subscription (a fresh sandbox answers 404). */
  private async known(row: repo.SubscriptionRow): Promise<boolean> {
    try {
      if (row.provider === 'paypal') await this.paypal.request('GET', `/v1/billing/subscriptions/${encodeURIComponent(row.provider_subscription_id)}`);
      else await this.stripe.subscriptions.retrieve(row.provider_subscription_id);
      return true;
    } catch (error) {
      const status = error instanceof PaypalApiError ? error.status : (error as { statusCode?: number } | null)?.statusCode;
      if (status === 404) return false;
      throw error;
    }
  }

  private async refresh(row: repo.SubscriptionRow): Promise<Omit<DemoAction, 'serverId'>> {
    if (await this.known(row)) return { action: 'kept', subscriptionId: row.id };
    const origin = (await repo.firstCheckoutServer(this.db, row.id)) ?? row.server_id;
    if (row.cancel_at_period_end === 1 || !origin) {
      await this.payments.inPlanTransaction(async (trx) => {
        await repo.updateSubscription(trx, row.id, { state: 'canceled' });
        if (row.server_id) await applyPlan(trx, row.server_id);
      });
      return { action: 'ended', subscriptionId: row.id };
    }
    // Bought where it was first bought (its buyer could buy there), then put where it is now.
    const id = await this.buy({ serverId: origin, buyerId: row.user_id, planType: row.plan_type as PaidPlanType, interval: row.plan_interval as BillingInterval, provider: row.provider as PaymentProvider });
    await this.payments.inPlanTransaction(async (trx) => {
      await repo.updateSubscription(trx, id, { server_id: row.server_id, last_transferred: row.last_transferred, applied: 0 });
      await repo.deleteSubscriptionAndHistory(trx, row.id);
      await applyPlan(trx, origin);
      if (row.server_id && row.server_id !== origin) await applyPlan(trx, row.server_id);
    });
    return { action: 'replaced', subscriptionId: id };
  }

  /** Buys the plan as its buyer would in the dashboard; answers the new subscription's id. */
  private async buy(plan: DemoPlan): Promise<string> {
    const caller: Caller = { kind: 'user', userId: plan.buyerId, sessionId: 'demo-seed' };
    const { session } = await this.payments.createCheckout(caller, plan.serverId, plan.provider, { provider: plan.provider, type: plan.planType, interval: plan.interval });
    await this.pay(plan.provider, session, plan.buyerId);
    const result = await this.payments.completeCheckout(caller, plan.serverId, plan.provider, session.id);
    if (result.status !== 'complete') throw new Error(`The ${plan.provider} checkout ${session.id} for ${plan.serverId} is ${result.status}: ${result.message ?? ''}`);
    const checkout = await repo.findCheckoutSession(this.db, plan.provider, session.id);
    if (!checkout?.subscription_id) throw new Error(`The ${plan.provider} checkout ${session.id} made no subscription`);
    return checkout.subscription_id;
  }
}
