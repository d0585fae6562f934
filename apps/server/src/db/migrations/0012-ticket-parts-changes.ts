import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * The server's change counter (migration 0010) counts what a ticket's own page shows too: its
 * members, its messages' reactions and its files. Members and reactions name no server: the
 * trigger finds it from the ticket or the message.
 */
export const ticketPartsChangesMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const bump = (serverOf: string) =>
      sql`insert into server_changes (server_id, version) select server_id, 1 from ${sql.raw(serverOf)}
        on conflict (server_id) do update set version = server_changes.version + 1`;
    const parts = [
      ['ticket_members', (row: string) => `tickets where id = ${row}.ticket_id`],
      ['ticket_reactions', (row: string) => `ticket_messages where id = ${row}.message_id`],
      ['files', (row: string) => `files where id = ${row}.id`],
    ] as const;

    if (engine === 'sqlite') {
      for (const [table, serverOf] of parts) {
        for (const [event, row] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const) {
          // A deleted file is no longer there to name its server: its own row does.
          const source = table === 'files' && event === 'delete' ? `(select old.server_id as server_id) where true` : serverOf(row);
          await sql`create trigger ${sql.raw(`${table}_${event}_changes`)} after ${sql.raw(event)} on ${sql.raw(table)}
            begin ${bump(source)}; end`.execute(db);
        }
      }
      return;
    }

    await sql`create function note_ticket_part_change() returns trigger language plpgsql as $$
      declare
        part record;
        sid text;
      begin
        if tg_op = 'DELETE' then part := old; else part := new; end if;
        if tg_table_name = 'ticket_members' then select t.server_id into sid from tickets t where t.id = part.ticket_id;
        elsif tg_table_name = 'ticket_reactions' then select m.server_id into sid from ticket_messages m where m.id = part.message_id;
        else sid := part.server_id;
        end if;
        if sid is not null then
          insert into server_changes (server_id, version) values (sid, 1)
            on conflict (server_id) do update set version = server_changes.version + 1;
        end if;
        return null;
      end $$`.execute(db);
    for (const [table] of parts) {
      await sql`create trigger ${sql.raw(`${table}_changes`)} after insert or update or delete on ${sql.raw(table)}
        for each row execute function note_ticket_part_change()`.execute(db);
    }
  },
});
