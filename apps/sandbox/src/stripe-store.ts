import { randomBytes } from 'node:crypto';
import type { SandboxState } from './state.ts';
import type { CheckoutLineItem, Interval, Metadata, ObjectName, ObjectOf, Price, StripeObject } from './stripe-types.ts';

/** The test-mode keys of the sandbox's Stripe account; constant, so demo configuration can name them. */
export const STRIPE_SECRET_KEY = 'sk_test_sandbox_4eC39HqLyjWDarjtT1zdp7dc';
export const STRIPE_PUBLISHABLE_KEY = 'pk_test_sandbox_TYooMQauvdEDq54NiTphI7jx';
/** What stripe@23 pins; stamped on events, since the sandbox answers in that version's shapes. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

/** The endpoint id deliveries to `forwardTo` are recorded under. */
export const FORWARD_ENDPOINT = 'forward';

const DEFAULT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000];

export interface StripeOptions {
  /** The secret key the API accepts (Bearer or Basic); defaults to STRIPE_SECRET_KEY. */
  secretKey?: string;
  /**
   * Signs every webhook delivery with this secret instead of a generated one per endpoint, so a
   * product configured with STRIPE_WEBHOOK_SECRET accepts them.
   */
  webhookSecret?: string | null;
  /** Delivers every event here as well, like `stripe listen --forward-to`; survives resets. */
  forwardTo?: string | null;
  /** Waits before each retry of a failed delivery; one entry per retry. */
  retryDelaysMs?: number[];
  /** Where browsers reach the sandbox (checkout and invoice pages); defaults to the host the API was called on. */
  publicUrl?: string | null;
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string | null;
  forwardTo: string | null;
  /** Used for the forwarded deliveries when no webhookSecret is set; made once per sandbox. */
  forwardSecret: string;
  retryDelaysMs: number[];
  publicUrl: string | null;
}

/** One line of an invoice to be made; prorations made with create_prorations wait in a subscription's `pending`. */
export interface LineSpec {
  amount: number;
  description: string;
  priceId: string;
  productId: string;
  quantity: number;
  itemId: string;
  proration: boolean;
  period: { start: number; end: number };
}

/** A subscription update waiting for its invoice to be paid (payment_behavior=pending_if_incomplete). */
export interface PendingChange {
  invoiceId: string;
  /** The items as they will be: an existing item keeps its id. */
  items: { itemId: string | null; price: Price; quantity: number; removed: boolean }[];
  metadata: Metadata | null | undefined;
  /** The update starts a new billing cycle (the interval changed, or billing_cycle_anchor=now). */
  resetCycle: boolean;
}

export interface SubscriptionExtras {
  /** Payment attempts still to fail (set by the fail-next-renewal control route). */
  failuresPending: number;
  pending: LineSpec[];
  pendingChange: PendingChange | null;
}

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  name: string | null;
}

export interface SessionExtras {
  lineItems: CheckoutLineItem[];
  subscriptionMetadata: Metadata;
  subscriptionDescription: string | null;
  /** A payment waiting for the buyer to complete authentication on the page. */
  awaitingAuthentication: { card: CardInput; email: string } | null;
}

/** A payment on the hosted invoice page waiting for the buyer to complete authentication. */
export interface InvoiceAuthentication {
  card: CardInput;
  returnUrl: string | null;
}

export interface IdempotentAnswer {
  method: string;
  path: string;
  body: string;
  status: number;
  payload: string;
  expiresAt: number;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += BASE62[byte % 62];
  return out;
}

/** Ids shaped like Stripe's: a prefix, then a version digit and 23 characters, or 14 for the older kinds. */
const ID_SHAPES: Record<string, (r: (n: number) => string) => string> = {
  cus: (r) => `cus_${r(14)}`,
  prod: (r) => `prod_${r(14)}`,
  si: (r) => `si_${r(14)}`,
  req: (r) => `req_${r(14)}`,
  cs: (r) => `cs_test_a1${r(56)}`,
  whsec: (r) => `whsec_${r(32)}`,
};

function makeId(prefix: string): string {
  const shape = ID_SHAPES[prefix];
  if (shape) return shape(randomToken);
  const version = prefix === 'pi' || prefix === 'ch' || prefix === 're' || prefix === 'txn' ? '3' : '1';
  return `${prefix}_${version}${randomToken(23)}`;
}

const DAY = 86_400;

/** The end of the n-th period after the anchor; months keep the anchor's day, clamped to short months. */
export function periodBoundary(anchor: number, interval: Interval, count: number, n: number): number {
  if (interval === 'day') return anchor + n * count * DAY;
  if (interval === 'week') return anchor + n * count * 7 * DAY;
  const date = new Date(anchor * 1000);
  const months = (interval === 'year' ? 12 : 1) * count * n;
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  return Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()) / 1000;
}

/** Everything the sandbox's Stripe account holds; cleared by reset() with the rest of the world. */
export class StripeStore {
  readonly config: StripeConfig;
  /** Every API object by id. */
  objects = new Map<string, StripeObject>();
  /** The same objects by kind, oldest first; lists read them backwards, newest first as Stripe answers. */
  private byKind = new Map<ObjectName, Map<string, StripeObject>>();
  subscriptionExtras = new Map<string, SubscriptionExtras>();
  sessionExtras = new Map<string, SessionExtras>();
  invoiceAuthentications = new Map<string, InvoiceAuthentication>();
  /** What a saved card does when charged again: its number decides, as Stripe's test cards do. */
  cardNumbers = new Map<string, string>();
  endpointSecrets = new Map<string, string>();
  idempotency = new Map<string, IdempotentAnswer>();
  /** Where the API was last reached, for links made when no request is at hand (renewals). */
  lastBaseUrl = 'http://127.0.0.1';

  constructor(
    readonly state: SandboxState,
    options: StripeOptions = {},
  ) {
    this.config = {
      secretKey: options.secretKey ?? STRIPE_SECRET_KEY,
      webhookSecret: options.webhookSecret ?? null,
      forwardTo: options.forwardTo ?? null,
      forwardSecret: makeId('whsec'),
      retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      publicUrl: options.publicUrl ?? null,
    };
  }

  reset(): void {
    this.objects = new Map();
    this.byKind = new Map();
    this.subscriptionExtras = new Map();
    this.sessionExtras = new Map();
    this.invoiceAuthentications = new Map();
    this.cardNumbers = new Map();
    this.endpointSecrets = new Map();
    this.idempotency = new Map();
  }

  /** Unix seconds on the sandbox clock, which POST /_sandbox/clock moves. */
  now(): number {
    return Math.floor(this.state.now() / 1000);
  }

  newId(prefix: string): string {
    return makeId(prefix);
  }

  baseUrl(): string {
    return this.config.publicUrl ?? this.lastBaseUrl;
  }

  add<T extends StripeObject>(object: T): T {
    this.objects.set(object.id, object);
    let kind = this.byKind.get(object.object);
    if (!kind) {
      kind = new Map();
      this.byKind.set(object.object, kind);
    }
    kind.set(object.id, object);
    return object;
  }

  /** Forgets a deleted object; retrieving it answers 404 from then on. */
  remove(id: string): void {
    const object = this.objects.get(id);
    if (!object) return;
    this.objects.delete(id);
    this.byKind.get(object.object)?.delete(id);
  }

  get<N extends ObjectName>(name: N, id: string): ObjectOf<N> | undefined {
    const object = this.objects.get(id);
    return object?.object === name ? (object as ObjectOf<N>) : undefined;
  }

  /** Newest first. */
  all<N extends ObjectName>(name: N): ObjectOf<N>[] {
    return [...(this.byKind.get(name)?.values() ?? [])].reverse() as ObjectOf<N>[];
  }

  extras(subscriptionId: string): SubscriptionExtras {
    let extras = this.subscriptionExtras.get(subscriptionId);
    if (!extras) {
      extras = { failuresPending: 0, pending: [], pendingChange: null };
      this.subscriptionExtras.set(subscriptionId, extras);
    }
    return extras;
  }

  /** The secret an endpoint's deliveries are signed with; the forwarded ones follow the configuration. */
  secretFor(endpointId: string): string {
    if (endpointId === FORWARD_ENDPOINT) return this.config.webhookSecret ?? this.config.forwardSecret;
    return this.endpointSecrets.get(endpointId) ?? this.config.forwardSecret;
  }
}
