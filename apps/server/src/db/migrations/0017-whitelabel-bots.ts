import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../database';

/**
 * The white-label bot of each server (one at most): who the bot is on the platform (its user,
 * application and public key, read with its token), its token sealed with AES-256-GCM, its
 * activity, and its status as the runner reports it. `revision` goes up with every change the
 * runner must act on. `shard_key` is `server_id >> 22`, so a runner's share is
 * `shard_key % shardCount = shardId` in SQL on both engines. A removed bot keeps its row, stopped
 * and without its token (`deleted_at`), so one application can serve one server at a time.
 */
export const whitelabelBotsMigration = (_engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('whitelabel_bots')
      .addColumn('server_id', 'text', (c) => c.primaryKey())
      .addColumn('shard_key', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('avatar', 'text')
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('token_sealed', 'text')
      .addColumn('activity', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('status_message', 'text')
      .addColumn('status_at', 'text', (c) => c.notNull())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('deleted_at', 'text')
      .execute();
    await db.schema.createIndex('whitelabel_bots_shard_idx').on('whitelabel_bots').column('shard_key').execute();
    await db.schema
      .createIndex('whitelabel_bots_client_idx')
      .unique()
      .on('whitelabel_bots')
      .column('client_id')
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('whitelabel_bots').execute();
  },
});
