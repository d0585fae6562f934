import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * PostgreSQL: the search documents' index of words (a GIN index of `ticket_search.tsv`) goes. A
 * search finds its tickets in their postings (migration 0031) and a found ticket's texts by the
 * documents' key, so no statement reads it: at a million tickets its 242 MB had not been scanned
 * once after servers' and members' lists and searches, while every message written added to it.
 * Offered it with the words written into a statement, the planner crossed it with the key to find
 * a page's texts: 1.4 ms a ticket, against 0.03 ms from the key alone.
 * The documents keep their words (`tsv`), which a ticket's postings are gathered from.
 */
export const dropDocumentWordsIndexMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    if (engine !== 'postgres') return;
    await sql`drop index if exists ticket_search_tsv_idx`.execute(db);
  },
});
