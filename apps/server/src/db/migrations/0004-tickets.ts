import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../database';

/** Tickets, their members, messages and reactions, and the full-text index over them. */
export const ticketsMigration = (engine: Engine): Migration => {
  const json = engine === 'postgres' ? sql`jsonb` : sql`text`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('tickets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('server_id', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('author_id', 'text', (c) => c.notNull())
        .addColumn('assignee_id', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text')
        .addColumn('template_answers', json, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_activity_at', 'text', (c) => c.notNull())
        .addColumn('closed_at', 'text')
        .addColumn('closed_by', 'text')
        .addColumn('close_reason', 'text')
        .addColumn('close_force', 'integer')
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('tickets_server_number_uq').on('tickets').columns(['server_id', 'number']).unique().execute();
      await db.schema.createIndex('tickets_server_activity_idx').on('tickets').columns(['server_id', 'last_activity_at']).execute();
      await db.schema.createIndex('tickets_author_idx').on('tickets').columns(['author_id', 'last_activity_at']).execute();
      await db.schema.createIndex('tickets_subject_idx').on('tickets').columns(['subject_id', 'state']).execute();

      await db.schema
        .createTable('ticket_members')
        .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('added_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('ticket_members_pk', ['ticket_id', 'user_id'])
        .execute();
      await db.schema.createIndex('ticket_members_user_idx').on('ticket_members').column('user_id').execute();

      await db.schema
        .createTable('ticket_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
        .addColumn('server_id', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text')
        .addColumn('author_id', 'text', (c) => c.notNull())
        .addColumn('message_type', 'text', (c) => c.notNull())
        .addColumn('body', json, (c) => c.notNull())
        .addColumn('history', json, (c) => c.notNull())
        .addColumn('modified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ticket_messages_ticket_idx').on('ticket_messages').columns(['ticket_id', 'created_at']).execute();
      await db.schema.createIndex('ticket_messages_server_idx').on('ticket_messages').columns(['server_id', 'created_at']).execute();
      await db.schema.createIndex('ticket_messages_external_idx').on('ticket_messages').column('external_id').execute();

      await db.schema
        .createTable('ticket_reactions')
        .addColumn('message_id', 'text', (c) => c.notNull().references('ticket_messages.id').onDelete('cascade'))
        .addColumn('emoji_key', 'text', (c) => c.notNull())
        .addColumn('emoji', json, (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('ticket_reactions_pk', ['message_id', 'emoji_key', 'user_id'])
        .execute();

      // One searchable document per ticket name, form answer and message. Same tokens on both
      // engines: no stemming, no accent folding, case-insensitive.
      if (engine === 'postgres') {
        await sql`create table ticket_search (
          ticket_id text not null references tickets(id) on delete cascade,
          server_id text not null,
          kind text not null,
          ref_id text not null,
          body text not null,
          tsv tsvector generated always as (to_tsvector('simple', body)) stored,
          primary key (ticket_id, kind, ref_id)
        )`.execute(db);
        await sql`create index ticket_search_tsv_idx on ticket_search using gin (tsv)`.execute(db);
        await sql`create index ticket_search_server_idx on ticket_search (server_id)`.execute(db);
      } else {
        await sql`create virtual table ticket_search using fts5(
          ticket_id unindexed, server_id unindexed, kind unindexed, ref_id unindexed, body,
          tokenize = 'unicode61 remove_diacritics 0'
        )`.execute(db);
      }
    },
  };
};
