import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { engines, freshDatabase } from '../../test/harness';

describe.runIf(engines.includes('postgres'))("one index of a server's search documents (migration 0025) on postgres", () => {
  it("indexes a server's search documents by server and words together", async () => {
    const database = await freshDatabase('postgres');
    try {
      const { db } = database;
      const indexes = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes where tablename = 'ticket_search' and schemaname = current_schema()`.execute(db);
      const byName = new Map(indexes.rows.map((r) => [r.indexname, r.indexdef]));
      expect(byName.get('ticket_search_server_tsv_idx')).toMatch(/USING gin \(server_id, tsv\)/);
      expect(byName.has('ticket_search_server_idx')).toBe(false);
    } finally {
      await database.destroy();
    }
  });
});
