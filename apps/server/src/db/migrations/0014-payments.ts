import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database';

/**
 * Paid plans: the providers' subscriptions as we know them, the checkouts that lead to them, every
 * provider event by its id (each is applied once), and a receipt for every payment and refund.
 * `servers.plan` stays the stored result of a server's applied subscription. A subject that a plan
 * ending made inactive is marked, so it comes back when the server is paid for again.
 */
export const paymentsMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('provider_subscription_id', 'text', (c) => c.notNull())
      .addColumn('provider_customer_id', 'text')
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('plan_type', 'text', (c) => c.notNull())
      .addColumn('plan_interval', 'text', (c) => c.notNull())
      .addColumn('period_start', 'text')
      .addColumn('current_period_end', 'text')
      .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('server_id', 'text')
      .addColumn('applied', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_transferred', 'text')
      .addColumn('scheduled_plan_type', 'text')
      .addColumn('scheduled_plan_interval', 'text')
      .addColumn('scheduled_effective_date', 'text')
      .addColumn('first_paid_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('subscriptions_provider_uq')
      .on('subscriptions')
      .columns(['provider', 'provider_subscription_id'])
      .unique()
      .execute();
    await db.schema.createIndex('subscriptions_user_idx').on('subscriptions').column('user_id').execute();
    await db.schema.createIndex('subscriptions_server_idx').on('subscriptions').column('server_id').execute();

    await db.schema
      .createTable('checkout_sessions')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('server_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('plan_type', 'text', (c) => c.notNull())
      .addColumn('plan_interval', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('subscription_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('checkout_sessions_pk', ['provider', 'session_id'])
      .execute();

    await db.schema
      .createTable('payment_events')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('received_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('payment_events_pk', ['provider', 'event_id'])
      .execute();

    await db.schema
      .createTable('receipts')
      .addColumn('number', engine === 'postgres' ? 'serial' : 'integer', (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('subscription_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('server_id', 'text')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('plan_type', 'text', (c) => c.notNull())
      .addColumn('plan_interval', 'text', (c) => c.notNull())
      .addColumn('period_start', 'text')
      .addColumn('period_end', 'text')
      .addColumn('amount_cents', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('provider_payment_id', 'text', (c) => c.notNull())
      .addColumn('provider_charge_id', 'text')
      .addColumn('carbon_removal_cents', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('receipts_payment_uq')
      .on('receipts')
      .columns(['provider', 'kind', 'provider_payment_id'])
      .unique()
      .execute();
    await db.schema.createIndex('receipts_user_idx').on('receipts').column('user_id').execute();

    await db.schema.alterTable('subjects').addColumn('plan_inactive', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('subjects').dropColumn('plan_inactive').execute();
    for (const table of ['receipts', 'payment_events', 'checkout_sessions', 'subscriptions']) await db.schema.dropTable(table).execute();
  },
});
