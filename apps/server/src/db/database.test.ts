import { afterEach, describe, expect, it } from 'vitest';
import type { TicketListQuery } from '@ticket/contracts';
import { sql } from 'kysely';
import * as lists from '../services/support/list-repository';
import * as searchIndex from '../services/support/search-repository';
import { fromJson, openDatabase, toJson } from './database';
import { migrateToLatest } from './migrate';
import { engines, freshDatabase } from '../test/harness';
import type { Database } from './database';

describe.each(engines)('database on %s', (engine) => {
  let database: Database;
  afterEach(async () => {
    await database.destroy();
  });

  it('migrates once and again without change', async () => {
    database = await freshDatabase(engine);
    await migrateToLatest(database.db, database.engine);
    const tables = await database.db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['users', 'sessions', 'servers', 'memberships', 'api_keys', 'testimonials', 'subjects', 'server_settings', 'templates', 'audit_log']),
    );
  });

  it.runIf(engine === 'postgres')('keeps at most its pool size of connections open, and the statements beyond wait their turn', async () => {
    database = await openDatabase(process.env.TEST_DATABASE_URL!, { poolSize: 2, migrate: false });
    const started = Date.now();
    const backends = await Promise.all(
      Array.from({ length: 4 }, () => sql<{ pid: number }>`select pg_backend_pid() as pid from pg_sleep(0.2)`.execute(database.db)),
    );
    expect(new Set(backends.map((r) => r.rows[0]!.pid)).size).toBe(2);
    // Two rounds of two statements.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('round-trips JSON, snowflakes beyond 2^53 and counts the same way on both engines', async () => {
    database = await freshDatabase(engine);
    const db = database.db;
    const at = new Date().toISOString();
    const big = '1300000000000000001';
    await db.insertInto('users').values({ id: '1', username: 'u', global_name: null, avatar: null, email: null, locale: null, access_token: null, refresh_token: null, token_expires_at: null, scope: null, synced_at: null, created_at: at, updated_at: at }).execute();
    await db.insertInto('servers').values({ id: big, name: 'S', icon: null, owner_id: null, active: 1, plan: 'free', created_at: at, updated_at: at }).execute();
    await db.insertInto('memberships').values({ user_id: '1', server_id: big, role: 'Owner', nickname: null, avatar: null, role_ids: toJson([big, '9']), updated_at: at }).execute();
    const row = await db.selectFrom('memberships').selectAll().executeTakeFirstOrThrow();
    expect(row.server_id).toBe(big);
    expect(fromJson<string[]>(row.role_ids)).toEqual([big, '9']);
    const count = await db.selectFrom('memberships').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
  });

  it('refuses a membership of an unknown server (foreign keys are on)', async () => {
    database = await freshDatabase(engine);
    const at = new Date().toISOString();
    await database.db.insertInto('users').values({ id: '1', username: 'u', global_name: null, avatar: null, email: null, locale: null, access_token: null, refresh_token: null, token_expires_at: null, scope: null, synced_at: null, created_at: at, updated_at: at }).execute();
    await expect(
      database.db.insertInto('memberships').values({ user_id: '1', server_id: '404', role: 'Member', nickname: null, avatar: null, role_ids: '[]', updated_at: at }).execute(),
    ).rejects.toThrow();
  });
});

describe('upgrading a SQLite database that holds tickets', () => {
  it('keeps every ticket findable, points each at its newest message, and gives each server one search range (migrations 0007 to 0009)', async () => {
    const database = await openDatabase('sqlite://:memory:', { migrate: false });
    const db = database.db;
    await migrateToLatest(db, 'sqlite', '0006-ticket-jobs');
    const at = '2026-01-01T00:00:00.000Z';
    for (const [id, server] of [['t1', 's1'], ['t2', 's2']] as const) {
      await sql`insert into tickets (id, server_id, subject_id, number, name, author_id, assignee_id, state, channel_id, template_answers, created_at, last_activity_at, closed_at, closed_by, close_reason, close_force, deleted)
        values (${id}, ${server}, 'subject', 1, ${`name-${id}`}, 'u', null, 'PendingStaff', null, '[]', ${at}, ${at}, null, null, null, null, 0)`.execute(db);
      await sql`insert into ticket_search (ticket_id, server_id, kind, ref_id, body) values (${id}, ${server}, 'name', ${id}, ${`name-${id}`})`.execute(db);
      for (const [n, body] of ['first words', 'latest refund words'].entries()) {
        await sql`insert into ticket_messages (id, ticket_id, server_id, external_id, author_id, message_type, body, history, modified, deleted, deleted_at, created_at)
          values (${`${id}-m${n}`}, ${id}, ${server}, null, 'u', 'User', ${JSON.stringify({ content: body })}, '[]', 0, 0, null, ${`2026-01-0${n + 2}T00:00:00.000Z`})`.execute(db);
        await sql`insert into ticket_search (ticket_id, server_id, kind, ref_id, body) values (${id}, ${server}, 'message', ${`${id}-m${n}`}, ${body})`.execute(db);
      }
    }
    await migrateToLatest(db, 'sqlite');

    const tickets = await db.selectFrom('tickets').select(['id', 'server_id', 'search_key', 'last_message_id']).orderBy('id').execute();
    expect(tickets).toEqual([
      // Server base × 2^23 + the ticket's number: s1 is the first server, s2 the second.
      { id: 't1', server_id: 's1', search_key: 2 ** 23 + 1, last_message_id: 't1-m1' },
      { id: 't2', server_id: 's2', search_key: 2 * 2 ** 23 + 1, last_message_id: 't2-m1' },
    ]);
    const found = await lists.pageTickets(db, 'sqlite', { serverId: 's2' }, { Page: 1, Amount: 10 } as TicketListQuery, ['refund']);
    expect(found.rows.map((r) => r.id)).toEqual(['t2']);
    const first = await lists.pageTickets(db, 'sqlite', { serverId: 's1' }, { Page: 1, Amount: 10 } as TicketListQuery, ['first']);
    expect(first.rows.map((r) => [r.id, r.found])).toEqual([['t1', [{ kind: 'message', body: 'first words' }]]]);
    // The other server's ticket has the same words, and is not in s1's results.
    expect((await lists.pageTickets(db, 'sqlite', { serverId: 's1' }, { Page: 1, Amount: 10 } as TicketListQuery, ['latest'])).rows.map((r) => r.id)).toEqual(['t1']);
    // A ticket opened after the upgrade gets the next key, and its documents their own range.
    await sql`insert into tickets (id, server_id, subject_id, number, name, author_id, assignee_id, state, channel_id, template_answers, created_at, last_activity_at, closed_at, closed_by, close_reason, close_force, deleted)
      values ('t3', 's1', 'subject', 2, 'name-t3', 'u', null, 'PendingStaff', null, '[]', ${at}, ${at}, null, null, null, null, 0)`.execute(db);
    await searchIndex.putSearchDoc(db, 'sqlite', { ticket_id: 't3', server_id: 's1', kind: 'message', ref_id: 'm', body: 'refund please' });
    expect((await lists.pageTickets(db, 'sqlite', { serverId: 's1' }, { Page: 1, Amount: 10 } as TicketListQuery, ['refund'])).rows.map((r) => r.id).sort()).toEqual(['t1', 't3']);
    await database.destroy();
  });
});

describe('SQLite rows', () => {
  it('come back by column name as better-sqlite3 names them: a repeated name keeps its last value, a column named `__proto__` is a column, never the prototype', async () => {
    const database = await openDatabase('sqlite://', { migrate: false });
    try {
      const plain = await sql<Record<string, unknown>>`select 1 as a, 'x' as b, null as c, 2.5 as d`.execute(database.db);
      expect(plain.rows).toEqual([{ a: 1, b: 'x', c: null, d: 2.5 }]);
      expect(Object.getPrototypeOf(plain.rows[0])).toBe(Object.prototype);
      const repeated = await sql<Record<string, unknown>>`select 1 as a, 2 as a`.execute(database.db);
      expect(repeated.rows).toEqual([{ a: 2 }]);
      const proto = await sql<Record<string, unknown>>`select 1 as "__proto__", 2 as b`.execute(database.db);
      expect(Object.getPrototypeOf(proto.rows[0])).toBe(Object.prototype);
      expect(Object.entries(proto.rows[0]!)).toEqual([
        ['__proto__', 1],
        ['b', 2],
      ]);
      // The same statement again (reused from the cache), and rows streamed.
      const again = await sql<Record<string, unknown>>`select 1 as a, 'x' as b, null as c, 2.5 as d`.execute(database.db);
      expect(again.rows).toEqual(plain.rows);
      const streamed: unknown[] = [];
      for await (const row of database.db.selectNoFrom((eb) => [eb.val(7).as('n')]).stream()) streamed.push(row);
      expect(streamed).toEqual([{ n: 7 }]);
    } finally {
      await database.destroy();
    }
  });
});
