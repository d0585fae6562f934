import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database';

/**
 * Plan changes that wait for the buyer at the provider: a card upgrade whose invoice needs the
 * buyer (Stripe's hosted invoice page), a PayPal revise waiting for approval. `token` is what the
 * result page sends back (the invoice id, the PayPal subscription id); the row says whose change
 * it is, for which server, and to what plan, until the provider confirms it (complete) or not.
 */
export const planChangesMigration = (_engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('plan_changes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('subscription_id', 'text', (c) => c.notNull())
      .addColumn('server_id', 'text')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('plan_type', 'text', (c) => c.notNull())
      .addColumn('plan_interval', 'text', (c) => c.notNull())
      .addColumn('provider_plan_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('plan_changes_token_idx').on('plan_changes').columns(['provider', 'token']).execute();
    await db.schema.createIndex('plan_changes_subscription_idx').on('plan_changes').column('subscription_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('plan_changes').execute();
  },
});
