import { webhookCalls } from '@ticket/contracts';
import { routesFor, type AuthResolver } from '../../http/route';
import type { FastifyInstance } from 'fastify';
import type { WebhookService } from './webhook-service';

/** Outgoing webhooks, on the settings base: the server's admins and its API key (the plan is checked by the service). */
export function webhookRoutes(app: FastifyInstance, webhooks: WebhookService, resolver: AuthResolver): void {
  const call = routesFor(app, 'settings', webhookCalls, resolver);
  const admin = { server: 'admin', apiKey: true } as const;

  call('getWebhookEndpoints', admin, ({ params }) => webhooks.list(params.serverId));
  call('createWebhookEndpoint', admin, ({ params, body }) => webhooks.create(params.serverId, body));
  call('getWebhookEndpoint', admin, ({ params }) => webhooks.get(params.serverId, params.endpointId));
  call('updateWebhookEndpoint', admin, ({ params, body }) => webhooks.update(params.serverId, params.endpointId, body));
  call('deleteWebhookEndpoint', admin, ({ params }) => webhooks.delete(params.serverId, params.endpointId));
  call('changeWebhookSecret', admin, ({ params }) => webhooks.rotateSecret(params.serverId, params.endpointId));
  call('getWebhookDeliveries', admin, ({ params, query }) => webhooks.listDeliveries(params.serverId, params.endpointId, query));
  call('createWebhookTestDelivery', admin, ({ params }) => webhooks.sendTest(params.serverId, params.endpointId));
  call('resendWebhookDelivery', admin, ({ params }) => webhooks.resend(params.serverId, params.endpointId, params.deliveryId));
}
