import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database';

/**
 * The calls made with each server's API key: what was called (method, route as routed, path
 * without its query string), the answer's status and duration, the key's prefix (a reset key's
 * calls are told apart) and whether the key's rate limit refused it. No header or body is kept.
 * Bounded by age and by count per server (pruned by the service).
 */
export const apiKeyCallsMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('api_key_calls')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('server_id', 'text', (c) => c.notNull())
      .addColumn('key_prefix', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('duration_ms', engine === 'postgres' ? 'double precision' : 'real', (c) => c.notNull())
      .addColumn('rate_limited', 'integer', (c) => c.notNull())
      .execute();
    // A server's calls, newest first; pruning by age and by count per server.
    await db.schema.createIndex('api_key_calls_server_at_idx').on('api_key_calls').columns(['server_id', 'at']).execute();
    // The sweep of calls past the retention, across servers.
    await db.schema.createIndex('api_key_calls_at_idx').on('api_key_calls').column('at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('api_key_calls').execute();
  },
});
