import { plansWith, type WebhookDeliveryStatus } from '@ticket/contracts';
import { sql, type Kysely, type Transaction } from 'kysely';
import { supportsRowLocks } from '../../db/database';
import { claimRows, type RowClaim } from '../../db/engine-sql';
import type { DB, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema';

type Db = Kysely<DB> | Transaction<DB>;

export type EndpointRow = WebhookEndpointsTable;
export type DeliveryRow = WebhookDeliveriesTable;

/** The plans whose servers' endpoints are sent events. */
export const WEBHOOK_PLANS = plansWith('webhooks');

// --- Servers ------------------------------------------------------------------------------------

/** Whether the bot is in the server, and the server's plan; undefined for a server the dashboard does not know. */
export async function findServerPlan(db: Db, serverId: string): Promise<{ active: number; plan: string } | undefined> {
  return db.selectFrom('servers').select(['active', 'plan']).where('id', '=', serverId).executeTakeFirst();
}

/** Holds the server's row until the transaction ends (PostgreSQL), so writes counted against its limits happen one at a time. */
export async function lockServer(db: Db, serverId: string): Promise<void> {
  await db.selectFrom('servers').select('id').where('id', '=', serverId).$call((q) => (supportsRowLocks(db) ? q.forUpdate() : q)).execute();
}

// --- Endpoints ----------------------------------------------------------------------------------

export async function listEndpoints(db: Db, serverId: string): Promise<EndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('server_id', '=', serverId).orderBy('created_at').orderBy('id').execute();
}

export async function countEndpoints(db: Db, serverId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('server_id', '=', serverId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findEndpoint(db: Db, serverId: string, endpointId: string): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('server_id', '=', serverId).where('id', '=', endpointId).executeTakeFirst();
}

export async function insertEndpoint(db: Db, row: EndpointRow): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(db: Db, serverId: string, endpointId: string, fields: Partial<EndpointRow>): Promise<boolean> {
  const result = await db.updateTable('webhook_endpoints').set(fields).where('server_id', '=', serverId).where('id', '=', endpointId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The endpoint goes with its deliveries (the foreign key cascades). */
export async function deleteEndpoint(db: Db, serverId: string, endpointId: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('server_id', '=', serverId).where('id', '=', endpointId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The server's enabled endpoints, while its plan has webhooks: those an event may go to. */
export async function liveEndpoints(db: Db, serverId: string): Promise<Pick<EndpointRow, 'id' | 'events'>[]> {
  return db
    .selectFrom('webhook_endpoints')
    .innerJoin('servers', 'servers.id', 'webhook_endpoints.server_id')
    .select(['webhook_endpoints.id', 'webhook_endpoints.events'])
    .where('webhook_endpoints.server_id', '=', serverId)
    .where('webhook_endpoints.enabled', '=', 1)
    .where('servers.plan', 'in', WEBHOOK_PLANS)
    .execute();
}

/** The endpoint a delivery goes to, with its server's plan. */
export async function endpointOfDelivery(db: Db, endpointId: string) {
  return db
    .selectFrom('webhook_endpoints')
    .leftJoin('servers', 'servers.id', 'webhook_endpoints.server_id')
    .select(['webhook_endpoints.url', 'webhook_endpoints.enabled', 'webhook_endpoints.secret', 'servers.plan'])
    .where('webhook_endpoints.id', '=', endpointId)
    .executeTakeFirst();
}

// --- Deliveries ---------------------------------------------------------------------------------

export async function insertDeliveries(db: Db, rows: DeliveryRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}

/** The newest delivery of each endpoint. */
export async function lastDeliveries(db: Db, endpointIds: string[]): Promise<Map<string, DeliveryRow>> {
  const rows = await Promise.all(
    endpointIds.map((id) =>
      db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', id).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst(),
    ),
  );
  return new Map(rows.filter((row): row is DeliveryRow => row !== undefined).map((row) => [row.endpoint_id, row]));
}

export async function pageDeliveries(
  db: Db,
  serverId: string,
  endpointId: string,
  filter: { offset: number; limit: number; status?: WebhookDeliveryStatus },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  let query = db.selectFrom('webhook_deliveries').where('server_id', '=', serverId).where('endpoint_id', '=', endpointId);
  if (filter.status) query = query.where('status', '=', filter.status);
  const [rows, total] = await Promise.all([
    query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function findDelivery(db: Db, serverId: string, endpointId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('server_id', '=', serverId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
}

/** What a claim sets: the runner's token and how long it holds the delivery. */
export type Claim = RowClaim;

/**
 * Claims up to `limit` pending deliveries due at `at` and not held by another runner (or whose
 * runner's lease ran out), each for one runner only (see claimRows).
 */
export async function claimDue(db: Kysely<DB>, at: string, claim: Claim, limit: number): Promise<DeliveryRow[]> {
  const free = sql<boolean>`status = 'pending' and next_attempt_at <= ${at} and (claimed_until is null or claimed_until <= ${at})`;
  return claimRows<DeliveryRow>(db, 'webhook_deliveries', free, 'next_attempt_at', claim, limit);
}

/** Claims one delivery if it is pending and free (an attempt asked for now: a test, a redelivery). */
export async function claimOne(db: Db, deliveryId: string, at: string, claim: Claim): Promise<DeliveryRow | undefined> {
  return db
    .updateTable('webhook_deliveries')
    .set({ claimed_until: claim.until, claim_token: claim.token })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', at)]))
    .returningAll()
    .executeTakeFirst();
}

/** Records an attempt's outcome and releases the claim, if the claim is still this runner's. */
export async function settleClaimed(db: Db, deliveryId: string, token: string, fields: Partial<DeliveryRow>): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ ...fields, claimed_until: null, claim_token: null })
    .where('id', '=', deliveryId)
    .where('claim_token', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** An endpoint switched off: what still waits for it fails (a test, sent on purpose, still goes). */
export async function failPending(db: Db, endpointId: string, error: string, at: string, except: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_error: error, next_attempt_at: null, updated_at: at })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .where('event_type', '!=', except)
    .execute();
}

/** What still waits for the endpoints of these servers fails, where a server's plan no longer has webhooks (tests too). */
export async function failPendingOffPlan(db: Db, serverIds: string[], error: string, at: string): Promise<number> {
  if (serverIds.length === 0) return 0;
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_error: error, next_attempt_at: null, updated_at: at })
    .where('server_id', 'in', serverIds)
    .where('status', '=', 'pending')
    .where('server_id', 'not in', (eb) => eb.selectFrom('servers').select('id').where('id', 'in', serverIds).where('plan', 'in', WEBHOOK_PLANS))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function pruneDeliveries(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('webhook_deliveries').where('created_at', '<', before).where('status', '!=', 'pending').executeTakeFirst();
  return Number(result.numDeletedRows);
}
