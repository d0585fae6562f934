import type { Kysely } from 'kysely';
import type { CreateServerRequest } from '@ticket/contracts';
import { now } from '../../db/database';
import type { DB } from '../../db/schema';

export async function findServers(db: Kysely<DB>, ids: string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('servers').selectAll().where('id', 'in', ids).orderBy('name').execute();
}

export async function findServer(db: Kysely<DB>, id: string) {
  return db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function memberServerIds(db: Kysely<DB>, userId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('memberships')
    .select('server_id')
    .where('user_id', '=', userId)
    .where('server_id', 'in', ids)
    .execute();
  return rows.map((r) => r.server_id);
}

export async function upsertActiveServer(db: Kysely<DB>, server: CreateServerRequest): Promise<void> {
  const at = now();
  await db
    .insertInto('servers')
    .values({
      id: server.serverId,
      name: server.name,
      icon: server.icon ?? null,
      owner_id: server.ownerId,
      active: 1,
      plan: 'free',
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({ name: server.name, icon: server.icon ?? null, owner_id: server.ownerId, active: 1, updated_at: at }),
    )
    .execute();
}

export async function deactivateServer(db: Kysely<DB>, id: string): Promise<void> {
  await db.updateTable('servers').set({ active: 0, updated_at: now() }).where('id', '=', id).execute();
}

/** Keeps the dashboard's copy of a server in step with what the platform just said. */
export async function refreshServer(db: Kysely<DB>, id: string, fields: { name: string; icon: string | null; owner_id: string; active: number }): Promise<void> {
  await db.updateTable('servers').set({ ...fields, updated_at: now() }).where('id', '=', id).execute();
}

export async function listTestimonials(db: Kysely<DB>) {
  return db.selectFrom('testimonials').selectAll().orderBy('position').orderBy('id').execute();
}

export async function countTestimonials(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('testimonials').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertTestimonials(
  db: Kysely<DB>,
  rows: { testimonial: string; author: string; server: string; server_size: number; position: number }[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto('testimonials').values(rows).execute();
}
