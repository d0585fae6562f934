import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * A server's statistics as counters kept by day, so the staff dashboard's statistics read a few
 * rows per day of the range instead of counting every ticket and message of the server:
 * - `server_totals`: tickets, open tickets and messages of the server;
 * - `server_daily_stats`: tickets opened, messages written, and the first staff answers of the
 *   tickets opened that day (how many, and the milliseconds they took in all);
 * - `server_subject_daily`: tickets opened per subject and day;
 * - `server_supporter_daily`: per staff member, the tickets in which they first answered that day.
 * A ticket remembers when staff first answered it (`answered_at`). The support repository moves
 * the counters in the same transaction as the write they count; they start from the data
 * already there, once.
 */
export const serverStatsMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const big = engine === 'postgres' ? 'bigint' : 'integer';
    await db.schema.alterTable('tickets').addColumn('answered_at', 'text').execute();
    await sql`update tickets set answered_at = (
        select min(m.created_at) from ticket_messages m where m.ticket_id = tickets.id and m.message_type = 'Staff')`.execute(db);

    await db.schema
      .createTable('server_totals')
      .addColumn('server_id', 'text', (c) => c.primaryKey())
      .addColumn('tickets', big, (c) => c.notNull().defaultTo(0))
      .addColumn('open_tickets', big, (c) => c.notNull().defaultTo(0))
      .addColumn('messages', big, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('server_daily_stats')
      .addColumn('server_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('tickets', big, (c) => c.notNull().defaultTo(0))
      .addColumn('messages', big, (c) => c.notNull().defaultTo(0))
      .addColumn('responses', big, (c) => c.notNull().defaultTo(0))
      .addColumn('response_ms', big, (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('server_daily_stats_pk', ['server_id', 'day'])
      .execute();
    await db.schema
      .createTable('server_subject_daily')
      .addColumn('server_id', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('tickets', big, (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('server_subject_daily_pk', ['server_id', 'subject_id', 'day'])
      .execute();
    await db.schema
      .createTable('server_supporter_daily')
      .addColumn('server_id', 'text', (c) => c.notNull())
      .addColumn('author_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('tickets', big, (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('server_supporter_daily_pk', ['server_id', 'author_id', 'day'])
      .execute();

    await fillServerStats(db, engine);
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['server_supporter_daily', 'server_subject_daily', 'server_daily_stats', 'server_totals']) await db.schema.dropTable(table).execute();
    await db.schema.alterTable('tickets').dropColumn('answered_at').execute();
  },
});

/**
 * Computes every server's counters from its tickets and messages (the tables must be empty).
 * Exported for the benchmark's seed, which writes tickets directly and fills the counters after.
 */
export async function fillServerStats(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ms =
    engine === 'postgres'
      ? sql`(extract(epoch from (answered_at::timestamptz - created_at::timestamptz)) * 1000)::bigint`
      : sql`cast(round((julianday(answered_at) - julianday(created_at)) * 86400000) as integer)`;
  await sql`insert into server_totals (server_id, tickets, open_tickets, messages)
    select s.id,
      (select count(*) from tickets t where t.server_id = s.id and t.deleted = 0),
      (select count(*) from tickets t where t.server_id = s.id and t.deleted = 0 and t.state <> 'Closed'),
      (select count(*) from ticket_messages m where m.server_id = s.id)
    from servers s`.execute(db);
  await sql`insert into server_daily_stats (server_id, day, tickets, messages, responses, response_ms)
    select server_id, day, sum(tickets), sum(messages), sum(responses), sum(response_ms) from (
      select server_id, substr(created_at, 1, 10) as day, count(*) as tickets, 0 as messages,
        count(answered_at) as responses, coalesce(sum(case when answered_at is null then 0 else ${ms} end), 0) as response_ms
      from tickets where deleted = 0 group by server_id, substr(created_at, 1, 10)
      union all
      select server_id, substr(created_at, 1, 10), 0, count(*), 0, 0
      from ticket_messages group by server_id, substr(created_at, 1, 10)
    ) parts group by server_id, day`.execute(db);
  await sql`insert into server_subject_daily (server_id, subject_id, day, tickets)
    select server_id, subject_id, substr(created_at, 1, 10), count(*) from tickets where deleted = 0
    group by server_id, subject_id, substr(created_at, 1, 10)`.execute(db);
  await sql`insert into server_supporter_daily (server_id, author_id, day, tickets)
    select server_id, author_id, substr(first_at, 1, 10), count(*) from (
      select server_id, ticket_id, author_id, min(created_at) as first_at from ticket_messages
      where message_type = 'Staff' group by server_id, ticket_id, author_id
    ) firsts group by server_id, author_id, substr(first_at, 1, 10)`.execute(db);
}
