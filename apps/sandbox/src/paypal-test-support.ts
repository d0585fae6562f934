import { startSandbox } from './index.ts';
import type { RunningSandbox } from './index.ts';
import type { PaypalOptions } from './paypal-store.ts';
import { PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET } from './paypal-store.ts';

export const RETURN_URL = 'http://localhost:5173/staff/1300000000000000001/premium/success?provider=paypal';
export const CANCEL_URL = 'http://localhost:5173/staff/1300000000000000001/premium/cancel?provider=paypal';
export const START = Date.parse('2025-01-15T12:00:00.000Z');
export const DAY_S = 86_400;

export type Json = Record<string, unknown>;
export interface Link {
  href: string;
  rel: string;
  method: string;
}
export interface Money {
  currency_code: string;
  value: string;
}
export interface PaypalErrorBody {
  name: string;
  message: string;
  debug_id: string;
  details: { issue: string; description: string; field?: string; location?: string }[];
  links: Link[];
}
export interface SubscriptionBody {
  id: string;
  status: string;
  status_change_note?: string;
  plan_id: string;
  custom_id?: string;
  start_time: string;
  subscriber?: { email_address?: string; payer_id?: string; name?: { given_name: string; surname: string } };
  billing_info: {
    outstanding_balance: Money;
    next_billing_time?: string;
    last_payment?: { amount: Money; time: string };
    last_failed_payment?: { amount: Money; time: string; reason_code: string; next_payment_retry_time?: string };
    failed_payments_count: number;
    final_payment_time?: string;
    cycle_executions: { tenure_type: string; sequence: number; cycles_completed: number; total_cycles: number }[];
  };
  links: Link[];
}
export interface TransactionsBody {
  transactions: { id: string; status: string; time: string; amount_with_breakdown: { gross_amount: Money; fee_amount: Money; net_amount: Money } }[];
}
export interface EventBody {
  id: string;
  event_version: string;
  create_time: string;
  resource_type: string;
  event_type: string;
  summary: string;
  resource: Record<string, unknown> & { id: string };
  links: Link[];
}
/** GET /_sandbox/paypal/events. */
export interface ControlEvents {
  events: {
    id: string;
    event_type: string;
    subscriptionId: string | null;
    deliveries: { webhookId: string; status: string; attempts: { status: number | null; error: string | null }[] }[];
    event: EventBody;
  }[];
}

export interface PaypalTestSandbox {
  sandbox: RunningSandbox;
  /** What the product's PAYPAL_API_URL would be. */
  base: string;
  clock: { now: number };
  token: string;
  /** A REST call with the access token, as the product makes them. */
  call<T = Json>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: T; text: string; headers: Headers }>;
  control<T = Json>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }>;
  /** Moves the sandbox clock as a test driver would, through POST /_sandbox/clock. */
  advanceDays(days: number): Promise<void>;
  close(): Promise<void>;
}

export function basicAuth(id = PAYPAL_CLIENT_ID, secret = PAYPAL_CLIENT_SECRET): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** A listening sandbox on a hand-driven base clock, with an access token already fetched. */
export async function startPaypalSandbox(paypal: PaypalOptions = {}): Promise<PaypalTestSandbox> {
  const clock = { now: START };
  const sandbox = await startSandbox({ port: 0, now: () => clock.now, paypal: { retryDelaysMs: [30, 60], deliveryTimeoutMs: 2_000, ...paypal } });
  const base = `${sandbox.url}/paypal`;
  const tokenRes = await fetch(`${base}/v1/oauth2/token`, {
    method: 'POST',
    headers: { authorization: basicAuth(), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const call = async <T = Json>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json = (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {}) as T;
    return { status: res.status, text, json, headers: res.headers };
  };
  const control = async <T = Json>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.url}/_sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as T };
  };
  return {
    sandbox,
    base,
    clock,
    token,
    call,
    control,
    advanceDays: async (days) => {
      const res = await control('POST', '/clock', { advanceSeconds: days * DAY_S });
      if (res.status !== 200) throw new Error(`clock: ${JSON.stringify(res.json)}`);
    },
    close: () => sandbox.close(),
  };
}

/** A product and a plan billed every `interval` at `price`, as the product's set-up script would make them. */
export async function createPlan(
  t: PaypalTestSandbox,
  options: { price?: string; unit?: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'; count?: number; totalCycles?: number; threshold?: number; productId?: string; name?: string } = {},
): Promise<{ id: string; product_id: string }> {
  let productId = options.productId;
  if (!productId) {
    const product = await t.call<{ id: string }>('POST', '/v1/catalogs/products', { name: 'Ticket bot Premium', type: 'SERVICE' });
    productId = product.json.id;
  }
  const plan = await t.call<{ id: string; product_id: string }>('POST', '/v1/billing/plans', {
    product_id: productId,
    name: options.name ?? 'Premium monthly',
    billing_cycles: [
      {
        frequency: { interval_unit: options.unit ?? 'MONTH', interval_count: options.count ?? 1 },
        tenure_type: 'REGULAR',
        sequence: 1,
        total_cycles: options.totalCycles ?? 0,
        pricing_scheme: { fixed_price: { value: options.price ?? '2.25', currency_code: 'USD' } },
      },
    ],
    payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: options.threshold ?? 1 },
  });
  if (plan.status !== 201) throw new Error(`plan: ${plan.text}`);
  return plan.json;
}

export async function createSubscription(t: PaypalTestSandbox, planId: string, extra: Json = {}): Promise<SubscriptionBody> {
  const res = await t.call<SubscriptionBody>('POST', '/v1/billing/subscriptions', {
    plan_id: planId,
    custom_id: 'server:1300000000000000001',
    subscriber: { email_address: 'alice@example.com', name: { given_name: 'Alice', surname: 'Anders' } },
    application_context: { brand_name: 'Ticket bot', user_action: 'SUBSCRIBE_NOW', return_url: RETURN_URL, cancel_url: CANCEL_URL },
    ...extra,
  });
  if (res.status !== 201) throw new Error(`subscription: ${res.text}`);
  return res.json;
}

export function linkOf(resource: { links?: Link[] }, rel: string): string {
  const href = resource.links?.find((l) => l.rel === rel)?.href;
  if (!href) throw new Error(`no ${rel} link`);
  return href;
}

/**
 * Opens the approval page and submits its form as a browser would, pressing the button with the
 * given decision; answers the page and where the browser is sent next.
 */
export async function decideOnPage(approveUrl: string, decision: 'approve' | 'cancel'): Promise<{ page: string; status: number; location: string | null }> {
  const pageRes = await fetch(approveUrl);
  const page = await pageRes.text();
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  if (!action) throw new Error(`no form on the approval page (${pageRes.status})`);
  const form = new URLSearchParams();
  for (const match of page.matchAll(/<input type="(?:hidden|email)"[^>]*name="([^"]+)" value="([^"]*)"/g)) form.set(match[1]!, match[2]!);
  const button = new RegExp(`<button type="submit" name="decision" value="${decision}"`).test(page);
  if (!button) throw new Error(`no ${decision} button on the approval page`);
  form.set('decision', decision);
  const res = await fetch(new URL(action, approveUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  return { page, status: res.status, location: res.headers.get('location') };
}

/** Polls until `check` passes: deliveries leave the sandbox after its answer, as PayPal's do. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 3_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
