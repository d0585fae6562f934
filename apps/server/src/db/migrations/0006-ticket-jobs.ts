import type { Kysely, Migration } from 'kysely';

/**
 * Work on tickets that waits for its time: a close requested with the subject's close delay. The
 * row is the promise, so a restart does not lose it: whatever is due when the process comes back
 * runs at once. One pending job of a kind per ticket.
 */
export const ticketJobsMigration = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ticket_jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
      .addColumn('server_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('run_at', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ticket_jobs_ticket_kind_uq').on('ticket_jobs').columns(['ticket_id', 'kind']).unique().execute();
    await db.schema.createIndex('ticket_jobs_run_at_idx').on('ticket_jobs').column('run_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('ticket_jobs').execute();
  },
});
