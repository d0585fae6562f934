import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Engine } from './database';
import { withLease } from './leases';
import type { DB } from './schema';

/*
 * SQLite's search indexes (FTS5: `ticket_search`, migration 0026, and `ticket_words`, migration
 * 0030) grow by segments: each write adds a small one, and FTS5 merges them a few at a time, so a
 * large index holds a dozen or so (10 and 12 at a million tickets). A search reads every segment:
 * merged into one, the three statements of a search took 0.78 ms instead of 1.05 ms at a million
 * tickets. PostgreSQL's GIN indexes need nothing of the kind (VACUUM folds their pending entries in).
 */

export const SEARCH_INDEXES = ['ticket_search', 'ticket_words'] as const;

/** One process merges at a time; the lease is held a minute longer at each step. */
const MERGE_LEASE = 'search-index-merge';
const MERGE_LEASE_MS = 60_000;

export interface MergeOptions {
  /** Pages of merged index written per step (about 10–40 ms each at a million tickets). */
  pagesPerStep?: number;
  /** Between steps, so that the requests waiting for the database go first. */
  pauseMs?: number;
}

/**
 * SQLite: merges each search index into one segment, a few pages at a time, each step a write
 * transaction of its own. FTS5's 'merge' with a negative page count puts every segment on one
 * level first, so that repeated until a step changes nothing, it merges as 'optimize' does; but
 * 'optimize' writes the whole index in one transaction, which holds SQLite's only writer (and this
 * process, which runs SQLite on its own thread) for seconds at a million tickets. An index already
 * in one segment takes one step that writes nothing. One process merges at a time (a lease);
 * answers the steps taken, none when another process holds the lease or on PostgreSQL.
 */
export async function mergeSearchIndexes(db: Kysely<DB>, engine: Engine, options: MergeOptions = {}): Promise<number> {
  if (engine !== 'sqlite') return 0;
  return (await withLease(db, MERGE_LEASE, MERGE_LEASE_MS, (keep) => mergeSteps(db, options, keep))) ?? 0;
}

async function mergeSteps(db: Kysely<DB>, options: MergeOptions, keep: () => Promise<void>): Promise<number> {
  const { pagesPerStep = 100, pauseMs = 20 } = options;
  let steps = 0;
  for (const index of SEARCH_INDEXES) {
    const table = sql.table(index);
    for (;;) {
      // FTS5 tells a step that merged nothing by the changes it counted: fewer than two.
      const changes = await db.transaction().execute(async (trx) => {
        const before = await sql<{ n: number }>`select total_changes() as n`.execute(trx);
        await sql`insert into ${table} (${table}, rank) values ('merge', ${sql.lit(-pagesPerStep)})`.execute(trx);
        const after = await sql<{ n: number }>`select total_changes() as n`.execute(trx);
        return Number(after.rows[0]!.n) - Number(before.rows[0]!.n);
      });
      steps += 1;
      if (changes < 2) break;
      await sleep(pauseMs);
      await keep();
    }
  }
  return steps;
}
