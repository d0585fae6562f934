import Stripe from 'stripe';
import { startSandbox } from './index.ts';
import type { RunningSandbox } from './index.ts';
import { STRIPE_SECRET_KEY } from './stripe-store.ts';
import type { StripeOptions } from './stripe-store.ts';

export const START = Date.parse('2025-01-15T12:00:00.000Z');
export const START_S = START / 1000;
export const DAY_S = 86_400;
export const SUCCESS_URL = 'http://localhost:5173/staff/1300000000000000001/premium/success?provider=stripe&session_id={CHECKOUT_SESSION_ID}';
export const CANCEL_URL = 'http://localhost:5173/staff/1300000000000000001/premium/cancel?provider=stripe';
export const CARDS = { pays: '4242 4242 4242 4242', declined: '4000 0000 0000 0002', authenticates: '4000 0025 0000 3155', laterDeclines: '4000 0000 0000 0341' } as const;

export interface StripeHarness {
  sandbox: RunningSandbox;
  stripe: Stripe;
  /** JSON to a control route; answers status and body. */
  control<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Moves the sandbox clock, which renews, ends and retries what fell due. */
  advanceDays(days: number): Promise<void>;
  close(): Promise<void>;
}

/** The SDK pointed at a sandbox exactly as the product points it: host, port and protocol. */
export function sdkFor(url: string, key = STRIPE_SECRET_KEY): Stripe {
  const parsed = new URL(url);
  return new Stripe(key, { host: parsed.hostname, port: Number(parsed.port), protocol: 'http', telemetry: false, maxNetworkRetries: 0 });
}

/** A sandbox on a clock that starts at START and moves only through POST /_sandbox/clock. */
export async function startStripeSandbox(stripe: StripeOptions = {}): Promise<StripeHarness> {
  const sandbox = await startSandbox({ port: 0, now: () => START, stripe });
  const control = async <T,>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  return {
    sandbox,
    stripe: sdkFor(sandbox.url),
    control,
    async advanceDays(days) {
      const answer = await control('POST', '/_sandbox/clock', { advanceSeconds: days * DAY_S });
      if (answer.status !== 200) throw new Error(`clock: ${answer.status}`);
    },
    close: () => sandbox.close(),
  };
}

/** The plans of SPEC §9 as Stripe products and prices: Premium and Enterprise, monthly and yearly. */
export async function createPlans(stripe: Stripe) {
  const premium = await stripe.products.create({ name: 'Premium' });
  const enterprise = await stripe.products.create({ name: 'Enterprise' });
  const premiumMonthly = await stripe.prices.create({ product: premium.id, unit_amount: 225, currency: 'usd', recurring: { interval: 'month' }, lookup_key: 'premium_monthly' });
  const enterpriseMonthly = await stripe.prices.create({ product: enterprise.id, unit_amount: 600, currency: 'usd', recurring: { interval: 'month' }, lookup_key: 'enterprise_monthly' });
  const premiumYearly = await stripe.prices.create({ product: premium.id, unit_amount: 2160, currency: 'usd', recurring: { interval: 'year' }, lookup_key: 'premium_annually' });
  return { premium, enterprise, premiumMonthly, enterpriseMonthly, premiumYearly };
}

export async function startCheckout(stripe: Stripe, price: string, extra: Partial<Stripe.Checkout.SessionCreateParams> = {}): Promise<Stripe.Checkout.Session> {
  return stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [{ price, quantity: 1 }],
    success_url: SUCCESS_URL,
    cancel_url: CANCEL_URL,
    customer_email: 'buyer@example.com',
    client_reference_id: '1300000000000000001',
    metadata: { serverId: '1300000000000000001' },
    subscription_data: { metadata: { serverId: '1300000000000000001', userId: '1200000000000000001' } },
    ...extra,
  });
}

/** Posts a hosted page's form as a browser would, without following the redirect. */
export async function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; location: string | null; html: string }> {
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

/** Pays a checkout session on its hosted page with a card (and completes authentication when asked). */
export async function payOnPage(sessionUrl: string, card: string = CARDS.pays): Promise<{ status: number; location: string | null; html: string }> {
  const answer = await postForm(`${sessionUrl}/pay`, { cardNumber: card, expiry: '12 / 34', cvc: '123', name: 'Alice Anders' });
  if (answer.status === 200 && answer.html.includes('Complete authentication')) return postForm(`${sessionUrl}/authenticate`, { outcome: 'complete' });
  return answer;
}

/** A paid monthly Premium subscription, made through the hosted page. */
export async function subscribe(harness: StripeHarness, price: string, card: string = CARDS.pays): Promise<Stripe.Subscription> {
  const session = await startCheckout(harness.stripe, price);
  const paid = await payOnPage(session.url ?? '', card);
  if (paid.status !== 303) throw new Error(`payment failed: ${paid.status}`);
  const done = await harness.stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
  return done.subscription as Stripe.Subscription;
}
