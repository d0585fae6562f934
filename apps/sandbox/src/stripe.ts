import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { registerBillingRoutes } from './stripe-api-billing.ts';
import { registerCatalogRoutes } from './stripe-api-catalog.ts';
import { registerCheckoutRoutes } from './stripe-api-checkout.ts';
import { registerEventRoutes } from './stripe-api-events.ts';
import { registerScheduleRoutes } from './stripe-api-schedules.ts';
import { registerSearchRoutes } from './stripe-api-search.ts';
import { advanceStripeClock } from './stripe-clock.ts';
import { registerStripeControlRoutes } from './stripe-control.ts';
import { StripeApiError, invalidApiKey, invalidRequest, missingApiKey, unrecognizedUrl } from './stripe-errors.ts';
import { origins } from './stripe-http.ts';
import type { StripeRuntime } from './stripe-http.ts';
import { registerStripePages } from './stripe-pages.ts';
import { STRIPE_API_VERSION, STRIPE_PUBLISHABLE_KEY, StripeStore } from './stripe-store.ts';
import type { StripeOptions } from './stripe-store.ts';
import { StripeWebhooks } from './stripe-webhooks.ts';
import type { SandboxState } from './state.ts';

export { STRIPE_API_VERSION, STRIPE_PUBLISHABLE_KEY, STRIPE_SECRET_KEY } from './stripe-store.ts';
export type { StripeOptions } from './stripe-store.ts';
export { signPayload } from './stripe-webhooks.ts';
export { TEST_CARDS } from './stripe-cards.ts';
export { STRIPE_CONTROL_PREFIX } from './stripe-control.ts';

/** Stripe's API lives at /v1 on the sandbox's own server: the `stripe` SDK takes a host and port, not a path. */
export const STRIPE_API_PREFIX = '/v1';

export interface StripeSandbox extends StripeRuntime {
  secretKey: string;
  publishableKey: string;
}

function apiKeyOf(header: string | undefined): string | null {
  if (!header) return null;
  if (header.startsWith('Bearer ')) return header.slice(7).trim();
  if (header.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    return decoded.split(':')[0] ?? '';
  }
  return header.trim();
}

function idempotencyError(key: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'idempotency_error',
    message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
  });
}

const IDEMPOTENCY_TTL_S = 24 * 3600;

async function stripeApi(api: FastifyInstance, runtime: StripeRuntime): Promise<void> {
  const { store } = runtime;
  // Stripe reads bracket notation (`line_items[0][price]`), which the sandbox's flat form parser would lose.
  api.removeContentTypeParser('application/x-www-form-urlencoded');
  api.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  const pending = new WeakMap<FastifyRequest, { key: string; path: string; body: string }>();

  api.addHook('onRequest', async (request, reply) => {
    const requestId = store.newId('req');
    reply.header('request-id', requestId);
    reply.header('stripe-version', String(request.headers['stripe-version'] ?? STRIPE_API_VERSION));
    store.lastBaseUrl = `${request.protocol}://${request.host}`;
    const key = apiKeyOf(request.headers.authorization);
    if (key === null || key === '') throw missingApiKey();
    if (key !== store.config.secretKey) throw invalidApiKey(key);
    const idempotencyKey = request.method === 'POST' ? (request.headers['idempotency-key'] as string | undefined) ?? null : null;
    origins.set(request, { id: requestId, idempotency_key: idempotencyKey });
  });

  // A POST repeated with the same Idempotency-Key answers what the first one answered, without doing it again.
  api.addHook('preHandler', async (request, reply) => {
    const key = origins.get(request)?.idempotency_key;
    if (!key) return;
    const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? '');
    const path = request.url.split('?')[0] ?? request.url;
    const saved = store.idempotency.get(key);
    if (saved && saved.expiresAt > store.now()) {
      if (saved.path !== path || saved.body !== body) throw idempotencyError(key);
      reply.header('idempotent-replayed', 'true');
      return reply.code(saved.status).type('application/json; charset=utf-8').send(saved.payload);
    }
    pending.set(request, { key, path, body });
    return undefined;
  });

  api.addHook('onSend', async (request, reply, payload) => {
    const entry = pending.get(request);
    // Stripe keeps the answer of a request that ran (success or a card error), not of one refused before it ran.
    if (entry && typeof payload === 'string' && (reply.statusCode < 300 || reply.statusCode === 402)) {
      const { key, path, body } = entry;
      store.idempotency.set(key, { method: request.method, path, body, status: reply.statusCode, payload, expiresAt: store.now() + IDEMPOTENCY_TTL_S });
    }
    return payload;
  });

  api.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof StripeApiError) {
      if (error.status === 401) reply.header('www-authenticate', 'Basic realm="Stripe"');
      return reply.code(error.status).send(error.toJSON());
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
      return reply.code(400).send(invalidRequest('Invalid request body: the JSON could not be parsed.').toJSON());
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode === 415 ? 400 : error.statusCode).send(invalidRequest(error.message).toJSON());
    }
    request.log.error(error);
    return reply.code(500).send({ error: { type: 'api_error', message: 'An unknown error occurred' } });
  });

  api.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    return reply.code(404).send(unrecognizedUrl(request.method, path).toJSON());
  });

  registerCatalogRoutes(api, runtime);
  registerCheckoutRoutes(api, runtime);
  registerBillingRoutes(api, runtime);
  registerScheduleRoutes(api, runtime);
  registerEventRoutes(api, runtime);
  registerSearchRoutes(api, runtime);
}

/**
 * Adds the Stripe stand-in to a sandbox: the API under /v1, the hosted Checkout and invoice pages,
 * control routes under /_sandbox/stripe, renewals on the sandbox clock, and a reset with the world.
 */
export async function registerStripe(app: FastifyInstance, state: SandboxState, options: StripeOptions = {}): Promise<StripeSandbox> {
  const store = new StripeStore(state, options);
  const hooks = new StripeWebhooks(store);
  const runtime: StripeRuntime = { store, hooks };
  state.resetListeners.push(() => {
    store.reset();
    hooks.reset();
  });
  state.clockListeners.push(async (nowMs) => {
    // Webhooks for what the clock did reach the product before POST /_sandbox/clock answers.
    if (advanceStripeClock(store, hooks, Math.floor(nowMs / 1000)) > 0) await hooks.settle();
  });
  app.addHook('onClose', async () => hooks.close());
  await app.register(async (api) => stripeApi(api, runtime), { prefix: STRIPE_API_PREFIX });
  registerStripePages(app, runtime);
  registerStripeControlRoutes(app, runtime);
  return { store, hooks, secretKey: store.config.secretKey, publishableKey: STRIPE_PUBLISHABLE_KEY };
}
