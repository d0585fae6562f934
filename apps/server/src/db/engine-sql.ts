import { sql, type Kysely, type RawBuilder } from 'kysely';
import { supportsRowLocks, type Engine } from './database';
import { scopedWords } from './search-terms';
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

/** SQLite: the FTS5 query of `ticket_search` for a document, of one of these servers, that holds any of the terms. */
export const anyWordMatch = (terms: string[], serverIds: string[]): string =>
  serverIds
    .flatMap((id) => scopedWords(id, terms))
    .map(ftsWord)
    .join(' OR ');

/**
 * PostgreSQL: a search's words, in these servers' scopes, as its statement binds them, so that the
 * statement is built once for each shape of search (`reusableQuery`), not for each search:
 * - `heldWords`: the words a ticket must hold. In one server, each distinct term's word, in order;
 *   in several, every server's word of every term.
 * - `heldTerms`: how many distinct terms; `acrossServers`: whether there are several servers. Both
 *   choose what is built (`heldTerms` is written in).
 * - `anyWord`: the query (tsquery) of a document that holds any of the words.
 * Null when there is no server or no term: nothing can match.
 */
export type SearchWords = { heldWords: string[]; heldTerms: number; acrossServers: boolean; anyWord: string };

export function searchWords(terms: string[], serverIds: string[]): SearchWords | null {
  const distinct = [...new Set(terms)];
  const servers = [...new Set(serverIds)];
  if (servers.length === 0 || distinct.length === 0) return null;
  // One server's words are distinct as its terms are; servers sharing a scope share words.
  const words = [...new Set(servers.flatMap((id) => scopedWords(id, distinct)))];
  return { heldWords: words, heldTerms: distinct.length, acrossServers: servers.length > 1, anyWord: words.map(lexeme).join(' | ') };
}

/** PostgreSQL: a predicate on `ticket_search`: the document holds any of the search's words. */
export const documentsWithAnyWord = (words: Pick<SearchWords, 'anyWord'>): RawBuilder<boolean> =>
  sql<boolean>`ticket_search.tsv @@ ${unseenByPlanner(words.anyWord, 'tsquery')}`;

/**
 * PostgreSQL: the tickets, of the search's servers' scopes, that hold every term in their postings
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
export function ticketsHoldingAll(words: Omit<SearchWords, 'anyWord'>): RawBuilder<{ ticket_id: string }> {
  if (words.acrossServers) {
    return sql`select ticket_postings.ticket_id from ticket_postings
      where ticket_postings.word = any(${unseenByPlanner(words.heldWords, 'text[]')})
      group by ticket_postings.ticket_id having count(*) >= ${sql.lit(words.heldTerms)}`;
  }
  // The nth term's word, of the words bound as one array.
  const word = (n: number) => unseenByPlanner(sql`(${words.heldWords}::text[])[${sql.lit(n + 1)}]`, 'text');
  const joins = Array.from({ length: words.heldTerms - 1 }, (_, i) => {
    const posting = sql.raw(`p${i + 1}`);
    return sql`join ticket_postings as ${posting} on ${posting}.ticket_id = p0.ticket_id and ${posting}.word = ${word(i + 1)}`;
  });
  return sql`select p0.ticket_id from ticket_postings as p0 ${sql.join(joins, sql` `)} where p0.word = ${word(0)}`;
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
 * counted as they were found; otherwise by `counted`, which reads the server's tickets. `scope` is
 * the server's search scope (`searchScope`), bound as a value of its own.
 */
export function serverTicketsHeld(serverId: string, scope: string, counted: RawBuilder<number>): RawBuilder<number> {
  const shared = sql`exists (select 1 from search_scopes where search_scopes.scope = ${scope} and search_scopes.server_id <> ${serverId})`;
  return sql<number>`case when ${shared} then ${counted} else (select count(*) from holding) end`;
}

/**
 * A predicate: the value (a column) is one of these strings, bound as one value, so that the
 * statement's text, and PostgreSQL's prepared statement, is the same however many there are.
 */
export function isOneOf(engine: Engine, value: RawBuilder<unknown>, strings: string[]): RawBuilder<boolean> {
  if (engine === 'postgres') return sql<boolean>`${value} = any(${strings}::text[])`;
  return inJsonArray(value, JSON.stringify(strings));
}

/**
 * SQLite: a predicate, the value is one of the items of a JSON array (`json`, bound as one text
 * value), as SQLite binds no list: one statement however many items there are.
 */
export const inJsonArray = (value: RawBuilder<unknown>, json: string): RawBuilder<boolean> =>
  sql<boolean>`${value} in (select json_each.value from json_each(${json}))`;

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
