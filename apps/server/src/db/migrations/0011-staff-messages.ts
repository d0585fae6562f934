import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The staff who wrote in a ticket (a list's "attendees") from an index of staff messages alone,
 * instead of reading every message of the ticket.
 */
export const staffMessagesMigration = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await sql`create index ticket_messages_staff_idx on ticket_messages (ticket_id, author_id) where message_type = 'Staff'`.execute(db);
  },
});
