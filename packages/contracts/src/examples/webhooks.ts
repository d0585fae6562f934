import type { WebhookDelivery, WebhookEndpoint, webhookCalls } from '../webhooks';
import { EX } from './fixtures';
import type { ExamplesOf } from './types';

const endpointParams = { serverId: EX.serverId, endpointId: EX.endpointId };
const secret = 'whsec_3q2+7wXhZkY2mJqLk9bTn0c4A1sVf8Rr5uHdGe6Pw0o';

const delivery: WebhookDelivery = {
  deliveryId: EX.deliveryId,
  endpointId: EX.endpointId,
  eventId: 'evt_0f3c2a9e6b8d4c1f',
  event: 'ticket.closed',
  status: 'delivered',
  statusCode: 200,
  error: null,
  attempts: 1,
  history: [{ attemptedAt: EX.updatedAt, statusCode: 200, error: null, durationMs: 143 }],
  nextAttemptAt: null,
  createdAt: EX.updatedAt,
  lastAttemptAt: EX.updatedAt,
  deliveredAt: EX.updatedAt,
  redeliveryOf: null,
};

const endpoint: WebhookEndpoint = {
  endpointId: EX.endpointId,
  serverId: EX.serverId,
  url: 'https://hooks.example.com/tickets',
  description: 'Helpdesk sync',
  events: ['ticket.opened', 'ticket.closed', 'message.created'],
  enabled: true,
  secretHint: 'whsec_…Pw0o',
  createdAt: EX.createdAt,
  updatedAt: EX.updatedAt,
  lastDelivery: { deliveryId: EX.deliveryId, event: 'ticket.closed', status: 'delivered', statusCode: 200, at: EX.updatedAt },
};

const testDelivery: WebhookDelivery = {
  ...delivery,
  deliveryId: '2e4f6a8c-0b1d-4e3f-a5b7-c9d1e3f5a7b9',
  eventId: 'evt_7b1e9c3a5d2f4e60',
  event: 'webhook.test',
};

export const webhookExamples: ExamplesOf<typeof webhookCalls> = {
  getWebhookEndpoints: { params: { serverId: EX.serverId }, response: [endpoint] },
  createWebhookEndpoint: {
    params: { serverId: EX.serverId },
    body: { url: 'https://hooks.example.com/tickets', events: ['ticket.opened', 'ticket.closed', 'message.created'], description: 'Helpdesk sync' },
    response: { ...endpoint, updatedAt: EX.createdAt, lastDelivery: null, secret },
  },
  getWebhookEndpoint: { params: endpointParams, response: endpoint },
  updateWebhookEndpoint: {
    params: endpointParams,
    body: { enabled: false },
    response: { ...endpoint, enabled: false },
  },
  deleteWebhookEndpoint: { params: endpointParams },
  changeWebhookSecret: {
    params: endpointParams,
    response: { ...endpoint, secretHint: 'whsec_…9kTq', secret: 'whsec_Hc5mP1zQv8RwK3tYb6nLd0fGs2jXa4eU7oIy9kTq' },
  },
  getWebhookDeliveries: {
    params: endpointParams,
    query: { Page: 1, Amount: 25, status: 'delivered' },
    response: { page: 1, maxPage: 1, elements: [delivery] },
  },
  createWebhookTestDelivery: { params: endpointParams, response: testDelivery },
  resendWebhookDelivery: {
    params: { ...endpointParams, deliveryId: EX.deliveryId },
    response: {
      ...delivery,
      deliveryId: '5c7e9a1b-3d5f-4a7c-9e1b-3d5f7a9c1e3b',
      redeliveryOf: EX.deliveryId,
      history: [{ attemptedAt: '2025-03-18T17:05:00.000Z', statusCode: 200, error: null, durationMs: 98 }],
      createdAt: '2025-03-18T17:05:00.000Z',
      lastAttemptAt: '2025-03-18T17:05:00.000Z',
      deliveredAt: '2025-03-18T17:05:00.000Z',
    },
  },
};
