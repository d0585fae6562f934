import type { Kysely, Transaction } from 'kysely';
import type { ServerRole } from '@ticket/contracts';
import { now, toJson } from '../../db/database';
import type { ApiKeyCallsTable, DB, UsersTable } from '../../db/schema';
import { reusableQuery } from '../../db/reusable-query';

type Db = Kysely<DB> | Transaction<DB>;

export interface GuildFact {
  serverId: string;
  name: string;
  icon: string | null;
  ownerId: string | null;
  botPresent: boolean;
  role: ServerRole;
  nickname: string | null;
  avatar: string | null;
  roleIds: string[];
}

export interface SessionRow {
  id: string;
  user_id: string;
  expires_at: string;
  last_used_at: string;
}

export async function findUser(db: Db, userId: string) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function upsertUser(db: Db, user: Omit<UsersTable, 'created_at' | 'updated_at'>): Promise<void> {
  const at = now();
  await db
    .insertInto('users')
    .values({ ...user, created_at: at, updated_at: at })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        username: user.username,
        global_name: user.global_name,
        avatar: user.avatar,
        email: user.email,
        locale: user.locale,
        access_token: user.access_token,
        refresh_token: user.refresh_token,
        token_expires_at: user.token_expires_at,
        scope: user.scope,
        synced_at: user.synced_at,
        updated_at: at,
      }),
    )
    .execute();
}

export async function updateUserTokens(
  db: Db,
  userId: string,
  tokens: { access_token: string; refresh_token: string; token_expires_at: string; scope: string },
): Promise<void> {
  await db.updateTable('users').set({ ...tokens, updated_at: now() }).where('id', '=', userId).execute();
}

/**
 * Replaces what we know of the user's servers with what the platform just told us, in one
 * transaction with the caller's other writes.
 */
export async function replaceMemberships(trx: Transaction<DB>, userId: string, guilds: GuildFact[]): Promise<void> {
  const at = now();
  for (const guild of guilds) {
    await trx
      .insertInto('servers')
      .values({
        id: guild.serverId,
        name: guild.name,
        icon: guild.icon,
        owner_id: guild.ownerId,
        active: guild.botPresent ? 1 : 0,
        plan: 'free',
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          name: guild.name,
          icon: guild.icon,
          owner_id: guild.ownerId,
          active: guild.botPresent ? 1 : 0,
          updated_at: at,
        }),
      )
      .execute();
  }
  await trx.deleteFrom('memberships').where('user_id', '=', userId).execute();
  if (guilds.length > 0) {
    await trx
      .insertInto('memberships')
      .values(
        guilds.map((g) => ({
          user_id: userId,
          server_id: g.serverId,
          role: g.role,
          nickname: g.nickname,
          avatar: g.avatar,
          role_ids: toJson(g.roleIds),
          updated_at: at,
        })),
      )
      .execute();
  }
  await trx.updateTable('users').set({ synced_at: at }).where('id', '=', userId).execute();
}

export async function listMemberships(db: Db, userId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('servers', 'servers.id', 'memberships.server_id')
    .select([
      'servers.id as serverId',
      'servers.name as name',
      'servers.icon as icon',
      'servers.active as active',
      'memberships.role as role',
      'memberships.nickname as nickname',
      'memberships.avatar as avatar',
      'memberships.role_ids as roleIds',
    ])
    .where('memberships.user_id', '=', userId)
    .orderBy('servers.name')
    .execute();
}

/** The user's role on the server as last read, and when it was read. */
export async function findRole(db: Db, userId: string, serverId: string): Promise<{ role: ServerRole; checkedAt: string } | null> {
  const row = await db
    .selectFrom('memberships')
    .select(['role', 'updated_at'])
    .where('user_id', '=', userId)
    .where('server_id', '=', serverId)
    .executeTakeFirst();
  return row ? { role: row.role as ServerRole, checkedAt: row.updated_at } : null;
}

/** Makes the roles on a server (of one user, or of all) due to be read again. */
export async function markRolesStale(db: Db, serverId: string, userId?: string): Promise<void> {
  let query = db.updateTable('memberships').set({ updated_at: new Date(0).toISOString() }).where('server_id', '=', serverId);
  if (userId) query = query.where('user_id', '=', userId);
  await query.execute();
}

/** The role read again from the platform; null: the user is no longer in the server. */
export async function putRole(db: Db, userId: string, serverId: string, standing: { role: ServerRole; roleIds: string[] } | null): Promise<void> {
  const scope = db.updateTable('memberships').where('user_id', '=', userId).where('server_id', '=', serverId);
  if (standing) {
    await scope.set({ role: standing.role, role_ids: toJson(standing.roleIds), updated_at: now() }).execute();
  } else {
    await db.deleteFrom('memberships').where('user_id', '=', userId).where('server_id', '=', serverId).execute();
  }
}

export async function insertSession(
  db: Db,
  session: { id: string; token_hash: string; user_id: string; expires_at: string; user_agent: string | null; ip: string | null },
): Promise<void> {
  const at = now();
  await db
    .insertInto('sessions')
    .values({ ...session, created_at: at, last_used_at: at })
    .execute();
}

/** Every call signed in looks up its session (compiled once). */
const liveSession = reusableQuery((db, v: { tokenHash: string; at: string }) =>
  db.selectFrom('sessions').select(['id', 'user_id', 'expires_at', 'last_used_at']).where('token_hash', '=', v.tokenHash).where('expires_at', '>', v.at),
);

export async function findLiveSession(db: Db, tokenHash: string): Promise<SessionRow | undefined> {
  return (await liveSession(db, { tokenHash, at: now() }))[0];
}

export async function findSessionById(db: Db, sessionId: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').select(['id', 'user_id', 'expires_at', 'last_used_at']).where('id', '=', sessionId).executeTakeFirst();
}

export async function touchSession(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now() }).where('id', '=', sessionId).execute();
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

export async function deleteExpiredSessions(db: Db): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', now()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findServer(db: Db, serverId: string) {
  return db.selectFrom('servers').selectAll().where('id', '=', serverId).executeTakeFirst();
}

export async function findApiKey(db: Db, serverId: string) {
  return db.selectFrom('api_keys').selectAll().where('server_id', '=', serverId).executeTakeFirst();
}

export async function findApiKeyByHash(db: Db, keyHash: string) {
  return db.selectFrom('api_keys').select(['server_id', 'key_prefix', 'last_used_at']).where('key_hash', '=', keyHash).executeTakeFirst();
}

export async function putApiKey(
  db: Db,
  key: { server_id: string; key_hash: string; key_prefix: string; created_by: string | null },
): Promise<string> {
  const at = now();
  await db
    .insertInto('api_keys')
    .values({ ...key, created_at: at, last_used_at: null })
    .onConflict((oc) =>
      oc.column('server_id').doUpdateSet({
        key_hash: key.key_hash,
        key_prefix: key.key_prefix,
        created_by: key.created_by,
        created_at: at,
        last_used_at: null,
      }),
    )
    .execute();
  return at;
}

export async function touchApiKey(db: Db, serverId: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now() }).where('server_id', '=', serverId).execute();
}

export async function deleteApiKey(db: Db, serverId: string): Promise<boolean> {
  const result = await db.deleteFrom('api_keys').where('server_id', '=', serverId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listLiveSessions(db: Db, userId: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_used_at', 'expires_at', 'user_agent'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now())
    .orderBy('created_at', 'desc')
    .execute();
}

/** Deletes the session only when it belongs to the user; another user's id is "not found". */
export async function deleteUserSession(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const result = await db.deleteFrom('sessions').where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Rows per insert statement: well under either engine's bound on bound parameters. */
const CALLS_PER_INSERT = 500;

export async function insertApiKeyCalls(db: Db, calls: ApiKeyCallsTable[]): Promise<void> {
  for (let i = 0; i < calls.length; i += CALLS_PER_INSERT) {
    await db.insertInto('api_key_calls').values(calls.slice(i, i + CALLS_PER_INSERT)).execute();
  }
}

export type ApiKeyCallFilter = 'success' | 'error' | 'rateLimited';

/** A server's calls since `since`, newest first, one page of them, and how many there are in all. */
export async function listApiKeyCalls(
  db: Db,
  serverId: string,
  since: string,
  filter: ApiKeyCallFilter | undefined,
  page: { offset: number; limit: number },
): Promise<{ rows: ApiKeyCallsTable[]; total: number }> {
  let scope = db.selectFrom('api_key_calls').where('server_id', '=', serverId).where('at', '>=', since);
  if (filter === 'success') scope = scope.where('status', '<', 400);
  if (filter === 'error') scope = scope.where('status', '>=', 400);
  if (filter === 'rateLimited') scope = scope.where('rate_limited', '=', 1);
  const [rows, count] = await Promise.all([
    scope.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    scope.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Removes the server's calls older than `before`, and all but its newest `keep`. */
export async function pruneApiKeyCalls(db: Db, serverId: string, before: string, keep: number): Promise<void> {
  await db.deleteFrom('api_key_calls').where('server_id', '=', serverId).where('at', '<', before).execute();
  const edge = await db
    .selectFrom('api_key_calls')
    .select(['at', 'id'])
    .where('server_id', '=', serverId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst();
  if (!edge) return;
  await db
    .deleteFrom('api_key_calls')
    .where('server_id', '=', serverId)
    .where((eb) => eb.or([eb('at', '<', edge.at), eb.and([eb('at', '=', edge.at), eb('id', '<=', edge.id)])]))
    .execute();
}

/** Removes every server's calls older than `before`. */
export async function deleteApiKeyCallsBefore(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('api_key_calls').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
