import type { FastifyInstance } from 'fastify';
import { BodyCheck, isObject, legacyError, requireBody } from './paypal-errors.ts';
import type { PaypalWorld } from './paypal-events.ts';
import { EVENT_TYPES, QUIET_EVENT_TYPES } from './paypal-events.ts';
import type { Webhook } from './paypal-store.ts';
import { newId } from './paypal-store.ts';
import { AUTH_ALGO, CERT_ID, signingKey, verifyTransmission } from './paypal-signing.ts';

const DOCS = 'v1/notifications/webhooks/';
/** PayPal allows ten webhooks per REST app. */
const MAX_WEBHOOKS = 10;

type IdRoute = { Params: { id: string }; Body: unknown };

function describeTypes(names: { name: string }[]) {
  return names.map(({ name }) => ({ name, description: name === '*' ? 'ALL' : (EVENT_TYPES[name] ?? name), status: 'ENABLED' }));
}

function validationError(field: string, issue: string) {
  return legacyError(400, 'VALIDATION_ERROR', 'Invalid data provided', DOCS, [{ field, issue }]);
}

function readEventTypes(value: unknown): { name: string }[] {
  if (!Array.isArray(value) || value.length === 0) throw validationError('event_types', 'Required field is missing');
  return value.map((entry, i) => {
    const name = isObject(entry) ? entry.name : undefined;
    if (typeof name !== 'string' || !(name === '*' || name in EVENT_TYPES || QUIET_EVENT_TYPES.includes(name))) {
      throw validationError(`event_types[${i}].name`, 'Event type is not supported or is not valid.');
    }
    return { name };
  });
}

function readUrl(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw validationError('url', 'Required field is missing');
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
  } catch {
    throw validationError('url', 'Invalid URL.');
  }
  return value;
}

export function registerPaypalWebhookRoutes(api: FastifyInstance, world: PaypalWorld): void {
  const { store, delivery } = world;
  const webhookJson = (webhook: Webhook) => ({
    id: webhook.id,
    url: webhook.url,
    event_types: describeTypes(webhook.event_types),
    links: [
      { href: `${store.apiBase()}/v1/notifications/webhooks/${webhook.id}`, rel: 'self', method: 'GET' },
      { href: `${store.apiBase()}/v1/notifications/webhooks/${webhook.id}`, rel: 'update', method: 'PATCH' },
      { href: `${store.apiBase()}/v1/notifications/webhooks/${webhook.id}`, rel: 'delete', method: 'DELETE' },
    ],
  });
  const find = (id: string): Webhook => {
    const webhook = store.webhooks.get(id);
    if (!webhook) throw legacyError(404, 'INVALID_RESOURCE_ID', 'Webhook not found.', DOCS);
    return webhook;
  };

  api.post('/v1/notifications/webhooks', async (request, reply) => {
    const body = requireBody(request.body, DOCS);
    const url = readUrl(body.url);
    const eventTypes = readEventTypes(body.event_types);
    if ([...store.webhooks.values()].some((webhook) => webhook.url === url)) {
      throw legacyError(400, 'WEBHOOK_URL_ALREADY_EXISTS', 'Webhook URL already exists', DOCS);
    }
    if (store.webhooks.size >= MAX_WEBHOOKS) throw legacyError(400, 'WEBHOOK_NUMBER_LIMIT_EXCEEDED', 'Maximum number of webhooks exceeded', DOCS);
    const webhook: Webhook = { id: newId.webhook(), url, event_types: eventTypes };
    store.webhooks.set(webhook.id, webhook);
    return reply.code(201).send(webhookJson(webhook));
  });

  api.get('/v1/notifications/webhooks', async () => ({ webhooks: [...store.webhooks.values()].map(webhookJson) }));

  api.get<IdRoute>('/v1/notifications/webhooks/:id', async (request) => webhookJson(find(request.params.id)));

  /** JSON Patch with `replace` of `/url` or `/event_types`, the two operations PayPal supports. */
  api.patch<IdRoute>('/v1/notifications/webhooks/:id', async (request) => {
    const webhook = find(request.params.id);
    if (!Array.isArray(request.body)) throw validationError('patch_request', 'Required field is missing');
    for (const op of request.body) {
      if (!isObject(op) || op.op !== 'replace') throw validationError('op', 'Only replace is supported.');
      if (op.path === '/url') webhook.url = readUrl(op.value);
      else if (op.path === '/event_types') webhook.event_types = readEventTypes(op.value);
      else throw validationError('path', 'Only /url and /event_types can be replaced.');
    }
    return webhookJson(webhook);
  });

  api.delete<IdRoute>('/v1/notifications/webhooks/:id', async (request, reply) => {
    store.webhooks.delete(find(request.params.id).id);
    return reply.code(204).send();
  });

  api.get<IdRoute>('/v1/notifications/webhooks/:id/event-types', async (request) => ({ event_types: describeTypes(find(request.params.id).event_types) }));

  api.get('/v1/notifications/webhooks-event-types', async () => ({
    event_types: Object.entries(EVENT_TYPES).map(([name, description]) => ({ name, description, status: 'ENABLED', resource_versions: ['1.0', '2.0'] })),
  }));

  api.get<{ Querystring: Record<string, string | undefined> }>('/v1/notifications/webhooks-events', async (request) => {
    const pageSize = Math.min(Math.max(Number(request.query.page_size) || 10, 1), 300);
    const type = request.query.event_type;
    const events = [...store.events.values()]
      .map((stored) => stored.event)
      .filter((event) => !type || event.event_type === type)
      .reverse()
      .slice(0, pageSize);
    return { events, count: events.length, links: [] };
  });

  api.get<IdRoute>('/v1/notifications/webhooks-events/:id', async (request) => {
    const stored = store.events.get(request.params.id);
    if (!stored) throw legacyError(404, 'INVALID_RESOURCE_ID', 'Webhook event not found.', DOCS);
    return stored.event;
  });

  api.post<IdRoute>('/v1/notifications/webhooks-events/:id/resend', async (request, reply) => {
    const stored = store.events.get(request.params.id);
    if (!stored) throw legacyError(404, 'INVALID_RESOURCE_ID', 'Webhook event not found.', DOCS);
    const ids = isObject(request.body) && Array.isArray(request.body.webhook_ids) ? request.body.webhook_ids.filter((id): id is string => typeof id === 'string') : undefined;
    void delivery.deliverNow([stored.event.id], ids);
    return reply.code(202).send(stored.event);
  });

  /**
   * PayPal's postback check. Like PayPal it re-serialises `webhook_event`, so the CRC is taken over
   * JSON.stringify of what the caller sends: a product passing the parsed delivery body gets SUCCESS,
   * and any changed field, another webhook id or a signature the sandbox did not make gets FAILURE.
   */
  api.post('/v1/notifications/verify-webhook-signature', async (request) => {
    const body = requireBody(request.body, DOCS);
    const check = new BodyCheck(body);
    const algo = check.string('/auth_algo', { required: true });
    const certUrl = check.string('/cert_url', { required: true });
    const transmissionId = check.string('/transmission_id', { required: true });
    const transmissionSig = check.string('/transmission_sig', { required: true });
    const transmissionTime = check.string('/transmission_time', { required: true });
    const webhookId = check.string('/webhook_id', { required: true });
    const event = check.object('/webhook_event', true);
    check.done(DOCS);
    let verified = false;
    try {
      const certPath = new URL(certUrl ?? '').pathname;
      verified =
        algo === AUTH_ALGO &&
        certPath.endsWith(`/v1/notifications/certs/${CERT_ID}`) &&
        verifyTransmission(transmissionId ?? '', transmissionTime ?? '', webhookId ?? '', JSON.stringify(event), transmissionSig ?? '');
    } catch {
      verified = false;
    }
    return { verification_status: verified ? 'SUCCESS' : 'FAILURE' };
  });
}

/** The certificate behind PAYPAL-CERT-URL; public, as PayPal's is. */
export function registerPaypalCertRoute(api: FastifyInstance): void {
  api.get<{ Params: { certId: string } }>('/v1/notifications/certs/:certId', async (request, reply) => {
    if (request.params.certId !== CERT_ID) return reply.code(404).send();
    return reply.header('content-type', 'application/x-pem-file').send(signingKey().certificatePem);
  });
}
