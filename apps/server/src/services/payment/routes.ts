import { paymentCalls } from '@ticket/contracts';
import type { FastifyRequest } from 'fastify';
import { keepRawJsonBody } from '../../http/raw-json-body';
import { routesFor } from '../../http/route';
import type { Stripe } from '../../platform/stripe';
import type { ServiceContext } from '../context';
import type { PaypalPayments } from './paypal-payments';

/** The verified event of a webhook request, from its signature check to its handler. */
const verified = new WeakMap<FastifyRequest, Stripe.Event>();
const verifiedPaypal = new WeakMap<FastifyRequest, Awaited<ReturnType<PaypalPayments['verify']>>>();

export async function paymentRoutes({ app, services, resolver }: ServiceContext): Promise<void> {
  const { payments, stripeEvents, subscriptionActions, planChanges, paypalPayments } = services;
  const call = routesFor(app, 'payment', paymentCalls, resolver);

  // Signatures cover the body as received.
  keepRawJsonBody(app);

  // Buying needs a buyer: staff of the server who signed in (SPEC §6), never its API key.
  const buyer = { server: 'staff' } as const;
  call('getPrices', 'open', () => payments.prices());
  call('getSubscriptionsBulk', 'operator', ({ body }) => payments.bulk(body.ids));
  call('getMySubscriptions', 'signedIn', (_input, request) => payments.mySubscriptions(request.caller));
  call('getMyReceipts', 'signedIn', (_input, request) => payments.myReceipts(request.caller));
  call('getReceiptPdf', 'signedIn', async ({ params }, request, reply) => {
    const { fileName, pdf } = await payments.receiptPdf(request.caller, Number(params.number));
    reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${fileName}"`).header('cache-control', 'private, no-store');
    return pdf;
  });
  call('changePlan', 'signedIn', ({ body }, request) => planChanges.changePlan(request.caller, body));
  call('cancelScheduledChange', 'signedIn', ({ body }, request) => planChanges.cancelScheduledChange(request.caller, body.subscriptionId));
  call('cancelSubscription', 'signedIn', ({ body }, request) => subscriptionActions.cancel(request.caller, body.subscriptionId));
  call('transferSubscription', 'signedIn', ({ body }, request) => subscriptionActions.transfer(request.caller, body.subscriptionId, body.serverId));
  call('getServerSubscription', { server: 'staff', apiKey: true }, ({ params, query }) => payments.serverSubscriptions(params.serverId, query));
  call('createCheckoutSession', buyer, ({ params, query, body }, request) => payments.createCheckout(request.caller, params.serverId, query.provider, body));
  call('completeCheckout', buyer, ({ params, query }, request) => payments.completeCheckout(request.caller, params.serverId, query.provider, query.token));
  call('completePlanUpdate', buyer, ({ params, query }, request) => planChanges.completePlanUpdate(request.caller, params.serverId, query.provider, query.token));
  call('revokeSubscription', { server: 'admin' }, ({ params }) => subscriptionActions.revoke(params.serverId));
  call('handleStripeWebhook', 'open', (_input, request) => stripeEvents.handle(verified.get(request)!), {
    preValidation: async (request) => {
      verified.set(request, stripeEvents.verify(request.rawBody, request.headers['stripe-signature']));
    },
  });
  // PayPal's signature is checked by PayPal itself (verify-webhook-signature), over the parsed event.
  call('handlePaypalWebhook', 'open', (_input, request) => paypalPayments.handle(verifiedPaypal.get(request)!), {
    preValidation: async (request) => {
      verifiedPaypal.set(request, await paypalPayments.verify(request.headers, request.body));
    },
  });
}
