import type { TicketMessageContent, TicketState, WebhookEventData, WebhookEventType, WebhookMessage, WebhookTicket } from '@ticket/contracts';
import type { Transaction } from 'kysely';
import { fromFlag, fromJson } from '../../db/database';
import type { DB } from '../../db/schema';
import type { MessageRow, TicketRow } from './repository';

/**
 * What the support service tells others about its tickets and messages (the server's outgoing
 * webhooks). `emit` runs inside the transaction of the change it reports, so the change and its
 * event are written together or not at all; it must only write (an outbox), never call out.
 */
export interface TicketEvents {
  emit<T extends WebhookEventType>(trx: Transaction<DB>, serverId: string, type: T, data: WebhookEventData<T>): Promise<void>;
}

/** Where nothing listens. */
export const NO_TICKET_EVENTS: TicketEvents = { emit: async () => undefined };

/** A ticket as its events carry it. */
export function eventTicket(row: TicketRow): WebhookTicket {
  return {
    ticketId: row.id,
    number: row.number,
    name: row.name,
    subjectId: row.subject_id,
    authorId: row.author_id,
    assigneeId: row.assignee_id,
    state: row.state as TicketState,
    channelId: row.channel_id,
    createdAt: row.created_at,
    closed:
      row.closed_at && row.closed_by
        ? { closedAt: row.closed_at, closedBy: row.closed_by, reason: row.close_reason, force: fromFlag(row.close_force) }
        : null,
  };
}

/** A message as message.created carries it. */
export function eventMessage(row: MessageRow): WebhookMessage {
  const body = fromJson<TicketMessageContent>(row.body);
  return {
    messageId: row.id,
    externalId: row.external_id,
    authorId: row.author_id,
    messageType: row.message_type as WebhookMessage['messageType'],
    content: body.content,
    embeds: body.embeds,
    attachments: body.attachments,
    createdAt: row.created_at,
  };
}
