import { randomUUID } from 'node:crypto';
import {
  PLANS,
  WEBHOOK_POLICY,
  WEBHOOK_TEST_EVENT,
  type CreateWebhookEndpointRequest,
  type PagedResult,
  type PlanType,
  type UpdateWebhookEndpointRequest,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookDeliveryEventType,
  type WebhookDeliveryQuery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
} from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { fromFlag, fromJson, now, toFlag, toJson } from '../../db/database';
import type { DB } from '../../db/schema';
import { BadRequestError, ConflictError, LimitReachedError, NotFoundError } from '../../http/errors';
import { randomToken, seal } from '../../platform/crypto';
import { endpointUrlProblem } from '../../platform/webhook-sender';
import type { WebhookDeliveries } from './webhook-deliveries';
import { eventBody, newEventId, pendingDelivery } from './webhook-outbox';
import * as repo from './webhook-repository';

const SECRET_PREFIX = 'whsec_';
const planName = (plan: string) => plan.charAt(0).toUpperCase() + plan.slice(1);
const WEBHOOKS_PLAN = planName(Object.values(PLANS).find((p) => p.features.webhooks)?.type ?? 'enterprise');

function toEndpoint(row: repo.EndpointRow, last: repo.DeliveryRow | undefined): WebhookEndpoint {
  return {
    endpointId: row.id,
    serverId: row.server_id,
    url: row.url,
    description: row.description,
    events: fromJson<WebhookEventType[]>(row.events),
    enabled: fromFlag(row.enabled),
    secretHint: row.secret_hint,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastDelivery: last
      ? {
          deliveryId: last.id,
          event: last.event_type as WebhookDeliveryEventType,
          status: last.status as WebhookDeliveryStatus,
          statusCode: last.last_status_code,
          at: last.last_attempt_at ?? last.created_at,
        }
      : null,
  };
}

function toDelivery(row: repo.DeliveryRow): WebhookDelivery {
  return {
    deliveryId: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    event: row.event_type as WebhookDeliveryEventType,
    status: row.status as WebhookDeliveryStatus,
    statusCode: row.last_status_code,
    error: row.last_error,
    attempts: row.attempts,
    history: fromJson<WebhookAttempt[]>(row.history),
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    deliveredAt: row.delivered_at,
    redeliveryOf: row.redelivery_of,
  };
}

/** A new signing secret, sealed for storage, with the hint the dashboard shows. */
function newSecret(key: Buffer): { secret: string; sealed: string; hint: string } {
  const secret = randomToken(SECRET_PREFIX);
  return { secret, sealed: seal(secret, key), hint: `${SECRET_PREFIX}…${secret.slice(-4)}` };
}

/**
 * A server's outgoing webhooks (Enterprise): its endpoints, their secrets and their deliveries.
 * Every method checks the server's plan first; every query is scoped by the server.
 */
export class WebhookService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Pick<Config, 'encryptionKey' | 'webhooks'>,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  private async requireWebhooks(serverId: string): Promise<void> {
    const server = await repo.findServerPlan(this.db, serverId);
    if (!server || server.active !== 1) throw new NotFoundError('The bot is not in this server');
    const plan = (server.plan in PLANS ? server.plan : 'free') as PlanType;
    if (!PLANS[plan].features.webhooks) throw new LimitReachedError(`Webhooks are part of the ${WEBHOOKS_PLAN} plan; this server is on the ${planName(plan)} plan`);
  }

  private async endpoint(serverId: string, endpointId: string): Promise<repo.EndpointRow> {
    const row = await repo.findEndpoint(this.db, serverId, endpointId);
    if (!row) throw new NotFoundError(`No webhook endpoint ${endpointId} in this server`);
    return row;
  }

  private async withLast(row: repo.EndpointRow): Promise<WebhookEndpoint> {
    return toEndpoint(row, (await repo.lastDeliveries(this.db, [row.id])).get(row.id));
  }

  /** The URL under this deployment's rules; refused with the reason, naming the field. */
  private async assertUrl(url: string): Promise<void> {
    const problem = await endpointUrlProblem(url, this.config.webhooks);
    if (problem) throw new BadRequestError(problem, 'body.url');
  }

  async list(serverId: string): Promise<WebhookEndpoint[]> {
    await this.requireWebhooks(serverId);
    const rows = await repo.listEndpoints(this.db, serverId);
    const last = await repo.lastDeliveries(this.db, rows.map((r) => r.id));
    return rows.map((row) => toEndpoint(row, last.get(row.id)));
  }

  async get(serverId: string, endpointId: string): Promise<WebhookEndpoint> {
    await this.requireWebhooks(serverId);
    return this.withLast(await this.endpoint(serverId, endpointId));
  }

  async create(serverId: string, request: CreateWebhookEndpointRequest): Promise<WebhookEndpointWithSecret> {
    await this.requireWebhooks(serverId);
    await this.assertUrl(request.url);
    const { secret, sealed, hint } = newSecret(this.config.encryptionKey);
    const at = now();
    const row: repo.EndpointRow = {
      id: randomUUID(),
      server_id: serverId,
      url: request.url,
      description: request.description || null,
      events: toJson(request.events),
      enabled: 1,
      secret: sealed,
      secret_hint: hint,
      created_at: at,
      updated_at: at,
    };
    await this.db.transaction().execute(async (trx) => {
      // Counted and written together, so two at once cannot both pass the limit (SQLite writes one at a time; the lock does on PostgreSQL).
      await repo.lockServer(trx, serverId);
      if ((await repo.countEndpoints(trx, serverId)) >= WEBHOOK_POLICY.endpointsPerServer) {
        throw new ConflictError(`A server can have up to ${WEBHOOK_POLICY.endpointsPerServer} webhook endpoints; delete one to add another`);
      }
      await repo.insertEndpoint(trx, row);
    });
    return { ...toEndpoint(row, undefined), secret };
  }

  async update(serverId: string, endpointId: string, request: UpdateWebhookEndpointRequest): Promise<WebhookEndpoint> {
    await this.requireWebhooks(serverId);
    const before = await this.endpoint(serverId, endpointId);
    if (request.url !== undefined && request.url !== before.url) await this.assertUrl(request.url);
    const at = now();
    const fields: Partial<repo.EndpointRow> = { updated_at: at };
    if (request.url !== undefined) fields.url = request.url;
    if (request.events !== undefined) fields.events = toJson(request.events);
    if (request.enabled !== undefined) fields.enabled = toFlag(request.enabled);
    if (request.description !== undefined) fields.description = request.description || null;
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.updateEndpoint(trx, serverId, endpointId, fields))) throw new NotFoundError(`No webhook endpoint ${endpointId} in this server`);
      if (request.enabled === false) await repo.failPending(trx, endpointId, 'The endpoint was disabled', at, WEBHOOK_TEST_EVENT);
    });
    return this.withLast(await this.endpoint(serverId, endpointId));
  }

  async delete(serverId: string, endpointId: string): Promise<void> {
    await this.requireWebhooks(serverId);
    if (!(await repo.deleteEndpoint(this.db, serverId, endpointId))) throw new NotFoundError(`No webhook endpoint ${endpointId} in this server`);
  }

  /** A new secret at once: attempts from now on are signed with it. */
  async rotateSecret(serverId: string, endpointId: string): Promise<WebhookEndpointWithSecret> {
    await this.requireWebhooks(serverId);
    await this.endpoint(serverId, endpointId);
    const { secret, sealed, hint } = newSecret(this.config.encryptionKey);
    if (!(await repo.updateEndpoint(this.db, serverId, endpointId, { secret: sealed, secret_hint: hint, updated_at: now() }))) {
      throw new NotFoundError(`No webhook endpoint ${endpointId} in this server`);
    }
    return { ...(await this.withLast(await this.endpoint(serverId, endpointId))), secret };
  }

  async listDeliveries(serverId: string, endpointId: string, query: WebhookDeliveryQuery): Promise<PagedResult<WebhookDelivery>> {
    await this.requireWebhooks(serverId);
    await this.endpoint(serverId, endpointId);
    const { rows, total } = await repo.pageDeliveries(this.db, serverId, endpointId, {
      offset: (query.Page - 1) * query.Amount,
      limit: query.Amount,
      ...(query.status ? { status: query.status } : {}),
    });
    return { page: query.Page, maxPage: Math.max(1, Math.ceil(total / query.Amount)), elements: rows.map(toDelivery) };
  }

  /** Queues a delivery and attempts it at once; the answer shows how that went. */
  private async sendNow(serverId: string, endpointId: string, delivery: repo.DeliveryRow): Promise<WebhookDelivery> {
    await repo.insertDeliveries(this.db, [delivery]);
    await this.deliveries.deliverNow(delivery.id);
    const row = await repo.findDelivery(this.db, serverId, endpointId, delivery.id);
    if (!row) throw new NotFoundError('The endpoint was removed');
    return toDelivery(row);
  }

  async sendTest(serverId: string, endpointId: string): Promise<WebhookDelivery> {
    await this.requireWebhooks(serverId);
    await this.endpoint(serverId, endpointId);
    const at = now();
    const eventId = newEventId();
    const data = { endpointId, message: 'A test event sent from the dashboard. Check its signature with the endpoint’s secret.' };
    const payload = eventBody(eventId, WEBHOOK_TEST_EVENT, serverId, at, data);
    return this.sendNow(serverId, endpointId, pendingDelivery({ endpoint_id: endpointId, server_id: serverId, event_id: eventId, event_type: WEBHOOK_TEST_EVENT, payload, redelivery_of: null }, at));
  }

  /** The same event (same id and body) as a new delivery, attempted now and retried as any other. */
  async resend(serverId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.requireWebhooks(serverId);
    const endpoint = await this.endpoint(serverId, endpointId);
    const original = await repo.findDelivery(this.db, serverId, endpointId, deliveryId);
    if (!original) throw new NotFoundError(`No delivery ${deliveryId} of this endpoint`);
    if (original.status === 'pending') throw new ConflictError('This delivery is still pending: it is retried on its own until it succeeds or its retry window ends');
    if (!fromFlag(endpoint.enabled) && original.event_type !== WEBHOOK_TEST_EVENT) throw new ConflictError('The endpoint is disabled: enable it to send it events again');
    const fields = { endpoint_id: endpointId, server_id: serverId, event_id: original.event_id, event_type: original.event_type, payload: original.payload, redelivery_of: original.id };
    return this.sendNow(serverId, endpointId, pendingDelivery(fields, now()));
  }
}
