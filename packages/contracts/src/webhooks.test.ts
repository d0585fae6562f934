import { describe, expect, it } from 'vitest';
import { CreateWebhookEndpointRequest, serviceCalls, UpdateWebhookEndpointRequest, WEBHOOK_EVENTS, WebhookPayload } from './index';

const fieldsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => result.error?.issues.map((i) => i.path.join('.')) ?? [];

describe('webhook contracts', () => {
  it('are calls of the settings base', () => {
    expect(Object.keys(serviceCalls.settings)).toEqual(
      expect.arrayContaining(['getWebhookEndpoints', 'createWebhookEndpoint', 'changeWebhookSecret', 'getWebhookDeliveries', 'createWebhookTestDelivery', 'resendWebhookDelivery']),
    );
  });

  it('take an http(s) URL without credentials and at least one known event, once each', () => {
    const ok = CreateWebhookEndpointRequest.safeParse({ url: 'https://hooks.example.com/tickets', events: ['ticket.opened', 'message.created'] });
    expect(ok.success).toBe(true);
    expect(fieldsOf(CreateWebhookEndpointRequest.safeParse({ url: 'ftp://hooks.example.com', events: ['ticket.opened'] }))).toEqual(['url']);
    expect(fieldsOf(CreateWebhookEndpointRequest.safeParse({ url: 'https://a:b@hooks.example.com', events: ['ticket.opened'] }))).toEqual(['url']);
    expect(fieldsOf(CreateWebhookEndpointRequest.safeParse({ url: 'https://hooks.example.com', events: [] }))).toEqual(['events']);
    expect(fieldsOf(CreateWebhookEndpointRequest.safeParse({ url: 'https://hooks.example.com', events: ['ticket.opened', 'ticket.opened'] }))).toEqual(['events']);
    expect(fieldsOf(CreateWebhookEndpointRequest.safeParse({ url: 'https://hooks.example.com', events: ['ticket.moved'] }))).toEqual(['events.0']);
    expect(UpdateWebhookEndpointRequest.safeParse({}).success).toBe(false);
    expect(UpdateWebhookEndpointRequest.safeParse({ enabled: false }).success).toBe(true);
    expect(WEBHOOK_EVENTS).toEqual(['ticket.opened', 'ticket.claimed', 'ticket.closed', 'ticket.reopened', 'ticket.deleted', 'message.created']);
  });

  it('describe the body of a delivery by its type', () => {
    const ticket = {
      ticketId: 't1',
      number: 7,
      name: 'ticket-7',
      subjectId: 's1',
      authorId: '1200000000000000005',
      assigneeId: null,
      state: 'PendingStaff',
      channelId: null,
      createdAt: '2025-01-01T00:00:00.000Z',
      closed: null,
    };
    const body = { id: 'evt_1', type: 'ticket.opened', createdAt: '2025-01-01T00:00:00.000Z', serverId: '1300000000000000001', data: { ticket } };
    expect(WebhookPayload.parse(body)).toEqual(body);
    expect(WebhookPayload.safeParse({ ...body, type: 'message.created' }).success).toBe(false); // a message event carries its message
  });
});
