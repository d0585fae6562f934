import type { FastifyInstance } from 'fastify';
import { invalidRequest } from './stripe-errors.ts';
import { listOf, must, render, stripeRoute } from './stripe-http.ts';
import type { StripeRuntime } from './stripe-http.ts';
import { mergeMetadata } from './stripe-params.ts';
import type { Params } from './stripe-params.ts';
import type { StripeEvent, WebhookEndpoint } from './stripe-types.ts';

function enabledEvents(p: Params, required: boolean): string[] | undefined {
  const events = p.strings('enabled_events');
  if (!events) {
    if (required) throw invalidRequest('Missing required param: enabled_events.', { param: 'enabled_events', code: 'parameter_missing' });
    return undefined;
  }
  events.forEach((name, i) => {
    if (name !== '*' && !/^[a-z_]+(\.[a-z_]+)+$/.test(name)) throw invalidRequest(`Invalid enabled_events[${i}]: must be * or an event type such as customer.subscription.updated`, { param: `enabled_events[${i}]` });
  });
  return events;
}

function createdFilter(p: Params): (created: number) => boolean {
  if (!p.has('created')) return () => true;
  const range = p.object('created');
  if (!range) {
    const exact = p.int('created');
    return (created) => created === exact;
  }
  const gt = range.int('gt');
  const gte = range.int('gte');
  const lt = range.int('lt');
  const lte = range.int('lte');
  return (c) => (gt === undefined || c > gt) && (gte === undefined || c >= gte) && (lt === undefined || c < lt) && (lte === undefined || c <= lte);
}

/** `type` may end in `*` (`customer.subscription.*`), as Stripe's event list filter allows. */
function typeMatches(pattern: string, type: string): boolean {
  return pattern.endsWith('*') ? type.startsWith(pattern.slice(0, -1)) : pattern === type;
}

export function registerEventRoutes(api: FastifyInstance, runtime: StripeRuntime): void {
  const { store } = runtime;

  stripeRoute(api, runtime, 'POST', '/webhook_endpoints', (call) => {
    const p = call.params;
    const url = p.url('url', { required: true }) as string;
    const events = enabledEvents(p, true) as string[];
    const description = p.string('description') ?? null;
    const apiVersion = p.string('api_version') ?? null;
    const metadata = mergeMetadata({}, p.metadata());
    p.ignore('connect');
    const expand = p.expand();
    p.finish();
    const endpoint: WebhookEndpoint = {
      id: store.newId('we'),
      object: 'webhook_endpoint',
      api_version: apiVersion,
      application: null,
      created: store.now(),
      description,
      enabled_events: events,
      livemode: false,
      metadata,
      status: 'enabled',
      url,
    };
    const secret = store.config.webhookSecret ?? store.newId('whsec');
    store.endpointSecrets.set(endpoint.id, secret);
    store.add(endpoint);
    // The signing secret is shown once, in the answer to its creation, as on Stripe.
    return { ...(render(store, endpoint, expand) as object), secret };
  });

  stripeRoute(api, runtime, 'GET', '/webhook_endpoints/:id', (call, request) => {
    const expand = call.params.expand();
    call.params.finish();
    return render(store, must(store, 'webhook_endpoint', request.params.id ?? ''), expand);
  });

  stripeRoute(api, runtime, 'POST', '/webhook_endpoints/:id', (call, request) => {
    const endpoint = must(store, 'webhook_endpoint', request.params.id ?? '');
    const p = call.params;
    const url = p.url('url');
    const events = enabledEvents(p, false);
    const disabled = p.bool('disabled');
    const description = p.has('description') ? p.string('description', { allowEmpty: true }) || null : undefined;
    const metadata = p.metadata();
    const expand = p.expand();
    p.finish();
    if (url) endpoint.url = url;
    if (events) endpoint.enabled_events = events;
    if (disabled !== undefined) endpoint.status = disabled ? 'disabled' : 'enabled';
    if (description !== undefined) endpoint.description = description;
    endpoint.metadata = mergeMetadata(endpoint.metadata, metadata);
    return render(store, endpoint, expand);
  });

  stripeRoute(api, runtime, 'DELETE', '/webhook_endpoints/:id', (call, request) => {
    const endpoint = must(store, 'webhook_endpoint', request.params.id ?? '');
    call.params.finish();
    store.remove(endpoint.id);
    store.endpointSecrets.delete(endpoint.id);
    return { id: endpoint.id, object: 'webhook_endpoint', deleted: true };
  });

  stripeRoute(api, runtime, 'GET', '/webhook_endpoints', (call) => listOf(call, store, store.all('webhook_endpoint'), '/v1/webhook_endpoints'));

  stripeRoute(api, runtime, 'GET', '/events/:id', (call, request) => {
    const expand = call.params.expand();
    call.params.finish();
    return render(store, must(store, 'event', request.params.id ?? ''), expand);
  });

  stripeRoute(api, runtime, 'GET', '/events', (call) => {
    const p = call.params;
    const type = p.string('type');
    const types = p.strings('types');
    if (type && types) throw invalidRequest('You may only specify one of these parameters: type, types.', { param: 'types' });
    const created = createdFilter(p);
    p.ignore('delivery_success');
    const items = store
      .all('event')
      .filter((event: StripeEvent) => (!type || typeMatches(type, event.type)) && (!types || types.includes(event.type)) && created(event.created));
    return listOf(call, store, items, '/v1/events');
  });
}
