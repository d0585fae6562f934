import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { reusableQuery } from './reusable-query';
import { engines, freshDatabase } from '../test/harness';
import type { Database } from './database';

describe.each(engines)('a reusable query on %s', (engine) => {
  let database: Database;
  afterEach(async () => {
    await database.destroy();
  });

  async function withServers() {
    database = await freshDatabase(engine);
    const at = '2026-11-26T00:00:00.000Z';
    const server = (id: string, name: string, active: number) => ({ id, name, icon: null, owner_id: null, active, plan: 'free', created_at: at, updated_at: at });
    await database.db.insertInto('servers').values([server('1', 'alpha', 1), server('2', 'beta', 1), server('3', 'gamma', 0), server('4', '', 1)]).execute();
    return database.db;
  }

  const serversNamed = reusableQuery((db, v: { name?: string; active?: boolean; limit: number }) => {
    let query = db.selectFrom('servers').select('id').orderBy('id');
    if (v.name !== undefined) query = query.where('name', '=', v.name);
    if (v.active !== undefined) query = query.where('active', '=', v.active ? 1 : 0);
    return query.limit(v.limit);
  });

  it("gives each call its own values' rows, built again only for another shape of values", async () => {
    const db = await withServers();
    const ids = async (v: Parameters<typeof serversNamed>[1]) => (await serversNamed(db, v)).map((r) => r.id);
    expect(await ids({ name: 'alpha', limit: 10 })).toEqual(['1']);
    expect(await ids({ name: 'beta', limit: 10 })).toEqual(['2']);
    // An empty string is a value of its own shape, bound as it is.
    expect(await ids({ name: '', limit: 10 })).toEqual(['4']);
    expect(await ids({ name: 'gamma', limit: 10 })).toEqual(['3']);
    // Booleans and undefined choose what is built.
    expect(await ids({ active: false, limit: 10 })).toEqual(['3']);
    expect(await ids({ active: true, limit: 10 })).toEqual(['1', '2', '4']);
    expect(await ids({ active: true, limit: 2 })).toEqual(['1', '2']);
    expect(await ids({ limit: 3 })).toEqual(['1', '2', '3']);
    expect(await ids({ name: 'gamma', active: true, limit: 10 })).toEqual([]);
  });

  it('runs in a transaction and sees its writes', async () => {
    const db = await withServers();
    const seen = await db.transaction().execute(async (trx) => {
      await trx.updateTable('servers').set({ name: 'delta' }).where('id', '=', '2').execute();
      return serversNamed(trx, { name: 'delta', limit: 10 });
    });
    expect(seen).toEqual([{ id: '2' }]);
  });

  it.runIf(engine === 'postgres')('is prepared once per PostgreSQL connection, and keeps answering after a column is added', async () => {
    const db = await withServers();
    const named = reusableQuery((qb, v: { name: string }) => qb.selectFrom('servers').select(['id', 'name']).where('name', '=', v.name));
    await db.connection().execute(async (connection) => {
      expect(await named(connection, { name: 'alpha' })).toEqual([{ id: '1', name: 'alpha' }]);
      expect(await named(connection, { name: 'beta' })).toEqual([{ id: '2', name: 'beta' }]);
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements where statement like '%"servers"%'`.execute(connection);
      expect(prepared.rows).toEqual([{ statement: expect.stringMatching(/^select "id", "name" from "servers" where "name" = \$1$/) }]);
      // A migration run by another process while this connection holds the statement.
      await sql`alter table servers add column extra text`.execute(connection);
      expect(await named(connection, { name: 'gamma' })).toEqual([{ id: '3', name: 'gamma' }]);
    });
  });

  it('writes the values it is told to into its SQL, one statement for each value, and binds the others', async () => {
    const db = await withServers();
    const texts: string[] = [];
    const firstServers = reusableQuery((qb, v: { active: number; size: number }) => {
      const query = qb.selectFrom('servers').select('id').where('active', '=', v.active).orderBy('id').limit(sql.lit(v.size));
      texts.push(query.compile().sql);
      return query;
    }, ['size']);
    const ids = async (v: { active: number; size: number }) => (await firstServers(db, v)).map((r) => r.id);
    expect(await ids({ active: 1, size: 2 })).toEqual(['1', '2']);
    expect(await ids({ active: 1, size: 3 })).toEqual(['1', '2', '4']);
    expect(await ids({ active: 1, size: 2 })).toEqual(['1', '2']);
    // Another active flag is bound in the same statement; 0 is a shape of its own, as ever.
    expect(await ids({ active: 0, size: 2 })).toEqual(['3']);
    expect(texts).toHaveLength(3);
    expect(texts[0]).toMatch(/limit 2$/);
    expect(texts[1]).toMatch(/limit 3$/);
    expect(texts.every((text) => /"active" = (\$1|\?)/.test(text))).toBe(true);
  });

  it.runIf(engine === 'postgres')('binds a list of strings as one value, one statement for any length, and an empty list as it is', async () => {
    const db = await withServers();
    let built = 0;
    const named = reusableQuery((qb, v: { names: readonly string[] }) => {
      built++;
      return qb.selectFrom('servers').select('id').where(Array.isArray(v.names) ? sql<boolean>`false` : sql<boolean>`name = any(${v.names}::text[])`).orderBy('id');
    });
    const ids = async (names: string[]) => (await named(db, { names })).map((r) => r.id);
    expect(await ids(['alpha', 'gamma'])).toEqual(['1', '3']);
    expect(await ids(['beta'])).toEqual(['2']);
    expect(await ids(['', 'alpha', 'beta', "it's, {odd}"])).toEqual(['1', '2', '4']);
    expect(built).toBe(1);
    // An empty list is a shape of its own, given to the query as it is.
    expect(await ids([])).toEqual([]);
    expect(built).toBe(2);
  });

  it('refuses a query that writes a bound value into its SQL, or computes with one, instead of binding it', async () => {
    const db = await withServers();
    const written = reusableQuery((qb, v: { name: string }) => qb.selectFrom('servers').select('id').where(sql.raw<boolean>(`name = '${v.name}'`)));
    await expect(written(db, { name: 'alpha' })).rejects.toThrow('A reusable query wrote a bound value into its SQL');
    const computed = reusableQuery((qb, v: { page: number; limit: number }) => qb.selectFrom('servers').select('id').offset((v.page - 1) * v.limit));
    await expect(computed(db, { page: 2, limit: 10 })).rejects.toThrow('A reusable query computed with its bound value page');
  });
});
