import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest, noSuch } from './stripe-errors.ts';
import type { BillingContext } from './stripe-invoices.ts';
import { Params } from './stripe-params.ts';
import type { StripeStore } from './stripe-store.ts';
import type { ObjectName, ObjectOf, Origin, StripeList } from './stripe-types.ts';
import type { StripeWebhooks } from './stripe-webhooks.ts';

export interface StripeRuntime {
  store: StripeStore;
  hooks: StripeWebhooks;
}

/** What the /v1 hooks learnt about a request: its request id and idempotency key, for `event.request`. */
export const origins = new WeakMap<FastifyRequest, { id: string; idempotency_key: string | null }>();

export interface StripeCall {
  params: Params;
  origin: Origin;
  /** A billing context stamped now, for changes this request makes. */
  ctx(): BillingContext;
}

type Handler = (call: StripeCall, request: FastifyRequest<{ Params: Record<string, string> }>, reply: FastifyReply) => unknown;

/** GET and DELETE take their parameters in the query string (as the SDK sends them), POST in the body. */
function paramsOf(request: FastifyRequest): Params {
  if (request.method === 'POST') return Params.from(request.body);
  return Params.from(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
}

export function stripeRoute(api: FastifyInstance, runtime: StripeRuntime, method: 'GET' | 'POST' | 'DELETE', url: string, handler: Handler): void {
  api.route<{ Params: Record<string, string> }>({
    method,
    url,
    handler: async (request, reply) => {
      const origin = origins.get(request) ?? null;
      const call: StripeCall = {
        params: paramsOf(request),
        origin,
        ctx: () => ({ store: runtime.store, hooks: runtime.hooks, at: runtime.store.now(), origin }),
      };
      return handler(call, request, reply);
    },
  });
}

const NOUNS: Partial<Record<ObjectName, string>> = {
  'checkout.session': 'checkout.session',
  subscription_item: 'subscription item',
  subscription_schedule: 'subscription schedule',
  payment_intent: 'payment_intent',
  payment_method: 'PaymentMethod',
  webhook_endpoint: 'webhook endpoint',
};

/** The object, or Stripe's 404 `No such customer: 'cus_…'`. */
export function must<N extends ObjectName>(store: StripeStore, name: N, id: string, param = 'id'): ObjectOf<N> {
  const found = store.get(name, id);
  if (!found) throw noSuch(NOUNS[name] ?? name, id, param);
  return found;
}

function expandInto(store: StripeStore, holder: unknown, segments: string[], path: string): void {
  if (Array.isArray(holder)) {
    for (const entry of holder) expandInto(store, entry, segments, path);
    return;
  }
  if (holder === null || typeof holder !== 'object' || segments.length === 0) return;
  const record = holder as Record<string, unknown>;
  const [head = '', ...rest] = segments;
  let value = record[head];
  if (value === undefined && head === 'line_items' && record.object === 'checkout.session') {
    const lines = store.sessionExtras.get(String(record.id))?.lineItems ?? [];
    value = { object: 'list', data: structuredClone(lines), has_more: false, url: `/v1/checkout/sessions/${String(record.id)}/line_items` };
    record[head] = value;
  } else if (value === undefined) {
    throw invalidRequest(`This property cannot be expanded (${path}).`, { param: 'expand' });
  } else if (typeof value === 'string') {
    const found = store.objects.get(value);
    if (found) {
      value = structuredClone(found);
      record[head] = value;
    }
  }
  expandInto(store, value, rest, path);
}

/** A copy of the object with `expand[]` paths (`subscription`, `data.customer`, `latest_invoice.payments`) filled in. */
export function render(store: StripeStore, object: unknown, expand: string[]): unknown {
  if (expand.length === 0) return object;
  const copy = structuredClone(object);
  for (const path of expand) {
    const segments = path.split('.');
    if (segments.length > 4) throw invalidRequest(`You cannot expand more than 4 levels of a property. Property: ${path}`, { param: 'expand' });
    expandInto(store, copy, segments, path);
  }
  return copy;
}

/** A list answer with Stripe's cursor paging (`limit`, `starting_after`, `ending_before`); `items` newest first. */
export function listOf<T extends { id: string }>(call: StripeCall, store: StripeStore, items: T[], url: string): StripeList<T> | unknown {
  const p = call.params;
  const limit = p.int('limit', { min: 1, max: 100 }) ?? 10;
  const after = p.string('starting_after');
  const before = p.string('ending_before');
  const expand = p.expand();
  p.finish();
  let data: T[];
  let hasMore: boolean;
  if (before) {
    const index = items.findIndex((item) => item.id === before);
    if (index < 0) throw invalidRequest(`No such object: '${before}'`, { param: 'ending_before', code: 'resource_missing', status: 404 });
    data = items.slice(Math.max(0, index - limit), index);
    hasMore = index - limit > 0;
  } else {
    let start = 0;
    if (after) {
      const index = items.findIndex((item) => item.id === after);
      if (index < 0) throw invalidRequest(`No such object: '${after}'`, { param: 'starting_after', code: 'resource_missing', status: 404 });
      start = index + 1;
    }
    data = items.slice(start, start + limit);
    hasMore = start + limit < items.length;
  }
  return render(store, { object: 'list', data, has_more: hasMore, url }, expand);
}
