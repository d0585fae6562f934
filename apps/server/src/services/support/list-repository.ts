import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { TicketListQuery } from '@ticket/contracts';
import type { Engine } from '../../db/database';
import { documentsWithAnyWord, heldTicket, inJsonArray, isOneOf, searchWords, serverTicketsHeld, ticketsHoldingAll, ticketWordsMatch, type SearchWords } from '../../db/engine-sql';
import { gatheredReads } from '../../db/gathered-reads';
import { reusableQuery } from '../../db/reusable-query';
import { searchScope } from '../../db/search-terms';
import type { Db, TicketRow } from './repository';
import { NUMBER_BITS, foundTexts, withFoundTexts, type FoundText } from './search-repository';

/*
 * The ticket lists: a server's (its staff's) and a member's own, with their filters, pages and
 * totals, and the same lists searched. Both engines read a page in one statement where they can.
 */

/** Whose tickets a list covers: one server's (staff) or the caller's own (personal). */
export type TicketScope = { serverId: string } | { userId: string };

/** A server's change counter (compiled once). */
const serverChanges = reusableQuery((db, v: { serverId: string }) => db.selectFrom('server_changes').select('version').where('server_id', '=', v.serverId));

/** PostgreSQL: servers' change counters, the servers bound as one value (an array): any number of them is one statement, compiled once. */
const serverChangesOf = reusableQuery((db, v: { serverIds: string[] }) =>
  db.selectFrom('server_changes').select(['server_id', 'version']).where(isOneOf('postgres', sql.ref('server_id'), v.serverIds)),
);

/** PostgreSQL: the change counters of these servers, by server. */
async function serverVersions(db: Db, serverIds: string[]): Promise<Map<string, number>> {
  const rows = await serverChangesOf(db, { serverIds });
  return new Map(rows.map((row) => [row.server_id, Number(row.version)]));
}

/**
 * How a server's change counter (migration 0010) is read before every reused answer: 0 for a
 * server nothing of which was written yet. On PostgreSQL each read is a round trip, so a server
 * asked while one is under way is read with every other asked meanwhile, in one statement
 * (`gatheredReads`): with answers reused, 0.72–0.84 of the bare route's requests against
 * 0.49–0.64 one read each. SQLite reads on the API's own thread, in microseconds: gathering its
 * reads gave 0.49–0.57 against 0.55–0.79, so it reads each on its own.
 */
export function serverVersionReader(db: Db, engine: Engine): (serverId: string) => Promise<number> {
  if (engine === 'postgres') return gatheredReads((serverIds: string[]) => serverVersions(db, serverIds), 0);
  return async (serverId) => Number((await serverChanges(db, { serverId }))[0]?.version ?? 0);
}

/** The columns a list shows of each ticket (and a search needs to find its documents). */
const LIST_COLUMNS = [
  'tickets.id',
  'tickets.server_id',
  'tickets.subject_id',
  'tickets.number',
  'tickets.name',
  'tickets.author_id',
  'tickets.assignee_id',
  'tickets.state',
  'tickets.created_at',
  'tickets.last_activity_at',
  'tickets.closed_at',
  'tickets.closed_by',
  'tickets.close_reason',
  'tickets.close_force',
  'tickets.search_key',
  'tickets.last_message_id',
  'tickets.last_message_author',
  'tickets.last_message_at',
  'tickets.last_message_preview',
  'tickets.attendees',
] as const;
/** What every shape of a ticket shows of its row. */
export type TicketFields = Pick<TicketRow, (typeof LIST_COLUMNS)[number] extends `tickets.${infer C extends keyof TicketRow}` ? C : never>;

/**
 * A ticket of a list, with the names of its server and subject, which the page's statement reads
 * beside it (null when the database no longer has them): on PostgreSQL, two round trips fewer. A
 * search's ticket also has the texts of it that hold any of the words (`found`).
 */
export type ListRow = TicketFields & { server_name: string | null; server_icon: string | null; subject_name: string | null; found?: FoundText[] };

/** The names a list shows beside each ticket, from its server and subject joined on their keys. */
const NAME_COLUMNS = ['servers.name as server_name', 'servers.icon as server_icon', 'subjects.name as subject_name'] as const;

/** A page's tickets, with their server's and subject's names. */
function withNames<Q extends ReturnType<typeof listedTickets>['query']>(query: Q) {
  return query
    .leftJoin('servers', 'servers.id', 'tickets.server_id')
    .leftJoin('subjects', 'subjects.id', 'tickets.subject_id')
    .select(LIST_COLUMNS)
    .select(NAME_COLUMNS);
}

/**
 * How many tickets a whole list holds, from its counter: a server's live tickets (kept by the
 * database's triggers), or the tickets someone is a member of, every ticket they opened among them
 * (migration 0029).
 */
function listCounter(db: Db, v: { serverId?: string; userId?: string }) {
  return v.userId !== undefined
    ? db.selectFrom('member_totals').select('member_totals.tickets').where('member_totals.user_id', '=', v.userId)
    : db.selectFrom('server_totals').select('server_totals.tickets').where('server_totals.server_id', '=', v.serverId!);
}

/** A whole list's counter read on its own (compiled once per kind of list). */
const listTotal = reusableQuery((db, v: { serverId?: string; userId?: string }) => listCounter(db, v));

/** The servers where someone is a member of a ticket, from the rows kept for them (migration 0032). */
async function memberServers(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('member_servers').select('server_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.server_id);
}

/** The filters of a list query, without its paging. */
const filtersOf = ({ Page: _page, Amount: _amount, ...filters }: TicketListQuery) => filters;

/** What a list's statements are built from: whose tickets (a server's, or a member's own) and the filters. */
type ListValues = { serverId?: string; userId?: string } & Omit<TicketListQuery, 'Page' | 'Amount'>;

/** A member's memberships (`mine`), read off their index. */
const memberships = (db: Db, userId: string) => db.selectFrom('ticket_members as mine').where('mine.user_id', '=', userId);

/**
 * The tickets a list shows, with its filters, the columns it is ordered by, and (SQLite) the
 * search key its index holds. A server's list is read off its index of live tickets. Every author
 * is a member of their ticket, so a member's own list is their memberships, read off their index
 * by activity, which holds their tickets' keys too (migration 0034).
 */
function listedTickets(db: Db, v: ListValues) {
  // Written in, not bound: PostgreSQL's general plan of a statement can then use the live tickets' index (`where deleted = 0`).
  let query = db.selectFrom('tickets').where('tickets.deleted', '=', sql.lit(0));
  const personal = v.userId !== undefined;
  if (v.userId !== undefined) {
    // Typed as the server's query: the membership's columns are named by reference below.
    const mine = query.innerJoin('ticket_members as mine', (join) => join.onRef('mine.ticket_id', '=', 'tickets.id').on('mine.user_id', '=', v.userId!));
    query = mine as unknown as typeof query;
  } else {
    query = query.where('tickets.server_id', '=', v.serverId!);
  }
  const activity = sql.ref(personal ? 'mine.last_activity_at' : 'tickets.last_activity_at');
  const tie = sql.ref(personal ? 'mine.ticket_id' : 'tickets.id');
  const key = sql.ref(personal ? 'mine.search_key' : 'tickets.search_key');
  if (v.Server) query = query.where('tickets.server_id', '=', v.Server);
  if (v.Subject) query = query.where('tickets.subject_id', '=', v.Subject);
  if (v.Author) query = query.where('tickets.author_id', '=', v.Author);
  if (v.Assignee) query = query.where('tickets.assignee_id', '=', v.Assignee);
  if (v.ClosedBy) query = query.where('tickets.closed_by', '=', v.ClosedBy);
  if (v.Active === true) query = query.where('tickets.state', '!=', 'Closed');
  if (v.Active === false) query = query.where('tickets.state', '=', 'Closed');
  if (v.HideResolved === true) query = query.where('tickets.state', 'not in', ['Closed', 'AutoClose']);
  return { query, activity, tie, key };
}

/**
 * Which page a statement reads: `offset` and `limit` are bound, except that a first page of up to
 * FIRST_PAGE_MAX tickets (nearly every list asked for) has its size written in as `firstPage`.
 * PostgreSQL then plans its statement once and reuses the plan: with a bound LIMIT it prices a
 * general plan as if it read a tenth of the rows, so it planned every call anew (0.17 ms, against
 * 0.07 ms to read the page at 100,000 tickets).
 */
type PageValues = { offset: number; limit: number; firstPage: number };
const FIRST_PAGE_MAX = 100;

function pageValues(offset: number, limit: number): PageValues {
  return { offset, limit, firstPage: offset === 0 && limit <= FIRST_PAGE_MAX ? limit : 0 };
}

/** A list's query ordered, newest activity first, and cut to one page. */
function onePage<D, TB extends keyof D, O>(
  query: SelectQueryBuilder<D, TB, O>,
  listed: { activity: RawBuilder<unknown>; tie: RawBuilder<unknown> },
  v: PageValues,
): SelectQueryBuilder<D, TB, O> {
  const ordered = query.orderBy(listed.activity, 'desc').orderBy(listed.tie, 'desc');
  return v.firstPage ? ordered.limit(sql.lit(v.firstPage)) : ordered.offset(v.offset).limit(v.limit);
}

/**
 * A page of a list without a search, newest activity first (compiled once per shape of filters).
 * `counted`: each row also carries the whole list's number of tickets, from its counter (a
 * server's, or a member's), so that an unfiltered list is one statement: on PostgreSQL, one round
 * trip instead of two in parallel, each of which could wait for a core.
 */
const listPage = reusableQuery((db, v: ListValues & PageValues & { counted: boolean }) => {
  const listed = listedTickets(db, v);
  return onePage(
    withNames(listed.query).$if(v.counted, (query) => query.select(listCounter(db, v).as('listed_total'))),
    listed,
    v,
  );
}, ['firstPage']);

/** How many tickets a list with filters holds, read off the tickets the filters leave. */
const listCount = reusableQuery((db, v: ListValues) =>
  listedTickets(db, v).query.select((eb) => eb.fn.countAll<number>().as('n')),
);

/** SQLite: what a search reads, the list's values, whether it has filters, and the FTS5 query of the tickets' words. */
type SearchValues = ListValues & { unfiltered: boolean; words: string };

/**
 * SQLite: whether the ticket with this search key has words (migration 0030) that match: a
 * ticket's row of words has its search key for rowid. The unary + keeps SQLite from reading each
 * match by its key (a common word is in most of a server's tickets): it walks the list's own
 * index, in the list's order, and keeps the tickets among the matches, so a page stops at its last
 * match.
 */
const keyMatches = (key: RawBuilder<unknown>, words: string) => sql<boolean>`+${key} in (select ticket_words.rowid from ticket_words where ticket_words match ${words})`;

/**
 * SQLite: the tickets of a list whose words match, kept off the list's index by the key it holds
 * (a server's or a member's), so that only the tickets of its page are read.
 */
function searchedTickets(db: Db, v: SearchValues) {
  const listed = listedTickets(db, v);
  return { ...listed, query: listed.query.where(keyMatches(listed.key, v.words)) };
}

/**
 * SQLite: how many tickets a search finds, as a query of one row (`n`). A server's whole list is
 * counted in the words' index alone: its tickets are one range of keys (migration 0009), and a
 * ticket's words leave with it. A member's whole list is counted among their memberships alone,
 * off their index (a membership is of a live ticket, and holds its key: migration 0034). A list
 * with filters is counted by reading the tickets the filters leave.
 */
function searchCounter(db: Db, v: SearchValues) {
  if (!v.unfiltered) return searchedTickets(db, v).query.select((eb) => eb.fn.countAll<number>().as('n'));
  if (v.userId !== undefined) {
    return memberships(db, v.userId)
      .where(keyMatches(sql.ref('mine.search_key'), v.words))
      .select((eb) => eb.fn.countAll<number>().as('n'));
  }
  const base = sql`(select search_bases.base from search_bases where search_bases.server_id = ${v.serverId!})`;
  const keys = sql.lit(2 ** NUMBER_BITS);
  return db.selectNoFrom(
    sql<number>`(select count(*) from ticket_words where ticket_words match ${v.words}
      and ticket_words.rowid between ${base} * ${keys} and ${base} * ${keys} + ${keys} - 1)`.as('n'),
  );
}

/**
 * SQLite: a page of a search, its tickets' ids, servers, search keys and rowids only (compiled once
 * per shape of filters), each row with the number of tickets the search finds (`searched_total`),
 * as a list's page carries its total: one statement on the reader's thread instead of two. A
 * server's page is all in its list's index, so the reader reads no ticket's row; the rows are read
 * after (`listedByRow`), on the API's own connection.
 */
const searchPage = reusableQuery((db, v: SearchValues & PageValues) => {
  const searched = searchedTickets(db, v);
  const columns = searched.query.select(['tickets.id', 'tickets.server_id', 'tickets.search_key', sql<number>`tickets.rowid`.as('row')]);
  return onePage(columns.select(searchCounter(db, v).as('searched_total')), searched, v);
}, ['firstPage']);

/** SQLite: how many tickets a search finds, past its last page (where no row carries it). */
const searchTotal = reusableQuery((db, v: SearchValues) => searchCounter(db, v));

/**
 * SQLite: the live tickets of these rowids (a JSON array) as a list shows them, in no order. A
 * rowid is read directly (25 tickets by id took 0.25 ms at a million tickets, by rowid 0.18 ms);
 * one freed since the page was read may name another ticket now, which the caller leaves out by id.
 */
const listedByRow = reusableQuery((db, v: { rows: string }) =>
  withNames(db.selectFrom('tickets').where('tickets.deleted', '=', sql.lit(0)).where(inJsonArray(sql`tickets.rowid`, v.rows))),
);

/**
 * SQLite: a search page's tickets as a list shows them, in the page's order, each with its texts
 * to highlight: `rowsDb` reads their rows while `db` finds their texts. A ticket deleted since the
 * page was read, or whose rowid now names another, is left out.
 */
async function searchedRows(db: Db, rowsDb: Db, page: Awaited<ReturnType<typeof searchPage>>, terms: string[]): Promise<ListRow[]> {
  if (page.length === 0) return [];
  const [found, listed] = await Promise.all([withFoundTexts(db, page, terms), listedByRow(rowsDb, { rows: JSON.stringify(page.map((t) => t.row)) })]);
  const byId = new Map(listed.map((row) => [row.id, row]));
  return found.flatMap(({ id, found: texts }) => {
    const row = byId.get(id);
    return row ? [Object.assign(row, { found: texts })] : [];
  });
}

/** PostgreSQL: the list's tickets that hold every term (`holding`), with what a page orders them by. */
function ticketMatches(listed: ReturnType<typeof listedTickets>) {
  return listed.query.where(heldTicket()).select(['tickets.id', sql`${listed.activity}`.as('activity'), sql`${listed.tie}`.as('tie')]);
}

/** PostgreSQL: a member's memberships whose tickets hold every term, as `ticketMatches` gives them (the same columns from another table). */
function membershipMatches(db: Db, userId: string) {
  return memberships(db, userId)
    .where(heldTicket(sql.ref('mine.ticket_id')))
    .select(['mine.ticket_id as id', 'mine.last_activity_at as activity', 'mine.ticket_id as tie']) as unknown as ReturnType<typeof ticketMatches>;
}

/**
 * PostgreSQL: what a search's statement is built from: the list's values, whether it has filters,
 * the words (engine-sql.ts, `searchWords`) and, for a server's search, its search scope.
 */
type FoundValues = ListValues & SearchWords & { unfiltered: boolean; scope?: string };

/**
 * PostgreSQL: the tickets a search finds (`holding`, found once, as WITH), the list's tickets among
 * them (`matches`), and how many those are (`total`).
 * A member's whole own list is their memberships, read off their index, with no ticket looked up:
 * a membership is of a live ticket (a ticket is deleted with its memberships), as the list's total
 * already counts them (migration 0029). Looking up each match in `tickets` took 357–544 ms for a
 * member with 40,000 tickets on 40 servers, against 38–46 ms. Filters read the tickets, and the
 * page keeps live tickets only either way.
 */
function foundTickets(db: Db, v: FoundValues) {
  const matches = v.userId !== undefined && v.unfiltered ? membershipMatches(db, v.userId) : ticketMatches(listedTickets(db, v));
  const counted = sql<number>`${db.selectFrom(matches.as('counted')).select((eb) => eb.fn.countAll<number>().as('n'))}`;
  // A server's whole list is counted as its tickets were found, where the words are its own alone.
  const total = v.serverId !== undefined && v.scope !== undefined && v.unfiltered ? serverTicketsHeld(v.serverId, v.scope, counted) : counted;
  // Kysely writes a raw query as it is: the parentheses of a common table expression are its own.
  const found = db.with((cte) => cte('holding').materialized(), () => sql`(${ticketsHoldingAll(v)})`);
  return { found, matches, total };
}

/**
 * PostgreSQL: a page of a search, the number of matches and the texts to highlight, in one
 * statement (compiled once per shape of filters and number of words). The page is read off the
 * list's index, in its order, keeping the tickets found (heldTicket), so it stops at its last
 * match; the whole rows of its tickets are read after. Its text is the same for every search with
 * the same filters and as many words (the words are values), and its plan too, so PostgreSQL plans
 * it once per connection (engine-sql.ts, ticketsHoldingAll).
 */
const foundPage = reusableQuery((db, v: FoundValues & PageValues) => {
  const { found, matches, total } = foundTickets(db, v);
  const ordered = { activity: sql.ref('matches.activity'), tie: sql.ref('matches.tie') };
  return found
    .with('hits', (qb) => onePage(qb.selectFrom(matches.as('matches')).select('matches.id'), ordered, v))
    .selectFrom('hits')
    .innerJoin('tickets', 'tickets.id', 'hits.id')
    .leftJoin('servers', 'servers.id', 'tickets.server_id')
    .leftJoin('subjects', 'subjects.id', 'tickets.subject_id')
    .select(LIST_COLUMNS)
    .select(NAME_COLUMNS)
    .select(total.as('total_in_scope'))
    .select(foundTexts(documentsWithAnyWord(v)).as('found'))
    .where('tickets.deleted', '=', sql.lit(0))
    .orderBy('tickets.last_activity_at', 'desc')
    .orderBy('tickets.id', 'desc');
}, ['firstPage', 'heldTerms']);

/** PostgreSQL: how many tickets a search finds, past its last page (where no row carries it). */
const foundTotal = reusableQuery((db, v: FoundValues) => {
  const { found, total } = foundTickets(db, v);
  return found.selectNoFrom(total.as('n'));
}, ['heldTerms']);

/**
 * How many tickets a list or a search holds, which its page's rows carry (`carried`, from the
 * first row; an empty first page holds none); past the last page no row carries it, and `read`
 * counts them in a statement of its own.
 */
async function pageTotal(rows: readonly unknown[], offset: number, carried: unknown, read: () => Promise<unknown>): Promise<number> {
  return Number((rows.length > 0 || offset === 0 ? carried : await read()) ?? 0);
}

/**
 * One page of tickets in scope, newest activity first, with the list filters and an optional
 * search. `db` reads the page; on SQLite a search's page is only its tickets' keys, whose rows
 * `rowsDb` reads (the API's own connection, when `db` is the reader).
 */
export async function pageTickets(
  db: Db,
  engine: Engine,
  scope: TicketScope,
  filters: TicketListQuery,
  terms: string[] | null,
  rowsDb: Db = db,
): Promise<{ rows: ListRow[]; total: number }> {
  const only = filtersOf(filters);
  const values: ListValues = { ...scope, ...only };
  const offset = (filters.Page - 1) * filters.Amount;
  const count = async () => Number((await listCount(db, values))[0]?.n ?? 0);
  const unfiltered = Object.values(only).every((value) => value === undefined);
  if (!terms) {
    const page = { ...values, ...pageValues(offset, filters.Amount), counted: unfiltered };
    // A list with filters is counted by reading the tickets the filters leave, beside its page.
    if (!unfiltered) {
      const [rows, n] = await Promise.all([listPage(db, page), count()]);
      return { rows, total: n };
    }
    // A server's whole list is counted by its counter, a member's by theirs, read with the page.
    const rows = await listPage(db, page);
    return { rows, total: await pageTotal(rows, offset, rows[0]?.listed_total, async () => (await listTotal(db, scope))[0]?.tickets) };
  }
  // The words are looked up in the servers the list can show (a member's: those of their tickets);
  // the list's own conditions keep the matching tickets of its own.
  const servers = 'serverId' in scope ? [scope.serverId] : filters.Server ? [filters.Server] : await memberServers(db, scope.userId);
  if (servers.length === 0) return { rows: [], total: 0 };
  if (engine === 'sqlite') {
    const searched: SearchValues = { ...values, unfiltered, words: ticketWordsMatch(terms, servers) };
    const page = await searchPage(db, { ...searched, ...pageValues(offset, filters.Amount) });
    const total = await pageTotal(page, offset, page[0]?.searched_total, async () => (await searchTotal(db, searched))[0]?.n);
    return { rows: await searchedRows(db, rowsDb, page, terms), total };
  }
  const words = searchWords(terms, servers);
  if (!words) return { rows: [], total: 0 };
  const searched: FoundValues = { ...values, ...words, unfiltered, ...('serverId' in scope ? { scope: searchScope(scope.serverId) } : {}) };
  const page = await foundPage(db, { ...searched, ...pageValues(offset, filters.Amount) });
  const total = await pageTotal(page, offset, page[0]?.total_in_scope, async () => (await foundTotal(db, searched))[0]?.n);
  return { rows: page.map(({ total_in_scope: _total, ...row }) => row), total };
}

/** A page of the servers where someone is a member of a ticket, by name, and how many there are (migration 0032). */
export async function personalServers(db: Db, userId: string, offset: number, limit: number) {
  const base = db.selectFrom('member_servers as mine').innerJoin('servers', 'servers.id', 'mine.server_id').where('mine.user_id', '=', userId);
  const [rows, total] = await Promise.all([
    base.select(['servers.id', 'servers.name', 'servers.icon']).orderBy('servers.name').orderBy('servers.id').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function personalSubjects(db: Db, userId: string, serverId: string, offset: number, limit: number) {
  const base = db
    .selectFrom('tickets')
    .innerJoin('subjects', 'subjects.id', 'tickets.subject_id')
    .where('tickets.deleted', '=', 0)
    .where('tickets.server_id', '=', serverId)
    // Every author is a member of their ticket (migration 0024).
    .innerJoin('ticket_members as mine', (join) => join.onRef('mine.ticket_id', '=', 'tickets.id').on('mine.user_id', '=', userId));
  const [rows, total] = await Promise.all([
    base.select(['subjects.id', 'subjects.name']).distinct().orderBy('subjects.name').offset(offset).limit(limit).execute(),
    base.select(sql<number>`count(distinct subjects.id)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
