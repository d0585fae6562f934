import { randomBytes, randomUUID } from 'node:crypto';
import type { WebhookDeliveryEventType, WebhookEventData, WebhookEventType } from '@ticket/contracts';
import type { Transaction } from 'kysely';
import { fromJson, now } from '../../db/database';
import type { DB } from '../../db/schema';
import * as repo from './webhook-repository';

export const newEventId = () => `evt_${randomBytes(12).toString('hex')}`;

/** The body of a delivery exactly as it is signed and sent. */
export function eventBody(eventId: string, type: WebhookDeliveryEventType, serverId: string, at: string, data: unknown): string {
  return JSON.stringify({ id: eventId, type, createdAt: at, serverId, data });
}

/** A delivery waiting for its first attempt, now. */
export function pendingDelivery(fields: Pick<repo.DeliveryRow, 'endpoint_id' | 'server_id' | 'event_id' | 'event_type' | 'payload' | 'redelivery_of'>, at: string): repo.DeliveryRow {
  return {
    id: randomUUID(),
    ...fields,
    status: 'pending',
    attempts: 0,
    history: '[]',
    next_attempt_at: at,
    first_attempt_at: null,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    delivered_at: null,
    claimed_until: null,
    claim_token: null,
    created_at: at,
    updated_at: at,
  };
}

/**
 * The outbox: an event becomes one pending delivery per enabled endpoint of the server that takes
 * it, written in the transaction of the change it reports (the support service calls this), so a
 * change is never committed without its deliveries, nor a delivery without its change. The job
 * runner (WebhookDeliveries) sends them after the commit.
 */
export class WebhookOutbox {
  async emit<T extends WebhookEventType>(trx: Transaction<DB>, serverId: string, type: T, data: WebhookEventData<T>): Promise<void> {
    const endpoints = (await repo.liveEndpoints(trx, serverId)).filter((e) => fromJson<string[]>(e.events).includes(type));
    if (endpoints.length === 0) return;
    const at = now();
    const eventId = newEventId();
    const payload = eventBody(eventId, type, serverId, at, data);
    await repo.insertDeliveries(
      trx,
      endpoints.map((endpoint) => pendingDelivery({ endpoint_id: endpoint.id, server_id: serverId, event_id: eventId, event_type: type, payload, redelivery_of: null }, at)),
    );
  }
}
