import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONTROL_PREFIX } from './control.ts';
import { TEST_CARDS } from './stripe-cards.ts';
import { authenticateCheckout, authenticateInvoice, payCheckout, payInvoiceWithCard } from './stripe-checkout-pay.ts';
import type { StripeRuntime } from './stripe-http.ts';
import { FORWARD_ENDPOINT, STRIPE_PUBLISHABLE_KEY } from './stripe-store.ts';
import type { Delivery } from './stripe-webhooks.ts';
import { httpUrl } from './sandbox-config.ts';

export const STRIPE_CONTROL_PREFIX = `${CONTROL_PREFIX}/stripe`;

type Body = Record<string, unknown>;

function bad(reply: FastifyReply, status: number, error: string) {
  return reply.code(status).send({ error });
}


/** What a changed configuration must look like; null when it is fine. */
export function checkStripeConfig(body: Body): string | null {
  const known = new Set(['webhookSecret', 'forwardTo', 'retryDelaysMs', 'publicUrl']);
  const unknown = Object.keys(body).filter((k) => !known.has(k));
  if (unknown.length > 0) return `unknown key(s): ${unknown.join(', ')} (known: ${[...known].join(', ')})`;
  if (body.webhookSecret !== undefined && body.webhookSecret !== null && (typeof body.webhookSecret !== 'string' || body.webhookSecret === '')) {
    return 'webhookSecret must be a non-empty string or null';
  }
  if (body.forwardTo !== undefined && body.forwardTo !== null && httpUrl(body.forwardTo) === null) return 'forwardTo must be an http(s) URL or null';
  if (body.publicUrl !== undefined && body.publicUrl !== null && httpUrl(body.publicUrl) === null) return 'publicUrl must be an http(s) URL or null';
  if (
    body.retryDelaysMs !== undefined &&
    (!Array.isArray(body.retryDelaysMs) || body.retryDelaysMs.length > 20 || body.retryDelaysMs.some((d) => typeof d !== 'number' || !Number.isFinite(d) || d < 0))
  ) {
    return 'retryDelaysMs must be an array of at most 20 delays in milliseconds';
  }
  return null;
}

function describeDelivery(delivery: Delivery) {
  return { ...delivery, attempts: delivery.attempts.map((a) => ({ ...a })) };
}

/** Levers for tests under /_sandbox/stripe; plain `{error}` answers like the other control routes. */
export function registerStripeControlRoutes(app: FastifyInstance, runtime: StripeRuntime): void {
  const { store, hooks } = runtime;
  const p = STRIPE_CONTROL_PREFIX;

  const describe = (request: FastifyRequest) => {
    const base = store.config.publicUrl ?? `${request.protocol}://${request.host}`;
    const url = new URL(base);
    return {
      secretKey: store.config.secretKey,
      publishableKey: STRIPE_PUBLISHABLE_KEY,
      apiBase: `${base}/v1`,
      /** The options to give `new Stripe(secretKey, …)` so the SDK talks to this sandbox. */
      sdk: { host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), protocol: url.protocol.replace(':', '') },
      webhookSecret: store.config.webhookSecret,
      forwardTo: store.config.forwardTo,
      forwardSecret: store.secretFor(FORWARD_ENDPOINT),
      retryDelaysMs: store.config.retryDelaysMs,
      publicUrl: store.config.publicUrl,
      deliveriesHeld: hooks.held,
      testCards: TEST_CARDS,
      endpoints: store.all('webhook_endpoint').map((e) => ({ id: e.id, url: e.url, enabledEvents: e.enabled_events, status: e.status, secret: store.secretFor(e.id) })),
    };
  };

  app.get(p, async (request) => describe(request));

  app.put<{ Body: Body | undefined }>(`${p}/config`, async (request, reply) => {
    const body = request.body ?? {};
    const problem = checkStripeConfig(body);
    if (problem) return bad(reply, 400, problem);
    if (body.webhookSecret !== undefined) store.config.webhookSecret = body.webhookSecret as string | null;
    if (body.forwardTo !== undefined) store.config.forwardTo = body.forwardTo as string | null;
    if (body.publicUrl !== undefined) store.config.publicUrl = body.publicUrl as string | null;
    if (body.retryDelaysMs !== undefined) store.config.retryDelaysMs = [...(body.retryDelaysMs as number[])];
    return describe(request);
  });

  app.get(`${p}/state`, async () => {
    const group = <N extends Parameters<typeof store.all>[0]>(name: N) => store.all(name).reverse();
    return {
      now: store.now(),
      customers: group('customer'),
      products: group('product'),
      prices: group('price'),
      checkoutSessions: group('checkout.session'),
      subscriptions: group('subscription').map((sub) => ({ ...sub, sandbox: { failuresPending: store.extras(sub.id).failuresPending, pendingLines: store.extras(sub.id).pending } })),
      invoices: group('invoice'),
      paymentIntents: group('payment_intent'),
      charges: group('charge'),
      refunds: group('refund'),
      webhookEndpoints: group('webhook_endpoint'),
      events: group('event').map((e) => ({ id: e.id, type: e.type, created: e.created, objectId: (e.data.object as { id?: string }).id ?? null })),
      deliveries: hooks.deliveries.map(describeDelivery),
      deliveriesHeld: hooks.held,
    };
  });

  // Oldest first, so a test can read them in the order they happened.
  app.get<{ Querystring: { type?: string } }>(`${p}/events`, async (request) => ({
    events: store
      .all('event')
      .reverse()
      .filter((e) => !request.query.type || e.type === request.query.type),
  }));

  app.get<{ Querystring: { eventId?: string; endpointId?: string; state?: string } }>(`${p}/deliveries`, async (request) => {
    const { eventId, endpointId, state } = request.query;
    return {
      held: hooks.held,
      deliveries: hooks.deliveries.filter((d) => (!eventId || d.eventId === eventId) && (!endpointId || d.endpointId === endpointId) && (!state || d.state === state)).map(describeDelivery),
    };
  });

  app.post(`${p}/deliveries/pause`, async () => {
    hooks.pause();
    return { held: true };
  });

  app.post(`${p}/deliveries/resume`, async () => {
    const released = hooks.deliveries.filter((d) => d.state === 'held');
    await hooks.resume();
    return { held: false, deliveries: released.map(describeDelivery) };
  });

  // Waits until every delivery under way has had its answer (retries waiting on a timer are not awaited).
  app.post(`${p}/deliveries/flush`, async () => {
    await hooks.settle();
    return { deliveries: hooks.deliveries.map(describeDelivery) };
  });

  app.post<{ Params: { id: string }; Body: Body | undefined }>(`${p}/events/:id/resend`, async (request, reply) => {
    if (!store.get('event', request.params.id)) return bad(reply, 404, `unknown event ${request.params.id}`);
    const endpointId = request.body?.endpointId;
    if (endpointId !== undefined && typeof endpointId !== 'string') return bad(reply, 400, 'endpointId must be a string');
    const made = hooks.redeliver(request.params.id, endpointId ? { endpointId } : {});
    if (made.length === 0) return bad(reply, 409, 'no webhook endpoint takes this event');
    await hooks.settle();
    return { deliveries: made.map(describeDelivery) };
  });

  app.post<{ Body: Body | undefined }>(`${p}/events/deliver`, async (request, reply) => {
    const ids = request.body?.ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.some((id) => typeof id !== 'string')) return bad(reply, 400, 'ids must be a non-empty array of event ids');
    const missing = (ids as string[]).filter((id) => !store.get('event', id));
    if (missing.length > 0) return bad(reply, 404, `unknown event(s): ${missing.join(', ')}`);
    const done = await hooks.deliverInOrder(ids as string[]);
    return { deliveries: done.map(describeDelivery) };
  });

  app.post<{ Params: { id: string }; Body: Body | undefined }>(`${p}/subscriptions/:id/fail-next-renewal`, async (request, reply) => {
    const subscription = store.get('subscription', request.params.id);
    if (!subscription) return bad(reply, 404, `unknown subscription ${request.params.id}`);
    const failures = request.body?.failures ?? 1;
    if (typeof failures !== 'number' || !Number.isInteger(failures) || failures < 0 || failures > 100) return bad(reply, 400, 'failures must be an integer from 0 to 100');
    store.extras(subscription.id).failuresPending = failures;
    return { subscription: subscription.id, failuresPending: failures };
  });

  // The hosted page's Pay button without a browser: {cardNumber?, email?, name?, expiry?, authentication?: 'complete'|'fail'}.
  app.post<{ Params: { id: string }; Body: Body | undefined }>(`${p}/checkout/:id/pay`, async (request, reply) => {
    const session = store.get('checkout.session', request.params.id);
    if (!session) return bad(reply, 404, `unknown checkout session ${request.params.id}`);
    const body = request.body ?? {};
    const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : undefined);
    let result = payCheckout(runtime, session, { cardNumber: text('cardNumber') ?? TEST_CARDS.success, email: text('email') ?? 'buyer@example.com', name: text('name'), expiry: text('expiry') });
    if (result.kind === 'authenticate') result = authenticateCheckout(runtime, session, text('authentication') !== 'fail');
    if (result.kind === 'paid') return { status: 'paid', subscription: result.subscriptionId, redirect: result.redirect, session };
    if (result.kind === 'closed') return bad(reply, 409, `the checkout session is ${result.status}`);
    if (result.kind === 'error') return reply.code(result.status).send({ error: result.message });
    return bad(reply, 500, 'unexpected result');
  });

  // The hosted invoice page's Pay button without a browser: {cardNumber?, name?, expiry?, authentication?: 'complete'|'fail'}.
  app.post<{ Params: { id: string }; Body: Body | undefined }>(`${p}/invoices/:id/pay`, async (request, reply) => {
    const invoice = store.get('invoice', request.params.id);
    if (!invoice) return bad(reply, 404, `unknown invoice ${request.params.id}`);
    const body = request.body ?? {};
    const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : undefined);
    let result = payInvoiceWithCard(runtime, invoice, { cardNumber: text('cardNumber') ?? TEST_CARDS.success, name: text('name'), expiry: text('expiry') });
    if (result.kind === 'authenticate') result = authenticateInvoice(runtime, invoice, text('authentication') !== 'fail');
    if (result.kind === 'error') return reply.code(result.status).send({ error: result.message });
    await hooks.settle();
    return { status: 'paid', invoice, subscription: store.get('subscription', invoice.subscription) ?? null };
  });
}
