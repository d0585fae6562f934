import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * What a list shows of each ticket's newest message (its author, time and first 200 characters)
 * and the staff who wrote in it, kept on the ticket's row: a page of a list reads its tickets'
 * rows alone, instead of one message and the staff messages of every ticket on the page.
 * And each membership carries its ticket's last activity, so a member's own tickets across every
 * server are paged off one index (their memberships, newest activity first); every author is a
 * member of their ticket.
 */
export const ticketListColumnsMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    for (const column of ['last_message_author', 'last_message_at', 'last_message_preview', 'attendees']) {
      await db.schema.alterTable('tickets').addColumn(column, 'text').execute();
    }
    const content = engine === 'postgres' ? sql`substr(m.body->>'content', 1, 200)` : sql`substr(json_extract(m.body, '$.content'), 1, 200)`;
    await sql`update tickets set
        last_message_author = (select m.author_id from ticket_messages m where m.id = tickets.last_message_id),
        last_message_at = (select m.created_at from ticket_messages m where m.id = tickets.last_message_id),
        last_message_preview = (select ${content} from ticket_messages m where m.id = tickets.last_message_id)
      where last_message_id is not null`.execute(db);
    // Staff in the order they first wrote in the ticket.
    const joined =
      engine === 'postgres'
        ? sql`(select string_agg(f.author_id, ',' order by f.first, f.author_id) from (
            select author_id, min(created_at) as first from ticket_messages where ticket_id = tickets.id and message_type = 'Staff' group by author_id) f)`
        : sql`(select group_concat(author_id, ',') from (
            select author_id, min(created_at) as first from ticket_messages where ticket_id = tickets.id and message_type = 'Staff' group by author_id order by first, author_id))`;
    await sql`update tickets set attendees = ${joined}`.execute(db);

    await sql`insert into ticket_members (ticket_id, user_id, added_at)
      select t.id, t.author_id, t.created_at from tickets t
      where not exists (select 1 from ticket_members m where m.ticket_id = t.id and m.user_id = t.author_id)`.execute(db);
    await db.schema.alterTable('ticket_members').addColumn('last_activity_at', 'text').execute();
    await sql`update ticket_members set last_activity_at = (select t.last_activity_at from tickets t where t.id = ticket_members.ticket_id)`.execute(db);
    await sql`create index ticket_members_activity_idx on ticket_members (user_id, last_activity_at desc, ticket_id desc)`.execute(db);
    await sql`drop index ticket_members_user_idx`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.createIndex('ticket_members_user_idx').on('ticket_members').column('user_id').execute();
    await sql`drop index ticket_members_activity_idx`.execute(db);
    await db.schema.alterTable('ticket_members').dropColumn('last_activity_at').execute();
    for (const column of ['attendees', 'last_message_preview', 'last_message_at', 'last_message_author']) {
      await db.schema.alterTable('tickets').dropColumn(column).execute();
    }
  },
});
