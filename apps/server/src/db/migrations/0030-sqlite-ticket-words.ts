import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * SQLite: each ticket's words (the scoped words of all its search documents, migration 0026) in
 * one row of an FTS5 table whose rowid is the ticket's search key, as PostgreSQL keeps them since
 * migration 0028. A search for "invoice crash" then reads each word's tickets (a thousand postings
 * in a server of a thousand tickets) and FTS5 intersects them, instead of reading every matching
 * document (three thousand postings a word) and intersecting their tickets in temporary tables:
 * about a quarter of the time. A server's tickets are one range of keys (migration 0009), so its
 * matches are counted in the index alone. The documents stay for the highlights.
 */
export const sqliteTicketWordsMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    if (engine !== 'sqlite') return;
    await sql`create virtual table ticket_words using fts5(words, tokenize = 'ascii', detail = none)`.execute(db);
    // A word repeated across documents is one posting all the same (detail = none); the next write
    // to the ticket keeps each word once.
    await sql`insert into ticket_words (rowid, words)
      select ticket_search.rowid >> 16, group_concat(words, ' ') from ticket_search group by ticket_search.rowid >> 16`.execute(db);
  },
});
