import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Each ticket points at its newest message that is not deleted, so a list shows the last message
 * of each ticket by primary key instead of searching every ticket's messages for the newest.
 */
export const lastMessageMigration = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tickets').addColumn('last_message_id', 'text').execute();
    await sql`update tickets set last_message_id = (
      select m.id from ticket_messages m where m.ticket_id = tickets.id and m.deleted = 0 order by m.created_at desc, m.id desc limit 1
    )`.execute(db);
  },
});
