import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * PostgreSQL: one index of the search documents by server and words (btree_gin), so a server's
 * search reads its own matching documents only, instead of intersecting every server's documents
 * holding the words with every document of the server. Where btree_gin is not available the
 * separate indexes stay and searches answer the same, more slowly. SQLite's search already reads
 * one server's range (migration 0009).
 */
export const serverSearchIndexMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    if (engine !== 'postgres') return;
    const { rows } = await sql<{ name: string }>`select name from pg_available_extensions where name = 'btree_gin'`.execute(db);
    if (rows.length === 0) return;
    // The extension is the database's, whoever installs it: installations migrating at the same
    // moment (one schema each) take turns, and it goes in the public schema when there is one,
    // so that dropping one installation's schema leaves the others' indexes.
    await sql`select pg_advisory_xact_lock(hashtext('btree_gin'))`.execute(db);
    const { rows: publicSchema } = await sql`select 1 from pg_namespace where nspname = 'public'`.execute(db);
    await (publicSchema.length ? sql`create extension if not exists btree_gin schema public` : sql`create extension if not exists btree_gin`).execute(db);
    await sql`create index ticket_search_server_tsv_idx on ticket_search using gin (server_id, tsv)`.execute(db);
    await sql`drop index if exists ticket_search_server_idx`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (engine !== 'postgres') return;
    await sql`create index if not exists ticket_search_server_idx on ticket_search (server_id)`.execute(db);
    await sql`drop index if exists ticket_search_server_tsv_idx`.execute(db);
  },
});
