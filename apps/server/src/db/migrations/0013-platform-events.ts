import type { Kysely, Migration } from 'kysely';

/**
 * What the bot runtime reported from the platform's gateway, by the event's stable id: it reports
 * at least once, so an event seen before is done already.
 */
export const platformEventsMigration = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('platform_events')
      .addColumn('event_id', 'text', (c) => c.primaryKey())
      .addColumn('server_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('received_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('platform_events_received_idx').on('platform_events').column('received_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('platform_events').execute();
  },
});
