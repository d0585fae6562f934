import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../database';

/** Panels: the messages members click to open tickets. */
export const panelsMigration = (engine: Engine): Migration => {
  const json = engine === 'postgres' ? sql`jsonb` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('panels')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('server_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('draft', 'integer', (c) => c.notNull())
        .addColumn('channel_id', 'text')
        .addColumn('message_id', 'text')
        // subjects (buttons or options) and the message, as the wizard saved them.
        .addColumn('content', json, (c) => c.notNull())
        .addColumn('last_sent', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('panels_server_idx').on('panels').columns(['server_id', 'created_at']).execute();
    },
  };
};
