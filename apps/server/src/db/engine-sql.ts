import { sql, type RawBuilder } from 'kysely';
import type { Engine } from './database';

/*
 * SQL that SQLite and PostgreSQL write differently, so that repositories keep one code for both
 * engines (DESIGN.md §4).
 */

/**
 * A predicate on `ticket_search` that holds when a document contains every term. PostgreSQL also
 * narrows to a server here, given one; SQLite narrows by the server's rowid range instead (see
 * services/support/repository.ts), and its index holds the text alone, so the terms only ever
 * match the text.
 */
export function matchPredicate(engine: Engine, terms: string[], serverId?: string): RawBuilder<boolean> {
  if (engine === 'postgres') {
    const match = sql<boolean>`ticket_search.tsv @@ to_tsquery('simple', ${terms.join(' & ')})`;
    return serverId ? sql<boolean>`(${match} and ticket_search.server_id = ${serverId})` : match;
  }
  return sql<boolean>`ticket_search match ${terms.map((t) => `"${t}"`).join(' AND ')}`;
}
