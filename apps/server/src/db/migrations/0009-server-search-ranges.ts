import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * The ticket list, the search and the automation, made to cost the same in a server of a thousand
 * tickets whether the database holds a thousand or a million:
 * - a partial index of live tickets in list order (server, newest activity, id), so a page is read
 *   off the index without sorting, and a count reads the index alone;
 * - a partial index of the tickets waiting for their user, the only ones the auto-close sweep reads;
 * - SQLite: a server's search documents are one contiguous rowid range. Each server gets a number
 *   (`search_bases`, on its first ticket); a ticket's `search_key` is that number × 2^23 plus the
 *   ticket's running number, and a document's rowid is the key × 2^16 plus its number within the
 *   ticket. A search in one server asks FTS5 for that rowid range only, a ticket's documents are a
 *   smaller range inside it, and a match tells its ticket from its rowid. The layout holds 2^24
 *   servers, 2^23 tickets per server and 2^16 documents per ticket (see services/support/search-repository.ts).
 * PostgreSQL finds a server's documents through its btree indexes and keeps its layout.
 */
export const serverSearchRangesMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    // With the search key, a search walks a server's tickets on the index alone and reads the rows of its page only.
    await sql`create index tickets_live_idx on tickets (server_id, last_activity_at desc, id desc, search_key) where deleted = 0`.execute(db);
    await db.schema.dropIndex('tickets_server_activity_idx').execute();
    await sql`create index tickets_waiting_idx on tickets (last_activity_at, id) where deleted = 0 and state in ('PendingUser', 'AutoClose')`.execute(db);
    if (engine !== 'sqlite') return;

    await sql`create table search_bases (server_id text primary key, base integer not null unique)`.execute(db);
    await sql`insert into search_bases (server_id, base)
      select server_id, row_number() over (order by min(rowid)) from tickets group by server_id`.execute(db);
    await sql`drop trigger tickets_search_key`.execute(db);
    // Cleared first: keys are unique, and a new key may be another ticket's old one.
    await sql`update tickets set search_key = null`.execute(db);
    await sql`update tickets set search_key = (select base from search_bases b where b.server_id = tickets.server_id) * 8388608 + number
      where number between 0 and 8388607 and (select base from search_bases b where b.server_id = tickets.server_id) < 16777216`.execute(db);
    await sql`create trigger tickets_search_key after insert on tickets when new.search_key is null and new.number between 0 and 8388607 begin
      insert or ignore into search_bases (server_id, base) values (new.server_id, (select coalesce(max(base), 0) + 1 from search_bases));
      update tickets set search_key = (select base * 8388608 + new.number from search_bases where server_id = new.server_id and base < 16777216)
        where rowid = new.rowid;
    end`.execute(db);

    // One column is indexed, the text; nothing asks for phrases, so the index keeps no positions.
    await sql`create virtual table ticket_search_ranged using fts5(
      ticket_id unindexed, server_id unindexed, kind unindexed, ref_id unindexed, body,
      tokenize = 'unicode61 remove_diacritics 0', detail = none
    )`.execute(db);
    await sql`insert into ticket_search_ranged (rowid, ticket_id, server_id, kind, ref_id, body)
      select t.search_key * 65536 + row_number() over (partition by s.ticket_id order by s.rowid) - 1, s.ticket_id, s.server_id, s.kind, s.ref_id, s.body
      from ticket_search s join tickets t on t.id = s.ticket_id
      where t.search_key is not null`.execute(db);
    await sql`drop table ticket_search`.execute(db);
    await sql`alter table ticket_search_ranged rename to ticket_search`.execute(db);
  },
});
