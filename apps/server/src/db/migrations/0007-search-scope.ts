import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * SQLite's search index, made to answer one server's search without visiting other servers'
 * documents and to yield tickets without reading documents:
 * - the server of each document is an indexed FTS5 column (it was unindexed), so the server is
 *   part of the full-text query;
 * - each ticket gets a stable integer `search_key` (a trigger gives the next one on insert), and a
 *   document's rowid is its ticket's key × 2^20 plus its number within the ticket, so a match tells
 *   its ticket from the rowid alone and a ticket's documents are one rowid range.
 * PostgreSQL has both through its btree indexes; it gets the column, unused, so the schema is one.
 */
export const searchScopeMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tickets').addColumn('search_key', 'integer').execute();
    if (engine !== 'sqlite') return;
    await sql`update tickets set search_key = rowid`.execute(db);
    await db.schema.createIndex('tickets_search_key_uq').on('tickets').column('search_key').unique().execute();
    await sql`create trigger tickets_search_key after insert on tickets when new.search_key is null begin
      update tickets set search_key = (select coalesce(max(search_key), 0) + 1 from tickets) where rowid = new.rowid;
    end`.execute(db);
    await sql`create virtual table ticket_search_scoped using fts5(
      ticket_id unindexed, server_id, kind unindexed, ref_id unindexed, body,
      tokenize = 'unicode61 remove_diacritics 0'
    )`.execute(db);
    await sql`insert into ticket_search_scoped (rowid, ticket_id, server_id, kind, ref_id, body)
      select t.search_key * 1048576 + row_number() over (partition by s.ticket_id order by s.rowid) - 1, s.ticket_id, s.server_id, s.kind, s.ref_id, s.body
      from ticket_search s join tickets t on t.id = s.ticket_id`.execute(db);
    await sql`drop table ticket_search`.execute(db);
    await sql`alter table ticket_search_scoped rename to ticket_search`.execute(db);
  },
});
