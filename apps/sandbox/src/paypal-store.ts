import { randomBytes } from 'node:crypto';
import type { SandboxState } from './state.ts';
import { httpUrl } from './sandbox-config.ts';

/** The REST app's credentials on the sandbox's PayPal account; constant, so demo configuration can name them. */
export const PAYPAL_CLIENT_ID = 'sandbox-paypal-client-id';
export const PAYPAL_CLIENT_SECRET = 'sandbox-paypal-client-secret';
/** The id of the webhook made from the `webhookUrl` option, so a demo product can be configured with it up front. */
export const PAYPAL_SANDBOX_WEBHOOK_ID = '0SANDBOXWEBHOOK1P';
export const PAYPAL_APP_ID = 'APP-80W284485P519543T';
/** Where the API is served on the sandbox: the product's PAYPAL_API_URL is `<sandbox url>/paypal`. */
export const PAYPAL_PREFIX = '/paypal';

const DEFAULT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000];
const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

export interface PaypalOptions {
  /** The REST app's client id and secret the OAuth endpoint accepts; default PAYPAL_CLIENT_ID / PAYPAL_CLIENT_SECRET. */
  clientId?: string;
  clientSecret?: string;
  /** Registers a webhook for every event type at this URL, with id PAYPAL_SANDBOX_WEBHOOK_ID; survives resets. */
  webhookUrl?: string | null;
  /** Waits before each retry of a failed delivery; one entry per retry. */
  retryDelaysMs?: number[];
  /** How long one delivery attempt may take before it counts as failed. */
  deliveryTimeoutMs?: number;
  /** Where browsers and the product reach the sandbox (approval links, cert URL); defaults to the host the API was called on. */
  publicUrl?: string | null;
}

export interface PaypalConfig {
  clientId: string;
  clientSecret: string;
  webhookUrl: string | null;
  retryDelaysMs: number[];
  deliveryTimeoutMs: number;
  publicUrl: string | null;
}

export interface Money {
  currency_code: string;
  value: string;
}

export type IntervalUnit = 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';
export type TenureType = 'REGULAR' | 'TRIAL';

export interface BillingCycle {
  frequency: { interval_unit: IntervalUnit; interval_count: number };
  tenure_type: TenureType;
  sequence: number;
  total_cycles: number;
  pricing_scheme: { version: number; fixed_price: Money; create_time: string; update_time: string };
}

/** Stored in the shape the API answers, links aside. */
export interface Product {
  id: string;
  name: string;
  description?: string;
  type: 'PHYSICAL' | 'DIGITAL' | 'SERVICE';
  category?: string;
  image_url?: string;
  home_url?: string;
  create_time: string;
  update_time: string;
}

export interface Plan {
  id: string;
  product_id: string;
  name: string;
  status: 'CREATED' | 'INACTIVE' | 'ACTIVE';
  description?: string;
  usage_type: 'LICENSED';
  billing_cycles: BillingCycle[];
  payment_preferences: {
    service_type: 'PREPAID';
    auto_bill_outstanding: boolean;
    setup_fee: Money;
    setup_fee_failure_action: 'CONTINUE' | 'CANCEL';
    payment_failure_threshold: number;
  };
  quantity_supported: boolean;
  create_time: string;
  update_time: string;
}

export type SubscriptionStatus = 'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';

export interface Payer {
  payer_id: string;
  email_address: string;
  name: { given_name: string; surname: string };
}

export interface CycleExecution {
  tenure_type: TenureType;
  sequence: number;
  cycles_completed: number;
  total_cycles: number;
}

/** What the buyer is asked to agree to on the approval page: a new subscription, or a plan change (revise). */
export interface Approval {
  baToken: string;
  /** The `token` query parameter PayPal adds to the return and cancel URLs. */
  token: string;
  subscriptionId: string;
  kind: 'create' | 'revise';
  planId: string;
  returnUrl: string;
  cancelUrl: string;
  brandName: string | null;
  userAction: 'SUBSCRIBE_NOW' | 'CONTINUE';
}

export interface Subscription {
  id: string;
  planId: string;
  status: SubscriptionStatus;
  statusChangeNote: string | null;
  statusUpdateTime: number;
  startTime: number;
  customId: string | null;
  /** As the merchant sent it on create; replaced by the paying account once approved. */
  subscriber: Record<string, unknown> | null;
  payer: Payer | null;
  createTime: number;
  updateTime: number;
  cycles: CycleExecution[];
  nextBillingTime: number | null;
  /** When an unpaid cycle is tried again (a failure below the plan's threshold). */
  retryTime: number | null;
  finalPaymentTime: number | null;
  lastPayment: { amountCents: number; currency: string; time: number } | null;
  lastFailedPayment: { amountCents: number; currency: string; time: number; nextRetry: number | null } | null;
  failedPaymentsCount: number;
  outstandingCents: number;
  /** Set when the payment failure threshold suspended it: PayPal refuses to reactivate those. */
  suspendedByFailures: boolean;
  /** Payments still to fail, set by POST /_sandbox/paypal/subscriptions/:id/fail-next-payment. */
  failuresPending: number;
  /** The approval link waiting for the buyer: the first approval, or a plan change. */
  approval: Approval | null;
}

export interface Refund {
  id: string;
  saleId: string;
  amountCents: number;
  currency: string;
  time: number;
  noteToPayer: string | null;
}

/** One payment of a subscription: a v1 sale, also reachable as a v2 capture, as PayPal does for subscription payments. */
export interface Sale {
  id: string;
  subscriptionId: string;
  amountCents: number;
  feeCents: number;
  currency: string;
  time: number;
  customId: string | null;
  refunds: Refund[];
}

export interface Webhook {
  id: string;
  url: string;
  event_types: { name: string }[];
}

export interface PaypalEvent {
  id: string;
  event_version: string;
  create_time: string;
  resource_type: string;
  resource_version?: string;
  event_type: string;
  summary: string;
  resource: Record<string, unknown>;
  links: { href: string; rel: string; method: string }[];
}

export interface StoredEvent {
  event: PaypalEvent;
  /** Exactly what is POSTed: JSON.stringify(event), so the product's re-serialised copy has the same CRC. */
  body: string;
}

export interface DeliveryAttempt {
  transmissionId: string;
  transmissionTime: string;
  status: number | null;
  error: string | null;
  at: string;
}

export interface Delivery {
  id: string;
  eventId: string;
  webhookId: string;
  url: string;
  status: 'QUEUED' | 'PENDING' | 'SUCCESS' | 'FAILURE';
  attempts: DeliveryAttempt[];
}

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Upper-case letters and digits, the alphabet of PayPal's ids. */
export function randomId(length: number): string {
  let out = '';
  for (const byte of randomBytes(length)) out += ALPHANUMERIC[byte % 36];
  return out;
}

export const newId = {
  product: () => `PROD-${randomId(17)}`,
  plan: () => `P-${randomId(24)}`,
  subscription: () => `I-${randomId(12)}`,
  baToken: () => `BA-${randomId(17)}`,
  token: () => randomId(17),
  transaction: () => randomId(17),
  webhook: () => randomId(17),
  event: () => `WH-${randomId(19)}-${randomId(17)}`,
  payer: () => randomId(13),
  debug: () => randomBytes(7).toString('hex').slice(0, 13),
};

/** PayPal's timestamps: RFC 3339 in UTC, without milliseconds. */
export function paypalTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Amounts travel as decimal strings; the sandbox keeps whole cents. */
export function toCents(value: string): number | null {
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(value)) return null;
  const [whole = '0', fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export function fromCents(cents: number): string {
  return (cents / 100).toFixed(2);
}

export function money(cents: number, currency: string): Money {
  return { currency_code: currency, value: fromCents(cents) };
}

/** Everything the sandbox's PayPal account holds; cleared by reset() with the rest of the world. */
export class PaypalStore {
  readonly config: PaypalConfig;
  products = new Map<string, Product>();
  plans = new Map<string, Plan>();
  subscriptions = new Map<string, Subscription>();
  approvals = new Map<string, Approval>();
  sales = new Map<string, Sale>();
  refunds = new Map<string, Refund>();
  webhooks = new Map<string, Webhook>();
  events = new Map<string, StoredEvent>();
  deliveries: Delivery[] = [];
  /**
   * Access token → when it stops working, on the sandbox's base clock (see tokenClock). Kept across
   * resets, like the app's credentials: a product caches its token between tests.
   */
  tokens = new Map<string, number>();
  /** `<method> <path> <PayPal-Request-Id>` → the first answer, replayed for a retry. */
  requestIds = new Map<string, { status: number; body: unknown }>();
  /** Where the API was last reached, for links made when no request is at hand (renewals). */
  lastOrigin = 'http://127.0.0.1';

  constructor(
    readonly state: SandboxState,
    options: PaypalOptions = {},
  ) {
    this.config = {
      clientId: options.clientId ?? PAYPAL_CLIENT_ID,
      clientSecret: options.clientSecret ?? PAYPAL_CLIENT_SECRET,
      webhookUrl: options.webhookUrl ?? null,
      retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      deliveryTimeoutMs: options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
      publicUrl: options.publicUrl ?? null,
    };
    this.reset();
  }

  reset(): void {
    this.products = new Map();
    this.plans = new Map();
    this.subscriptions = new Map();
    this.approvals = new Map();
    this.sales = new Map();
    this.refunds = new Map();
    this.webhooks = new Map();
    this.events = new Map();
    this.deliveries = [];
    this.requestIds = new Map();
    this.setWebhookUrl(this.config.webhookUrl);
  }

  /** Points the configured webhook (id PAYPAL_SANDBOX_WEBHOOK_ID, every event) at `url`, or removes it. */
  setWebhookUrl(url: string | null): void {
    this.config.webhookUrl = url;
    this.webhooks.delete(PAYPAL_SANDBOX_WEBHOOK_ID);
    if (url) this.webhooks.set(PAYPAL_SANDBOX_WEBHOOK_ID, { id: PAYPAL_SANDBOX_WEBHOOK_ID, url, event_types: [{ name: '*' }] });
  }

  /** Milliseconds on the sandbox clock, which POST /_sandbox/clock moves. */
  now(): number {
    return this.state.now();
  }

  /**
   * Token lifetimes run on the base clock, not the moved one: a product caches its token for
   * `expires_in` of real time, and moving the sandbox a month ahead must not log it out.
   */
  tokenClock(): number {
    return this.state.now() - this.state.clockOffsetMs;
  }

  origin(): string {
    return this.config.publicUrl ?? this.lastOrigin;
  }

  /** The API base the product is configured with (PAYPAL_API_URL). */
  apiBase(): string {
    return `${this.origin()}${PAYPAL_PREFIX}`;
  }
}

/** What can change while the sandbox runs (`sandbox.paypal.configure`, `PUT /_sandbox/paypal/config`); `null` switches off. */
export interface PaypalConfigChange {
  webhookUrl?: string | null;
  publicUrl?: string | null;
}


/** Applies a configuration change, or answers what is wrong with it (changing nothing). */
export function applyPaypalConfig(store: PaypalStore, change: unknown): string | null {
  if (typeof change !== 'object' || change === null || Array.isArray(change)) return 'the configuration must be an object';
  const entries = Object.entries(change);
  for (const [key, value] of entries) {
    if (key !== 'webhookUrl' && key !== 'publicUrl') return `unknown key ${key}`;
    if (value !== null && httpUrl(value) === null) return `${key} must be an http(s) URL or null`;
  }
  const { webhookUrl, publicUrl } = change as PaypalConfigChange;
  if (publicUrl !== undefined) store.config.publicUrl = publicUrl ? publicUrl.replace(/\/+$/, '') : null;
  if (webhookUrl !== undefined) store.setWebhookUrl(webhookUrl);
  return null;
}
