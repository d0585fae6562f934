import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * PostgreSQL: each ticket's words (the scoped words of all its search documents, migration 0026)
 * in one row of its own, so that a search finds matching tickets, not matching documents. A
 * common word is in several documents of most tickets; each match found costs a visit to its row,
 * so this reads a third as many rows as the documents would, narrow ones. The documents stay for
 * the highlights. SQLite reads the ticket of a match from the document's rowid (migration 0009),
 * without a visit, so it keeps its index as it is.
 */
export const ticketWordsMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    if (engine !== 'postgres') return;
    await sql`create table ticket_words (
      ticket_id text primary key references tickets(id) on delete cascade,
      words tsvector not null
    )`.execute(db);
    await sql`insert into ticket_words (ticket_id, words)
      select s.ticket_id, array_to_tsvector(array_agg(distinct w))
      from ticket_search s cross join unnest(tsvector_to_array(s.tsv)) as w
      group by s.ticket_id`.execute(db);
    await sql`create index ticket_words_idx on ticket_words using gin (words)`.execute(db);
  },
});
