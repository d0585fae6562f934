import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database';

/**
 * Objects we make at a payment provider once per installation and reuse (PayPal's catalog products
 * and billing plans): by provider, kind ('product' or 'plan') and our key for it, the provider's id.
 * The key is unique, so when several processes make one at the same time one row wins and the
 * others use it.
 */
export const providerCatalogMigration = (_engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('provider_catalog')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('provider_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('provider_catalog_pk', ['provider', 'kind', 'key'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('provider_catalog').execute();
  },
});
