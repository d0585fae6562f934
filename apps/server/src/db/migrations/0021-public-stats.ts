import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * Installation-wide totals kept as counters, so the public statistics read three rows instead of
 * counting every ticket and message: the support repository moves them in the same transaction
 * as the write they count. They start from the data already there, once. And a server's admins
 * may make its statistics public (off by default).
 */
export const publicStatsMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('counters')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', engine === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
      .execute();
    await sql`insert into counters (name, value)
      select 'tickets', count(*) from tickets
      union all select 'messages', count(*) from ticket_messages
      union all select 'open_tickets', count(*) from tickets where deleted = 0 and state <> 'Closed'`.execute(db);
    await db.schema
      .alterTable('server_settings')
      .addColumn('public_stats', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('server_settings').dropColumn('public_stats').execute();
    await db.schema.dropTable('counters').execute();
  },
});
