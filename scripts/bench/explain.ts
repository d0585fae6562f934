/**
 * The plans of statements the API sent while answering one request (recorded by bench/server.ts):
 * PostgreSQL: EXPLAIN (ANALYZE, BUFFERS), each in a transaction rolled back after, so a write
 * among them (a session's last use) changes nothing; SQLite: EXPLAIN QUERY PLAN and, for a read, its
 * mean time over 20 runs.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Engine } from '../../apps/server/src/db/database';
import type { RecordedQuery } from './server';

export async function printPlans(engine: Engine, url: string, title: string, queries: RecordedQuery[]): Promise<void> {
  console.log(`\n### ${title}: ${queries.length} statements`);
  const sqlite = engine === 'sqlite' ? new SQLite(url.replace(/^sqlite:\/\//, ''), { readonly: true }) : null;
  const client = engine === 'postgres' ? new pg.Client({ connectionString: url }) : null;
  await client?.connect();
  try {
    for (const query of queries) {
      const shown = query.parameters.length > 12 ? [...query.parameters.slice(0, 12), `… ${query.parameters.length - 12} more`] : query.parameters;
      console.log(`\n${query.sql.replace(/\s+/g, ' ').trim()}\n-- parameters: ${JSON.stringify(shown)}`);
      if (!/^\s*(select|with|insert|update|delete)\b/i.test(query.sql)) continue;
      if (sqlite) {
        const plan = sqlite.prepare(`explain query plan ${query.sql}`).all(...query.parameters) as { id: number; parent: number; detail: string }[];
        if (/^\s*(select|with)\b/i.test(query.sql)) console.log(`-- ${sqliteTime(sqlite, query).toFixed(3)} ms (mean of 20 runs)`);
        const depth = new Map<number, number>([[0, 0]]);
        for (const step of plan) {
          depth.set(step.id, (depth.get(step.parent) ?? 0) + 1);
          console.log(`${'  '.repeat(depth.get(step.id)!)}${step.detail}`);
        }
      } else {
        await client!.query('begin');
        try {
          const plan = await client!.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${query.sql}`, query.parameters);
          for (const row of plan.rows) console.log(row['QUERY PLAN']);
        } finally {
          await client!.query('rollback');
        }
      }
    }
  } finally {
    sqlite?.close();
    await client?.end();
  }
}

/** SQLite: the mean time of a read over 20 runs after a first, in milliseconds. */
function sqliteTime(sqlite: SQLite.Database, query: RecordedQuery): number {
  const statement = sqlite.prepare(query.sql);
  statement.all(...query.parameters);
  const start = process.hrtime.bigint();
  for (let i = 0; i < 20; i++) statement.all(...query.parameters);
  return Number(process.hrtime.bigint() - start) / 20e6;
}
