import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/** Tables whose rows belong to a server (`server_id`) and make up what its ticket lists show. */
const SERVER_ROWS = ['tickets', 'ticket_messages', 'subjects'] as const;

/**
 * A change counter per server, kept by the database itself: every write to a server's tickets,
 * messages or subjects, and a new name or icon of the server, adds one. A reader that remembers
 * the counter with what it read knows, from one primary-key lookup, whether it is still current,
 * whichever process (or instance) wrote in between. The ticket list's cache relies on it.
 */
export const serverChangesMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    await sql`create table server_changes (server_id text primary key, version bigint not null)`.execute(db);
    const bump = (server: string) =>
      sql`insert into server_changes (server_id, version) values (${sql.raw(server)}, 1)
        on conflict (server_id) do update set version = server_changes.version + 1`;
    const renamed = (old: string, next: string) =>
      engine === 'sqlite'
        ? sql.raw(`${old}.name is not ${next}.name or ${old}.icon is not ${next}.icon`)
        : sql.raw(`${old}.name is distinct from ${next}.name or ${old}.icon is distinct from ${next}.icon`);

    if (engine === 'sqlite') {
      for (const table of SERVER_ROWS) {
        for (const [event, row] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const) {
          await sql`create trigger ${sql.raw(`${table}_${event}_changes`)} after ${sql.raw(event)} on ${sql.raw(table)}
            begin ${bump(`${row}.server_id`)}; end`.execute(db);
        }
      }
      await sql`create trigger servers_update_changes after update on servers when ${renamed('old', 'new')}
        begin ${bump('new.id')}; end`.execute(db);
      return;
    }

    await sql`create function note_server_change() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then ${bump('old.server_id')}; else ${bump('new.server_id')}; end if;
        return null;
      end $$`.execute(db);
    await sql`create function note_server_renamed() returns trigger language plpgsql as $$
      begin ${bump('new.id')}; return null; end $$`.execute(db);
    for (const table of SERVER_ROWS) {
      await sql`create trigger ${sql.raw(`${table}_changes`)} after insert or update or delete on ${sql.raw(table)}
        for each row execute function note_server_change()`.execute(db);
    }
    await sql`create trigger servers_changes after update on servers for each row when (${renamed('old', 'new')})
      execute function note_server_renamed()`.execute(db);
  },
});
