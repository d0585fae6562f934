import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../database';

export const initialMigration = (engine: Engine): Migration => {
  const json = engine === 'postgres' ? sql`jsonb` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('global_name', 'text')
        .addColumn('avatar', 'text')
        .addColumn('email', 'text')
        .addColumn('locale', 'text')
        .addColumn('access_token', 'text')
        .addColumn('refresh_token', 'text')
        .addColumn('token_expires_at', 'text')
        .addColumn('scope', 'text')
        .addColumn('synced_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .addColumn('ip', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('servers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('icon', 'text')
        .addColumn('owner_id', 'text')
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('plan', 'text', (c) => c.notNull().defaultTo('free'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('memberships')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('server_id', 'text', (c) => c.notNull().references('servers.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('nickname', 'text')
        .addColumn('avatar', 'text')
        .addColumn('role_ids', json, (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'server_id'])
        .execute();
      await db.schema.createIndex('memberships_server_idx').on('memberships').column('server_id').execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('server_id', 'text', (c) => c.primaryKey().references('servers.id').onDelete('cascade'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_prefix', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .execute();

      await db.schema
        .createTable('testimonials')
        .addColumn('id', engine === 'postgres' ? 'serial' : 'integer', (c) =>
          engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('testimonial', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('server', 'text', (c) => c.notNull())
        .addColumn('server_size', 'integer', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('staff_roles')
        .addColumn('server_id', 'text', (c) => c.notNull().references('servers.id').onDelete('cascade'))
        .addColumn('role_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('staff_roles_pk', ['server_id', 'role_id'])
        .execute();
    },
  };
};
