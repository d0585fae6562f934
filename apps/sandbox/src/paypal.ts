import type { FastifyError, FastifyInstance } from 'fastify';
import type { SandboxState } from './state.ts';
import { registerPaypalApprovalPages } from './paypal-approval-page.ts';
import { registerPaypalOAuthRoutes, requireAccessToken } from './paypal-auth.ts';
import { runBilling } from './paypal-billing.ts';
import { registerPaypalCatalogRoutes } from './paypal-catalog.ts';
import { registerPaypalControlRoutes } from './paypal-control.ts';
import { PaypalDelivery } from './paypal-delivery.ts';
import { PaypalError, internalError, malformedJson } from './paypal-errors.ts';
import type { PaypalWorld } from './paypal-events.ts';
import { registerPaypalPaymentRoutes } from './paypal-payments.ts';
import { PAYPAL_PREFIX, PAYPAL_SANDBOX_WEBHOOK_ID, PaypalStore, applyPaypalConfig, newId } from './paypal-store.ts';
import type { PaypalConfigChange, PaypalOptions } from './paypal-store.ts';
import { registerPaypalSubscriptionRoutes } from './paypal-subscriptions.ts';
import { registerPaypalCertRoute, registerPaypalWebhookRoutes } from './paypal-webhooks.ts';

export type { PaypalConfigChange, PaypalOptions } from './paypal-store.ts';
export type { PaypalWorld } from './paypal-events.ts';

/** The PayPal stand-in as createSandbox hands it out: its credentials, its world, and run-time wiring. */
export interface PaypalSandbox extends PaypalWorld {
  clientId: string;
  clientSecret: string;
  /** The id of the webhook `webhookUrl` points at; the product's PAYPAL_WEBHOOK_ID. */
  webhookId: string;
  /** Changes `webhookUrl` / `publicUrl` (an omitted key stays, `null` switches it off). Throws on bad input. */
  configure(change: PaypalConfigChange): void;
}

function renderError(error: FastifyError | PaypalError): { status: number; body: unknown } {
  if (error instanceof PaypalError) return { status: error.status, body: error.body };
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 415, body: { name: 'UNSUPPORTED_MEDIA_TYPE', message: "The server does not support the request payload's media type.", debug_id: newId.debug(), details: [] } };
  }
  if (error.code?.startsWith('FST_ERR_CTP_') || error instanceof SyntaxError) return { status: 400, body: malformedJson().body };
  return { status: 500, body: internalError().body };
}

/**
 * PayPal's REST API (OAuth, catalog products, billing plans and subscriptions, payments, webhooks)
 * and the buyer's approval page, under /paypal; its control routes under /_sandbox/paypal.
 * The PayPal world is cleared by the sandbox's reset and billed when its clock moves.
 */
export async function registerPaypal(app: FastifyInstance, state: SandboxState, options: PaypalOptions = {}): Promise<PaypalSandbox> {
  const store = new PaypalStore(state, options);
  const delivery = new PaypalDelivery(store);
  const world: PaypalWorld = { store, delivery };
  state.resetListeners.push(() => {
    delivery.reset();
    store.reset();
  });
  state.clockListeners.push(async (now) => {
    runBilling(world, now);
    // So a test that moved the clock sees the renewals' first deliveries made when its call returns.
    await delivery.idle();
  });
  app.addHook('onClose', async () => delivery.close());

  await app.register(
    async (paypal) => {
      // Empty bodies are normal on PayPal's action calls (activate, capture); bad JSON gets PayPal's 400.
      paypal.removeContentTypeParser('application/json');
      paypal.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
        const text = typeof body === 'string' ? body : body.toString('utf8');
        if (text.trim() === '') return done(null, undefined);
        try {
          done(null, JSON.parse(text));
        } catch {
          done(malformedJson(), undefined);
        }
      });
      paypal.setErrorHandler((error: FastifyError | PaypalError, request, reply) => {
        const { status, body } = renderError(error);
        if (status === 500) request.log.error(error);
        return reply.code(status).send(body);
      });
      paypal.setNotFoundHandler((_request, reply) => reply.code(404).send({ name: 'NOT_FOUND', message: 'The specified resource does not exist.', debug_id: newId.debug(), details: [] }));
      paypal.addHook('onRequest', async (request) => {
        store.lastOrigin = `${request.protocol}://${request.host}`;
      });

      registerPaypalOAuthRoutes(paypal, store);
      registerPaypalCertRoute(paypal);
      registerPaypalApprovalPages(paypal, world);
      await paypal.register(async (api) => {
        api.addHook('onRequest', async (request) => requireAccessToken(store, request));
        registerPaypalCatalogRoutes(api, store);
        registerPaypalSubscriptionRoutes(api, world);
        registerPaypalPaymentRoutes(api, world);
        registerPaypalWebhookRoutes(api, world);
      });
    },
    { prefix: PAYPAL_PREFIX },
  );
  registerPaypalControlRoutes(app, world);
  return {
    ...world,
    clientId: store.config.clientId,
    clientSecret: store.config.clientSecret,
    webhookId: PAYPAL_SANDBOX_WEBHOOK_ID,
    configure(change) {
      const problem = applyPaypalConfig(store, change);
      if (problem) throw new Error(`Invalid PayPal sandbox configuration: ${problem}`);
    },
  };
}
