import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * PostgreSQL: the servers of each search scope (migration 0026), one row per server that has had
 * a ticket, written by the database as a ticket is inserted. A scope is six hex digits of its
 * server's id's MD5, so two servers may share one. While a server is alone in its scope, a ticket
 * holding a word of that scope is one of its own, and a search of the server is counted from the
 * words' postings alone (migration 0031), without reading its tickets: "refund" in a server of a
 * thousand tickets at a million tickets, 0.14 ms against 0.66 ms. A server that shares its scope
 * is counted by its tickets, as before.
 * A row stays when its server's tickets go: a scope then counts as shared for longer than it needs
 * to, which costs time only.
 */
export const searchScopesMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    if (engine !== 'postgres') return;
    await sql`create table search_scopes (scope text not null, server_id text not null, primary key (scope, server_id))`.execute(db);
    // The scope as migration 0026's ticket_search_words computes it.
    await sql`insert into search_scopes (scope, server_id)
      select distinct 'z' || left(md5(server_id), 6), server_id from tickets`.execute(db);
    await sql`create function note_search_scope() returns trigger language plpgsql as $$
      begin
        insert into search_scopes (scope, server_id) values ('z' || left(md5(new.server_id), 6), new.server_id) on conflict do nothing;
        return null;
      end $$`.execute(db);
    await sql`create trigger tickets_search_scope after insert on tickets for each row execute function note_search_scope()`.execute(db);
    await sql`analyze search_scopes`.execute(db);
  },
});
