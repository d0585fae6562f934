import type { WebhookDeliveryEventType } from '@ticket/contracts';

const EVENT_LABELS = {
  'ticket.opened': 'webhooks.events.ticketOpened',
  'ticket.claimed': 'webhooks.events.ticketClaimed',
  'ticket.closed': 'webhooks.events.ticketClosed',
  'ticket.reopened': 'webhooks.events.ticketReopened',
  'ticket.deleted': 'webhooks.events.ticketDeleted',
  'message.created': 'webhooks.events.messageCreated',
  'webhook.test': 'webhooks.events.webhookTest',
} as const satisfies Record<WebhookDeliveryEventType, string>;

/** The locale key of an event's readable name. */
export const eventLabelKey = (event: WebhookDeliveryEventType) => EVENT_LABELS[event];

/** The field a 400 named, without the part of the request it was in: `body.url` → `url`. */
export const fieldOf = (field: string | undefined): string | undefined => field?.replace(/^body\./, '');
