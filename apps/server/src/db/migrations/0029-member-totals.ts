import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * How many tickets each user is a member of, kept by the database as memberships come and go
 * (a ticket deleted takes its memberships with it), so that a member's own list is counted by one
 * row instead of reading every membership of theirs: 40,000 index entries for a member with
 * tickets on forty busy servers.
 */
export const memberTotalsMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    await sql`create table member_totals (user_id text primary key, tickets bigint not null)`.execute(db);
    await sql`insert into member_totals (user_id, tickets) select user_id, count(*) from ticket_members group by user_id`.execute(db);
    const add = (user: string) =>
      sql`insert into member_totals (user_id, tickets) values (${sql.raw(user)}, 1)
        on conflict (user_id) do update set tickets = member_totals.tickets + 1`;
    const take = (user: string) => sql`update member_totals set tickets = tickets - 1 where user_id = ${sql.raw(user)}`;
    if (engine === 'sqlite') {
      await sql`create trigger ticket_members_insert_totals after insert on ticket_members begin ${add('new.user_id')}; end`.execute(db);
      await sql`create trigger ticket_members_delete_totals after delete on ticket_members begin ${take('old.user_id')}; end`.execute(db);
      return;
    }
    await sql`create function note_member_total() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then ${take('old.user_id')}; else ${add('new.user_id')}; end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger ticket_members_totals after insert or delete on ticket_members
      for each row execute function note_member_total()`.execute(db);
  },
});
