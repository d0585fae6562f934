import { z } from 'zod';
import { defineCall, IsoDateTime, opaqueId, PageQuery, pagedResult, ServerIdParams, Snowflake, TicketId } from './common';
import { Embed } from './settings';
import { Attachment, MessageType, TicketState } from './support';

// ---------------------------------------------------------------------------------------------
// Outgoing webhooks (Enterprise): endpoints a server's admins register, and what is sent to them
// ---------------------------------------------------------------------------------------------

/** What an endpoint can subscribe to. */
export const WEBHOOK_EVENTS = ['ticket.opened', 'ticket.claimed', 'ticket.closed', 'ticket.reopened', 'ticket.deleted', 'message.created'] as const;
export const WebhookEventType = z
  .enum(WEBHOOK_EVENTS)
  .describe(
    'An event an endpoint can subscribe to: ticket.opened (a ticket was created), ticket.claimed (a staff member was assigned), ' +
      'ticket.closed, ticket.reopened, ticket.deleted (with its history), message.created (a message was recorded in a ticket, ' +
      'from the dashboard, the API or the chat platform)',
  );
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** Sent by "send a test event" only, whatever the endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const WebhookDeliveryEventType = z
  .enum([...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT])
  .describe('The event a delivery carries: one of the subscribable events, or webhook.test for a test sent from the dashboard');
export type WebhookDeliveryEventType = z.infer<typeof WebhookDeliveryEventType>;

/** The headers of every delivery, as sent (HTTP header names are case-insensitive). */
export const WEBHOOK_HEADERS = {
  /** The event id, the same as the body's `id`: the same on every retry and redelivery, so a receiver can ignore repeats. */
  id: 'Webhook-Id',
  /** Unix time in seconds when this attempt was signed. */
  timestamp: 'Webhook-Timestamp',
  /** `v1=<hex HMAC-SHA256 of "<Webhook-Timestamp>.<raw body>", keyed with the endpoint's secret as UTF-8 text>`. */
  signature: 'Webhook-Signature',
  /** The event type, the same as the body's `type`. */
  event: 'Webhook-Event',
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: 'Webhook-Attempt',
} as const;

/** How deliveries are made; the web shows these, the server applies them. */
export const WEBHOOK_POLICY = {
  endpointsPerServer: 10,
  /** Seconds to wait after the 1st, 2nd, … failed attempt before the next; the last value repeats. */
  retryDelaysSeconds: [60, 300, 1800, 7200, 21_600, 43_200],
  /** No attempt is made later than this after the first one: the delivery is then failed. */
  retryWindowHours: 24,
  /** Deliveries are listed (and kept) this long, then removed. */
  retentionDays: 14,
} as const;

const SIGNATURE_HELP =
  'Each delivery is a POST of the JSON event with the headers Webhook-Id (the event id), Webhook-Event, Webhook-Attempt, ' +
  'Webhook-Timestamp (Unix seconds) and Webhook-Signature: v1=<hex HMAC-SHA256 of "<Webhook-Timestamp>.<raw body>" keyed with this secret as UTF-8 text>. ' +
  'A 2xx answer within 10 seconds counts as delivered; anything else (redirects are not followed) is retried after 1 min, 5 min, 30 min, 2 h, 6 h and then every 12 h, ' +
  'until 24 hours after the first attempt.';

export const WebhookEndpointId = opaqueId('Webhook endpoint');
export type WebhookEndpointId = z.infer<typeof WebhookEndpointId>;
export const WebhookDeliveryId = opaqueId('Webhook delivery');
export type WebhookDeliveryId = z.infer<typeof WebhookDeliveryId>;

/** Where events are posted. The server adds its own rules: https only, and no private, loopback or reserved address. */
export const WebhookUrl = z
  .url({ protocol: /^https?$/, normalize: true, error: 'Must be an https:// URL' })
  .max(2048)
  .refine(
    (url) => {
      const parsed = URL.canParse(url) ? new URL(url) : null;
      return parsed !== null && parsed.username === '' && parsed.password === '';
    },
    { message: 'Must not contain a user name or password' },
  )
  .describe(
    'The https URL events are posted to. It may not hold credentials, and its host may not be (or resolve to) a private, loopback, ' +
      'link-local or otherwise reserved address; this is checked again before each attempt',
  )
  .meta({ example: 'https://hooks.example.com/tickets' });

const WebhookEvents = z
  .array(WebhookEventType)
  .min(1, 'Choose at least one event')
  .max(WEBHOOK_EVENTS.length)
  .refine((events) => new Set(events).size === events.length, { message: 'Each event may be chosen once' })
  .describe('The events sent to this endpoint')
  .meta({ example: ['ticket.opened', 'ticket.closed', 'message.created'] });

const Description = z
  .string()
  .trim()
  .max(200)
  .nullable()
  .describe('What the endpoint is for, shown in the dashboard; null for none')
  .meta({ example: 'Helpdesk sync' });

const WebhookSecret = z
  .string()
  .describe(`The signing secret (whsec_…). It is shown this once and stored encrypted; rotate it to get a new one. ${SIGNATURE_HELP}`)
  .meta({ example: 'whsec_3q2+7wXhZkY2mJqLk9bTn0c4A1sVf8Rr5uHdGe6Pw0o' });

export const WebhookDeliveryStatus = z
  .enum(['pending', 'delivered', 'failed'])
  .describe('pending: waiting for its first attempt or a retry; delivered: the endpoint answered 2xx; failed: no 2xx within the retry window, or the endpoint was disabled');
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

export const WebhookLastDelivery = z.object({
  deliveryId: WebhookDeliveryId,
  event: WebhookDeliveryEventType,
  status: WebhookDeliveryStatus,
  statusCode: z.number().int().nullable().describe('HTTP status of the latest attempt; null when it got no answer'),
  at: IsoDateTime.describe('When the delivery was last attempted, or created if not yet attempted'),
});
export type WebhookLastDelivery = z.infer<typeof WebhookLastDelivery>;

export const WebhookEndpoint = z.object({
  endpointId: WebhookEndpointId,
  serverId: Snowflake,
  url: z.string().describe('Where events are posted').meta({ example: 'https://hooks.example.com/tickets' }),
  description: Description,
  events: z.array(WebhookEventType).describe('The events sent to this endpoint'),
  enabled: z.boolean().describe('A disabled endpoint is sent nothing; its waiting deliveries fail'),
  secretHint: z.string().describe('The secret’s prefix and last four characters, to tell secrets apart').meta({ example: 'whsec_…Pw0o' }),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  lastDelivery: WebhookLastDelivery.nullable().describe('The newest delivery to this endpoint; null before the first'),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({ secret: WebhookSecret });
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

export const CreateWebhookEndpointRequest = z.object({
  url: WebhookUrl,
  events: WebhookEvents,
  description: Description.optional().describe('What the endpoint is for, shown in the dashboard. Default: null (none)'),
});
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

export const UpdateWebhookEndpointRequest = z
  .object({
    url: WebhookUrl.optional(),
    events: WebhookEvents.optional(),
    enabled: z.boolean().optional().describe('Switch the endpoint off (deliveries still waiting fail) or on again'),
    description: Description.optional(),
  })
  .refine((r) => r.url !== undefined || r.events !== undefined || r.enabled !== undefined || r.description !== undefined, { message: 'Nothing to update' });
export type UpdateWebhookEndpointRequest = z.infer<typeof UpdateWebhookEndpointRequest>;

export const WebhookAttempt = z.object({
  attemptedAt: IsoDateTime,
  statusCode: z.number().int().nullable().describe('HTTP status the endpoint answered; null when there was no answer'),
  error: z
    .string()
    .nullable()
    .describe('Why the attempt failed when there was no 2xx answer (timeout, refused address, connection error, redirect); null when it succeeded'),
  durationMs: z.number().int().min(0).describe('How long the attempt took'),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDelivery = z.object({
  deliveryId: WebhookDeliveryId,
  endpointId: WebhookEndpointId,
  eventId: z.string().describe('The event id (the body’s id and the Webhook-Id header); a redelivery keeps it').meta({ example: 'evt_0f3c2a9e6b8d4c1f' }),
  event: WebhookDeliveryEventType,
  status: WebhookDeliveryStatus,
  statusCode: z.number().int().nullable().describe('HTTP status of the latest attempt; null before the first or when it got no answer'),
  error: z.string().nullable().describe('Why the latest attempt failed; null when it succeeded or none was made'),
  attempts: z.number().int().min(0).describe('Attempts made so far'),
  history: z.array(WebhookAttempt).describe('Every attempt, oldest first'),
  nextAttemptAt: IsoDateTime.nullable().describe('When the next attempt is due; null once delivered or failed'),
  createdAt: IsoDateTime.describe('When the event happened and the delivery was queued'),
  lastAttemptAt: IsoDateTime.nullable(),
  deliveredAt: IsoDateTime.nullable(),
  redeliveryOf: WebhookDeliveryId.nullable().describe('The delivery this one sends again; null for an original'),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookEndpointParams = ServerIdParams.extend({ endpointId: WebhookEndpointId });
export const WebhookDeliveryParams = WebhookEndpointParams.extend({ deliveryId: WebhookDeliveryId });

export const WebhookDeliveryQuery = PageQuery.extend({
  Amount: z.coerce.number().int().min(1).max(100).default(25).describe('Deliveries per page'),
  status: WebhookDeliveryStatus.optional().describe('Only deliveries in this status'),
});
export type WebhookDeliveryQuery = z.infer<typeof WebhookDeliveryQuery>;

// ---------------------------------------------------------------------------------------------
// The body of a delivery
// ---------------------------------------------------------------------------------------------

export const WebhookTicket = z.object({
  ticketId: TicketId,
  number: z.number().int().describe('The ticket’s number in its server'),
  name: z.string(),
  subjectId: z.string().describe('The ticket’s subject'),
  authorId: Snowflake.describe('Who opened the ticket'),
  assigneeId: Snowflake.nullable().describe('The staff member who claimed it; null when unclaimed'),
  state: TicketState,
  channelId: Snowflake.nullable().describe('The ticket’s channel on the platform, if it has one'),
  createdAt: IsoDateTime,
  closed: z
    .object({ closedAt: IsoDateTime, closedBy: Snowflake, reason: z.string().nullable(), force: z.boolean() })
    .nullable()
    .describe('How the ticket was closed; null while open'),
});
export type WebhookTicket = z.infer<typeof WebhookTicket>;

export const WebhookMessage = z.object({
  messageId: z.string().describe('The message id in the dashboard'),
  externalId: Snowflake.nullable().describe('The platform message it mirrors, if any'),
  authorId: Snowflake,
  messageType: MessageType,
  content: z.string(),
  embeds: z.array(Embed),
  attachments: z.array(Attachment).describe('Attachments as recorded'),
  createdAt: IsoDateTime,
});
export type WebhookMessage = z.infer<typeof WebhookMessage>;

const envelope = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({
    id: z.string().describe('The event id, also sent as Webhook-Id'),
    type: z.literal(type),
    createdAt: IsoDateTime.describe('When the event happened'),
    serverId: Snowflake,
    data,
  });

const TicketData = z.object({ ticket: WebhookTicket });

/** The JSON body of each delivery, by `type`. */
export const WebhookPayload = z
  .discriminatedUnion('type', [
    envelope('ticket.opened', TicketData),
    envelope('ticket.claimed', TicketData),
    envelope('ticket.closed', TicketData),
    envelope('ticket.reopened', TicketData),
    envelope('ticket.deleted', TicketData.describe('The ticket as it was when deleted')),
    envelope('message.created', z.object({ ticket: WebhookTicket, message: WebhookMessage })),
    envelope(WEBHOOK_TEST_EVENT, z.object({ endpointId: WebhookEndpointId, message: z.string() })),
  ])
  .describe(`The body of a delivery. ${SIGNATURE_HELP}`);
export type WebhookPayload = z.infer<typeof WebhookPayload>;
/** What an event carries, by type (the `data` of its body). */
export type WebhookEventData<T extends WebhookEventType = WebhookEventType> = Extract<WebhookPayload, { type: T }>['data'];

// ---------------------------------------------------------------------------------------------
// Calls (on the settings base)
// ---------------------------------------------------------------------------------------------

const ENTERPRISE = 'Enterprise only: other plans answer 402 naming the plan.';

export const webhookCalls = {
  getWebhookEndpoints: defineCall({
    method: 'GET',
    path: '/servers/:serverId/webhooks',
    summary: `The server’s webhook endpoints, oldest first (never their secrets). ${ENTERPRISE}`,
    params: ServerIdParams,
    response: z.array(WebhookEndpoint),
  }),
  createWebhookEndpoint: defineCall({
    method: 'POST',
    path: '/servers/:serverId/webhooks',
    summary: `Register an endpoint for the chosen events; the answer holds its signing secret, shown this once. ${ENTERPRISE}`,
    params: ServerIdParams,
    body: CreateWebhookEndpointRequest,
    response: WebhookEndpointWithSecret,
    status: 201,
  }),
  getWebhookEndpoint: defineCall({
    method: 'GET',
    path: '/servers/:serverId/webhooks/:endpointId',
    summary: `One webhook endpoint (without its secret). ${ENTERPRISE}`,
    params: WebhookEndpointParams,
    response: WebhookEndpoint,
  }),
  updateWebhookEndpoint: defineCall({
    method: 'PATCH',
    path: '/servers/:serverId/webhooks/:endpointId',
    summary: `Change an endpoint’s URL, events, description, or switch it off or on. ${ENTERPRISE}`,
    params: WebhookEndpointParams,
    body: UpdateWebhookEndpointRequest,
    response: WebhookEndpoint,
  }),
  deleteWebhookEndpoint: defineCall({
    method: 'DELETE',
    path: '/servers/:serverId/webhooks/:endpointId',
    summary: `Remove an endpoint with its deliveries. ${ENTERPRISE}`,
    params: WebhookEndpointParams,
    response: null,
    status: 204,
  }),
  changeWebhookSecret: defineCall({
    method: 'POST',
    path: '/servers/:serverId/webhooks/:endpointId/secret',
    summary: `Rotate the signing secret: the old one stops signing at once; the new one is shown this once. ${ENTERPRISE}`,
    params: WebhookEndpointParams,
    response: WebhookEndpointWithSecret,
  }),
  getWebhookDeliveries: defineCall({
    method: 'GET',
    path: '/servers/:serverId/webhooks/:endpointId/deliveries',
    summary: `The endpoint’s deliveries of the last 14 days, newest first, with each attempt’s result. ${ENTERPRISE}`,
    params: WebhookEndpointParams,
    query: WebhookDeliveryQuery,
    response: pagedResult(WebhookDelivery),
  }),
  createWebhookTestDelivery: defineCall({
    method: 'POST',
    path: '/servers/:serverId/webhooks/:endpointId/test',
    summary: `Send a webhook.test event to the endpoint now (even when it is disabled or subscribes to nothing of the kind); the answer is the delivery with its first attempt. ${ENTERPRISE}`,
    params: WebhookEndpointParams,
    response: WebhookDelivery,
    status: 201,
  }),
  resendWebhookDelivery: defineCall({
    method: 'POST',
    path: '/servers/:serverId/webhooks/:endpointId/deliveries/:deliveryId/resend',
    summary: `Send a failed (or delivered) delivery again as a new delivery with the same event id, attempted now and retried as any other; 409 while the delivery is still pending. ${ENTERPRISE}`,
    params: WebhookDeliveryParams,
    response: WebhookDelivery,
    status: 201,
  }),
};
