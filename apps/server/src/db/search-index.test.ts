import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { engines, freshDatabase } from '../test/harness';
import type { Database } from './database';
import { takeLease } from './leases';
import { mergeSearchIndexes } from './search-index';

describe.each(engines)('merging the search indexes on %s', (engine) => {
  let database: Database;
  afterEach(async () => {
    await database.destroy();
  });

  /** SQLite: each write is a transaction of its own, so each leaves a segment of its own. */
  async function writtenOneByOne(n: number) {
    database = await freshDatabase(engine);
    for (let i = 1; i <= n; i++) {
      const words = `w${i % 7} common${i % 2 === 0 ? ' even' : ''}`;
      await sql`insert into ticket_words (rowid, words) values (${i}, ${words})`.execute(database.db);
      await sql`insert into ticket_search (rowid, ticket_id, server_id, kind, ref_id, body, words)
        values (${i}, ${`t${i}`}, '1', 'message', null, ${words}, ${words})`.execute(database.db);
    }
  }

  const matches = async (table: 'ticket_words' | 'ticket_search', query: string) =>
    (await sql<{ rowid: number }>`select rowid from ${sql.table(table)} where ${sql.table(table)} match ${query} order by rowid`.execute(database.db)).rows.map(
      (r) => Number(r.rowid),
    );

  it.runIf(engine === 'sqlite')('merges every segment, a few pages at a time, and every search finds what it found before', async () => {
    await writtenOneByOne(60);
    const queries = ['"common"', '"even"', '"w3"', '"w3" AND "even"', '"w5" OR "w6"'];
    const before = await Promise.all(queries.flatMap((q) => [matches('ticket_words', q), matches('ticket_search', q)]));
    expect(before[2]).toHaveLength(30);

    // More than one step per index: there was something to merge, written one page per step.
    expect(await mergeSearchIndexes(database.db, engine, { pagesPerStep: 1, pauseMs: 0 })).toBeGreaterThan(2);
    expect(await Promise.all(queries.flatMap((q) => [matches('ticket_words', q), matches('ticket_search', q)]))).toEqual(before);
    // Merged already: one step per index, which writes nothing.
    expect(await mergeSearchIndexes(database.db, engine, { pauseMs: 0 })).toBe(2);
    // The lease is given back after.
    expect(await database.db.selectFrom('leases').select('name').execute()).toEqual([]);
  });

  it.runIf(engine === 'sqlite')('leaves the merge to the process that holds its lease', async () => {
    await writtenOneByOne(8);
    const until = new Date(Date.now() + 60_000).toISOString();
    expect(await takeLease(database.db, 'search-index-merge', 'another process', until, new Date().toISOString())).toBe(true);
    expect(await mergeSearchIndexes(database.db, engine, { pauseMs: 0 })).toBe(0);
  });

  it.runIf(engine === 'postgres')('has nothing to do on PostgreSQL', async () => {
    database = await freshDatabase(engine);
    expect(await mergeSearchIndexes(database.db, engine)).toBe(0);
  });
});
