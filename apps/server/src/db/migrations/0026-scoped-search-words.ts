import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * The search index keeps each word prefixed with its server's scope (db/search-terms.ts), so a
 * search in one server reads that server's postings of its words. Before, a search for a common
 * word read every server's postings of it and kept its own server's: at a million tickets, a
 * few hundred thousand postings for a few thousand kept.
 * - SQLite: the text stays for highlights, unindexed; a new indexed column holds its scoped words,
 *   computed by `search_index_text` (registered on every connection, db/database.ts). The ascii
 *   tokenizer keeps each scoped word whole: they are split and lower-cased already.
 * - PostgreSQL: the tsvector holds the scoped words, computed by an immutable function that splits
 *   the text as the server does (runs of letters and digits, lower-cased, up to 100 characters).
 */
export const scopedSearchWordsMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    if (engine === 'postgres') {
      await sql`create or replace function ticket_search_words(server text, body text) returns tsvector
        language sql immutable parallel safe
        as $$
          select coalesce(array_to_tsvector(array_agg(distinct 'z' || left(md5(server), 6) || w)), ''::tsvector)
          from regexp_split_to_table(lower(body), '[^[:alnum:]]+') as w
          where w <> '' and length(w) <= 100
        $$`.execute(db);
      await sql`alter table ticket_search drop column tsv`.execute(db);
      await sql`alter table ticket_search add column tsv tsvector generated always as (ticket_search_words(server_id, body)) stored`.execute(db);
      await sql`create index ticket_search_tsv_idx on ticket_search using gin (tsv)`.execute(db);
      await sql`drop index if exists ticket_search_server_idx`.execute(db);
      return;
    }
    await sql`create virtual table ticket_search_scoped using fts5(
      ticket_id unindexed, server_id unindexed, kind unindexed, ref_id unindexed, body unindexed, words,
      tokenize = 'ascii', detail = none
    )`.execute(db);
    await sql`insert into ticket_search_scoped (rowid, ticket_id, server_id, kind, ref_id, body, words)
      select rowid, ticket_id, server_id, kind, ref_id, body, search_index_text(server_id, body) from ticket_search`.execute(db);
    await sql`drop table ticket_search`.execute(db);
    await sql`alter table ticket_search_scoped rename to ticket_search`.execute(db);
  },
});
