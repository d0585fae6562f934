import type { Kysely, Migration } from 'kysely';

/**
 * Background work shared by several API processes. A delayed close is claimed for a while
 * (`claimed_until`, by `claim_token`) instead of being removed when taken, and removed once it has
 * run: a process that dies holding it leaves it to the next one once the claim has passed. Work
 * recomputed from what is stored (the auto-close and file retention sweeps, and the like) is done
 * by one process at a time, the one holding its named lease in `leases` until `until`.
 */
export const jobLeasesMigration = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('ticket_jobs').addColumn('claimed_until', 'text').execute();
    await db.schema.alterTable('ticket_jobs').addColumn('claim_token', 'text').execute();
    await db.schema
      .createTable('leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('until', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('leases').execute();
    await db.schema.alterTable('ticket_jobs').dropColumn('claim_token').execute();
    await db.schema.alterTable('ticket_jobs').dropColumn('claimed_until').execute();
  },
});
