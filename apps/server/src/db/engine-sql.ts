import { sql, type Kysely, type RawBuilder } from 'kysely';
import { supportsRowLocks, type Engine } from './database';
import { scopedWords, searchScope } from './search-terms';
import type { DB } from './schema';

/*
 * SQL that SQLite and PostgreSQL write differently, so that repositories keep one code for both
 * engines (DESIGN.md §4).
 */

/*
 * Search (words as db/search-terms.ts makes them). A ticket matches when its texts together hold
 * every term, each in any of them. Each server's words are looked up under its own scope, so the
 * engine reads those servers' postings only. Two servers may share a scope: callers keep the rows
 * of the tickets they want (by ticket, or by ticket key on SQLite), which they do anyway.
 */

/**
 * PostgreSQL: a value the planner is not shown, a subquery's (cast again, so that `= any(…)` takes it
 * as an array, not as a subquery's rows). Every call of a prepared statement then looks alike to
 * the planner, so its general plan costs what a call's own would, and PostgreSQL plans the
 * statement once per connection and reuses that plan. Shown each call's words, it planned each
 * search at a million tickets anew (1.3 ms, for 0.6 ms of reading), and each search's highlights
 * (0.55–0.6 ms a call, against 0.42–0.45 ms with the general plan, the same plan).
 */
export const unseenByPlanner = (value: unknown, type: 'text' | 'text[]' | 'tsquery'): RawBuilder<unknown> => sql`(select ${value}::${sql.raw(type)})::${sql.raw(type)}`;

/** A predicate on `ticket_search`: the document, of one of these servers, holds any of the terms. */
export function documentsWithAny(engine: Engine, terms: string[], serverIds: string[]): RawBuilder<boolean> {
  const words = serverIds.flatMap((id) => scopedWords(id, terms));
  if (words.length === 0) return sql<boolean>`1 = 0`;
  if (engine === 'postgres') return sql<boolean>`ticket_search.tsv @@ ${unseenByPlanner(words.map(lexeme).join(' | '), 'tsquery')}`;
  return sql<boolean>`ticket_search match ${words.map(ftsWord).join(' OR ')}`;
}

/**
 * PostgreSQL: the tickets, of one of these servers' scopes, that hold every term in their postings
 * (`ticket_postings`, migration 0031: each of a ticket's words once), as a query of their ids
 * (`ticket_id`), for a statement to find once under the name `holding` (WITH) and use by
 * `heldTicket` and `serverTicketsHeld`. A ticket's words are all of its own server's scope, so it
 * holds each term at most once, for one server or many, and for servers that share a scope.
 * - One server (its staff's search): each term is one word, whose postings are read off the key in
 *   the order of their tickets' ids and joined on that id as they come, with no sort and no hash
 *   table. Grouping every posting by ticket instead cost 0.15 ms more a search at a million
 *   tickets.
 * - Several servers (a member's own tickets): each term is a word in each server, so its postings
 *   come in one run per server; all of them are grouped by ticket, and a ticket holds all the terms
 *   when it has at least as many postings as there are terms ("at least": the planner expects many
 *   tickets of it, and joins them in a hash table). Joined term by term instead, each term's
 *   postings were sorted first: 472–483 ms against 353–374 for two words over a member's 40 servers.
 * The words are not shown to the planner (`unseenByPlanner`), so that PostgreSQL keeps one plan,
 * which it makes once per connection and reuses.
 */
export function ticketsHoldingAll(terms: string[], serverIds: string[]): RawBuilder<{ ticket_id: string }> {
  const distinct = [...new Set(terms)];
  const servers = [...new Set(serverIds)];
  if (servers.length === 0 || distinct.length === 0) return sql`select null::text as ticket_id where false`;
  if (servers.length > 1) {
    const words = [...new Set(servers.flatMap((id) => scopedWords(id, distinct)))];
    return sql`select ticket_postings.ticket_id from ticket_postings
      where ticket_postings.word = any(${unseenByPlanner(words, 'text[]')})
      group by ticket_postings.ticket_id having count(*) >= ${distinct.length}`;
  }
  const [first, ...others] = scopedWords(servers[0]!, distinct).map((word) => unseenByPlanner(word, 'text'));
  const joins = others.map((word, i) => {
    const posting = sql.raw(`p${i + 1}`);
    return sql`join ticket_postings as ${posting} on ${posting}.ticket_id = p0.ticket_id and ${posting}.word = ${word}`;
  });
  return sql`select p0.ticket_id from ticket_postings as p0 ${sql.join(joins, sql` `)} where p0.word = ${first}`;
}

/**
 * PostgreSQL: a predicate on a ticket's id (`tickets.id` unless given): the ticket is one of
 * `holding` (`ticketsHoldingAll`). Asked as `(… in (…)) is true`, it is not turned into a join:
 * PostgreSQL puts the tickets found into a hash table, and a list is read off its own index, in its
 * order, keeping each ticket the table holds, so that a page stops at its last match. Joining
 * every match to the list's tickets and sorting them for the page took 0.86 ms for "refund" (982
 * of a server's 1,000 tickets) at a million tickets, against 0.34 ms.
 */
export const heldTicket = (ticketId: RawBuilder<unknown> = sql.ref('tickets.id')): RawBuilder<boolean> =>
  sql<boolean>`(${ticketId} in (select holding.ticket_id from holding)) is true`;

/**
 * PostgreSQL: how many of one server's tickets are of `holding`. While the server is alone in its
 * search scope (migration 0035), every ticket holding words of that scope is its own, and they are
 * counted as they were found; otherwise by `counted`, which reads the server's tickets.
 */
export function serverTicketsHeld(serverId: string, counted: RawBuilder<number>): RawBuilder<number> {
  const shared = sql`exists (select 1 from search_scopes where search_scopes.scope = ${searchScope(serverId)} and search_scopes.server_id <> ${serverId})`;
  return sql<number>`case when ${shared} then ${counted} else (select count(*) from holding) end`;
}

/** SQLite: the FTS5 query of `ticket_words` (migration 0030) for a ticket, of one of these servers, that holds every term. */
export const ticketWordsMatch = (terms: string[], serverIds: string[]): string =>
  serverIds.map((id) => `(${scopedWords(id, terms).map(ftsWord).join(' AND ')})`).join(' OR ');

/** A word of an FTS5 query, quoted as a string (words are letters and digits: nothing to escape). */
const ftsWord = (word: string) => `"${word}"`;

/** A lexeme of a tsquery as written, quoted: nothing parses or normalises it again. */
const lexeme = (word: string) => `'${word.replace(/'/g, "''")}'`;

/** What a claim sets on the rows it takes: the runner's token and until when it holds them. */
export interface RowClaim {
  token: string;
  until: string;
}

/**
 * Claims up to `limit` rows of a job table that are free, in `order`, for one runner: each row
 * taken gets the claim's token and time. PostgreSQL skips rows another runner is claiming at the
 * same moment (`for update skip locked`); SQLite has one writer at a time, so the update alone
 * claims.
 */
export async function claimRows<T>(
  db: Kysely<DB>,
  table: 'ticket_jobs' | 'webhook_deliveries',
  free: RawBuilder<boolean>,
  order: string,
  claim: RowClaim,
  limit: number,
): Promise<T[]> {
  const lock = supportsRowLocks(db) ? sql` for update skip locked` : sql``;
  const { rows } = await sql<T>`update ${sql.table(table)} set claimed_until = ${claim.until}, claim_token = ${claim.token}
    where id in (select id from ${sql.table(table)} where ${free} order by ${sql.ref(order)} limit ${limit}${lock})
    returning *`.execute(db);
  return rows;
}
