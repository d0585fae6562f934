import type { PaidPlanType, PaymentProvider } from '@ticket/contracts';
import type { BuiltApp } from '../app';
import type { Config } from '../config';
import { DemoSubscriptions, type DemoAction, type DemoPlan, type PayAtProvider } from '../services/payment';
import type { DemoServer } from './seed';

/** How the demo's paid plans are paid for (issue 13): Premium by card (Stripe), Enterprise by PayPal. */
export const DEMO_PROVIDERS: Record<PaidPlanType, PaymentProvider> = { premium: 'stripe', enterprise: 'paypal' };

/**
 * The buyer on the sandbox's own pages, through its control routes: the Pay button of the card
 * provider's hosted checkout (the default test card that pays), and Agree & Subscribe on PayPal's
 * approval page; with the buyer's e-mail address from the fixtures.
 */
export function payInSandbox(sandboxUrl: string, emailOf: (userId: string) => string | null = () => null): PayAtProvider {
  return async (provider, session, buyerId) => {
    const path =
      provider === 'stripe'
        ? `/_sandbox/stripe/checkout/${encodeURIComponent(session.id)}/pay`
        : `/_sandbox/paypal/subscriptions/${encodeURIComponent(session.id)}/approve`;
    const email = emailOf(buyerId);
    const response = await fetch(`${sandboxUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(email ? { email } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`The sandbox did not pay ${provider} checkout ${session.id}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer().catch(() => undefined);
  };
}

export interface DemoSubscriptionOptions {
  /** Where the sandbox runs (its control routes are under /_sandbox). */
  sandboxUrl: string;
  /** The providers the sandbox plays; a plan paid through another one (configured for real) is not bought. */
  providers: PaymentProvider[];
  emailOf?: (userId: string) => string | null;
}

/** The subscription each paid demo server's owner buys: its plan, monthly, through the plan's provider. */
export function demoPlansOf(servers: DemoServer[]): DemoPlan[] {
  return servers.flatMap((server) =>
    server.plan === 'free' ? [] : [{ serverId: server.serverId, buyerId: server.ownerId, planType: server.plan, interval: 'monthly' as const, provider: DEMO_PROVIDERS[server.plan] }],
  );
}

/**
 * Demo mode only: the paid demo servers hold real subscriptions at the sandbox's providers, made
 * through the product's own checkout, and stay in step with a sandbox that starts empty each time
 * (services/payment/demo-subscriptions.ts). Runs before the API listens, once the servers are
 * recorded; a failure is logged and leaves that server on Free rather than stopping the demo.
 */
export async function seedDemoSubscriptions(built: BuiltApp, config: Config, servers: DemoServer[], options: DemoSubscriptionOptions): Promise<DemoAction[]> {
  const { database, services, app } = built;
  const demo = new DemoSubscriptions(database.db, config, services.payments, payInSandbox(options.sandboxUrl, options.emailOf), options.providers);
  const actions = await demo.ensure(
    demoPlansOf(servers),
    servers.map((s) => s.serverId),
  );
  for (const action of actions) {
    if (action.action === 'failed') app.log.warn({ serverId: action.serverId, subscriptionId: action.subscriptionId }, `demo subscription failed: ${action.message}`);
    else if (action.action !== 'kept') app.log.info({ serverId: action.serverId, subscriptionId: action.subscriptionId }, `demo subscription ${action.action}`);
  }
  return actions;
}
