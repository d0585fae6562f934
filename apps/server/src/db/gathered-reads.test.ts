import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { isOneOf } from './engine-sql';
import { gatheredReads } from './gathered-reads';
import { engines, freshDatabase } from '../test/harness';
import type { Database } from './database';

/** A read that holds each call until released, and records the keys of each call. */
function heldRead(values: Map<string, number>) {
  const calls: string[][] = [];
  const releases: (() => void)[] = [];
  const read = (keys: string[]) => {
    calls.push(keys);
    // The values as they are when the read starts, as a statement's snapshot.
    const snapshot = new Map([...values].filter(([key]) => keys.includes(key)));
    return new Promise<Map<string, number>>((resolve) => releases.push(() => resolve(snapshot)));
  };
  const release = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    releases.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { calls, read, release };
}

describe('gathered reads', () => {
  it('reads the keys asked in the same turn in one read, each key once, and gives a missing key its default', async () => {
    const { calls, read, release } = heldRead(new Map([['a', 1], ['b', 2]]));
    const get = gatheredReads(read, 0);
    const answers = Promise.all([get('a'), get('b'), get('a'), get('c')]);
    await release();
    expect(await answers).toEqual([1, 2, 1, 0]);
    expect(calls).toEqual([['a', 'b', 'c']]);
  });

  it('gives a key asked while a read is under way the next read, which sees what was written before it was asked', async () => {
    const values = new Map([['a', 1]]);
    const { calls, read, release } = heldRead(values);
    const get = gatheredReads(read, 0);
    const first = get('a');
    await new Promise((resolve) => setImmediate(resolve));
    // Written and then asked while the first read (which started before the write) is under way.
    values.set('a', 2);
    const second = get('a');
    const third = get('b');
    await release();
    expect(await first).toBe(1);
    await release();
    expect(await second).toBe(2);
    expect(await third).toBe(0);
    expect(calls).toEqual([['a'], ['a', 'b']]);
  });

  it("gives every caller of a failed read its error, and reads again for the next key", async () => {
    let fail = true;
    const get = gatheredReads(async (keys: string[]) => {
      if (fail) throw new Error('the database is gone');
      return new Map(keys.map((key) => [key, key.length]));
    }, 0);
    const failed = [get('a'), get('bb')].map((p) => p.then(() => 'answered', (error: Error) => error.message));
    expect(await Promise.all(failed)).toEqual(['the database is gone', 'the database is gone']);
    fail = false;
    expect(await get('ccc')).toBe(3);
  });
});

describe.each(engines)('one of a list of strings, on %s', (engine) => {
  let database: Database;
  afterEach(async () => {
    await database.destroy();
  });

  it('keeps the rows whose value is one of the strings, whatever they hold, and none for an empty list', async () => {
    database = await freshDatabase(engine);
    const at = '2026-11-28T00:00:00.000Z';
    const names = ['plain', 'with, comma', 'with "quotes"', "it's", 'back\\slash', '{braces}', 'NULL', ''];
    await database.db
      .insertInto('servers')
      .values(names.map((name, i) => ({ id: String(i + 1), name, icon: null, owner_id: null, active: 1, plan: 'free', created_at: at, updated_at: at })))
      .execute();
    const named = async (strings: string[]) =>
      (await database.db.selectFrom('servers').select('id').where(isOneOf(engine, sql.ref('name'), strings)).orderBy('id').execute()).map((r) => r.id);
    expect(await named(names)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(await named(['with, comma', "it's", 'NULL'])).toEqual(['2', '4', '7']);
    expect(await named(['with', 'comma', 'null', 'slash'])).toEqual([]);
    expect(await named([])).toEqual([]);
  });
});
