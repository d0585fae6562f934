import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database';

/**
 * Stored attachments of tickets. The bytes live in the file storage under `storage_key`; a row
 * with `deleted_at` set is gone for every reader and waits for its bytes to be removed.
 */
export const filesMigration = (engine: Engine): Migration => {
  // Sums of sizes exceed 2^31 on a full Enterprise server; single sizes may too if the limit is raised.
  const bytes = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('server_id', 'text', (c) => c.notNull())
        // No foreign key: a ticket may be deleted first; the files service then deletes its files
        // (bytes and rows) itself, at once or at the next sweep.
        .addColumn('ticket_id', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', bytes, (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('blur_hash', 'text')
        .addColumn('attachment_id', 'text')
        .addColumn('uploader_kind', 'text', (c) => c.notNull())
        .addColumn('uploader_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute();
      await db.schema.createIndex('files_server_created_idx').on('files').columns(['server_id', 'created_at']).execute();
      await db.schema.createIndex('files_subject_created_idx').on('files').columns(['subject_id', 'created_at']).execute();
      await db.schema.createIndex('files_ticket_idx').on('files').columns(['ticket_id', 'created_at']).execute();
      await db.schema.createIndex('files_attachment_idx').on('files').columns(['server_id', 'attachment_id']).execute();
      await db.schema.createIndex('files_deleted_idx').on('files').column('deleted_at').execute();
    },
  };
};
