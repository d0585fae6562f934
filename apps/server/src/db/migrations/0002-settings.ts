import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../database';

/** Subjects, server settings, form questions and the audit log of setting changes. */
export const settingsMigration = (engine: Engine): Migration => {
  const json = engine === 'postgres' ? sql`jsonb` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('server_settings')
        .addColumn('server_id', 'text', (c) => c.primaryKey())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('subjects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('server_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        // Lower-cased name: uniqueness per server ignores case.
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('inherits_from', 'text')
        .addColumn('settings', json, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('subjects_server_idx').on('subjects').columns(['server_id', 'position']).execute();
      await db.schema
        .createIndex('subjects_live_name_uq')
        .on('subjects')
        .columns(['server_id', 'name_key'])
        .unique()
        .where(sql.ref('deleted'), '=', 0)
        .execute();

      await db.schema
        .createTable('templates')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('server_id', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('question', json, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('templates_subject_idx').on('templates').columns(['subject_id', 'position']).execute();
      await db.schema.createIndex('templates_server_idx').on('templates').column('server_id').execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('server_id', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text')
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('path', 'text')
        .addColumn('old_value', json)
        .addColumn('new_value', json)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // Staff roles now come from the subjects' staffRoles.
      await db.schema.dropTable('staff_roles').execute();

      await db.schema.createIndex('audit_log_server_idx').on('audit_log').columns(['server_id', 'created_at']).execute();
    },
  };
};
