import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, WhitelabelBotsTable } from '../../db/schema';

type Db = Kysely<DB>;
export type WhitelabelRow = Selectable<WhitelabelBotsTable>;

/** `server_id >> 22`: the part of a snowflake the platform's shard formula uses (at most 2^42, a safe number). */
export const shardKeyOf = (serverId: string): number => Number(BigInt(serverId) >> 22n);

/** The server's plan and whether the bot is in it; null when the dashboard does not know the server. */
export async function findServer(db: Db, serverId: string): Promise<{ plan: string; active: number } | null> {
  return (await db.selectFrom('servers').select(['plan', 'active']).where('id', '=', serverId).executeTakeFirst()) ?? null;
}

/** The server's bot, unless it was removed. */
export async function findBot(db: Db, serverId: string): Promise<WhitelabelRow | null> {
  return (await db.selectFrom('whitelabel_bots').selectAll().where('server_id', '=', serverId).where('deleted_at', 'is', null).executeTakeFirst()) ?? null;
}

/** The server whose (not removed) bot is this application, if any. */
export async function serverOfApplication(db: Db, clientId: string): Promise<string | null> {
  const row = await db.selectFrom('whitelabel_bots').select('server_id').where('client_id', '=', clientId).where('deleted_at', 'is', null).executeTakeFirst();
  return row?.server_id ?? null;
}

/** Sets the server's bot up anew (a removed one's row is reused); the revision goes on from the old row's. */
export async function putBot(db: Db, row: Omit<WhitelabelRow, 'revision' | 'deleted_at'>): Promise<WhitelabelRow> {
  const previous = await db.selectFrom('whitelabel_bots').select('revision').where('server_id', '=', row.server_id).executeTakeFirst();
  const next = { ...row, revision: (previous?.revision ?? 0) + 1, deleted_at: null };
  await db
    .insertInto('whitelabel_bots')
    .values(next)
    .onConflict((oc) => oc.column('server_id').doUpdateSet(next))
    .execute();
  return (await findBot(db, row.server_id))!;
}

export type BotChanges = Partial<
  Pick<WhitelabelRow, 'user_id' | 'client_id' | 'name' | 'avatar' | 'public_key' | 'token_sealed' | 'activity' | 'status' | 'status_message' | 'status_at' | 'deleted_at'>
>;

/**
 * Changes the server's (not removed) bot; `bumpRevision` when the runner must act on it anew.
 * `onlyRevision` makes the change only while the bot is still at that revision (a status report
 * about it). Answers the row as it is now, or null when nothing matched.
 */
export async function updateBot(
  db: Db,
  serverId: string,
  changes: BotChanges,
  options: { bumpRevision: boolean; onlyRevision?: number; now: string },
): Promise<WhitelabelRow | null> {
  let query = db
    .updateTable('whitelabel_bots')
    .set({ ...changes, updated_at: options.now, ...(options.bumpRevision ? { revision: sql<number>`revision + 1` } : {}) })
    .where('server_id', '=', serverId)
    .where('deleted_at', 'is', null);
  if (options.onlyRevision !== undefined) query = query.where('revision', '=', options.onlyRevision);
  const result = await query.executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  return db.selectFrom('whitelabel_bots').selectAll().where('server_id', '=', serverId).executeTakeFirstOrThrow();
}

const listed = (db: Db, shard: { id: number; count: number } | null) => {
  let query = db.selectFrom('whitelabel_bots').where('deleted_at', 'is', null);
  if (shard) query = query.where(sql<number>`${sql.ref('shard_key')} % ${shard.count}`, '=', shard.id);
  return query;
};

/** A page of the bots (on one shard), by server id. */
export async function listBots(db: Db, shard: { id: number; count: number } | null, page: number, amount: number): Promise<{ rows: WhitelabelRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    listed(db, shard)
      .selectAll()
      .orderBy('server_id')
      .limit(amount)
      .offset((page - 1) * amount)
      .execute(),
    listed(db, shard).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function botsOf(db: Db, serverIds: string[]): Promise<WhitelabelRow[]> {
  if (serverIds.length === 0) return [];
  return db.selectFrom('whitelabel_bots').selectAll().where('server_id', 'in', serverIds).where('deleted_at', 'is', null).orderBy('server_id').execute();
}

/** The (not removed) bot of this application: the key its interactions are signed with, and its server. */
export async function botOfApplication(db: Db, clientId: string): Promise<Pick<WhitelabelRow, 'server_id' | 'public_key'> | null> {
  return (
    (await db.selectFrom('whitelabel_bots').select(['server_id', 'public_key']).where('client_id', '=', clientId).where('deleted_at', 'is', null).executeTakeFirst()) ?? null
  );
}

/** Every (not removed) bot the runner reports running, with its sealed token. */
export async function runningBots(db: Db): Promise<WhitelabelRow[]> {
  return db.selectFrom('whitelabel_bots').selectAll().where('status', '=', 'Running').where('deleted_at', 'is', null).where('token_sealed', 'is not', null).execute();
}

/** Servers whose (not removed) bot is meant to run although their plan (one of `plans` or none) has no white-label bots. */
export async function serversRunningOffPlan(db: Db, plans: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('whitelabel_bots')
    .leftJoin('servers', 'servers.id', 'whitelabel_bots.server_id')
    .select('whitelabel_bots.server_id')
    .where('whitelabel_bots.deleted_at', 'is', null)
    .where('whitelabel_bots.status', '!=', 'NotRunning')
    .where((eb) => eb.or([eb('servers.plan', 'is', null), eb('servers.plan', 'not in', plans)]))
    .execute();
  return rows.map((row) => row.server_id);
}
