import { afterEach, describe, expect, it } from 'vitest';
import { fromJson, toJson } from './database';
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
