import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { TicketListQuery } from '@ticket/contracts';
import { fromJson, now, toJson, type Engine } from '../../db/database';
import type { DB, TicketMessagesTable, TicketsTable } from '../../db/schema';
import { documentsWithAny, ticketsWithAllWords, ticketWordsMatch } from '../../db/engine-sql';
import { scopedWords, wordsOf } from '../../db/search-terms';
import { reusableQuery, runPrepared } from '../../db/reusable-query';

type Db = Kysely<DB> | Transaction<DB>;

export type TicketRow = TicketsTable;
export type MessageRow = TicketMessagesTable;

/** Whose tickets a list covers: one server's (staff) or the caller's own (personal). */
export type TicketScope = { serverId: string } | { userId: string };

export async function nextNumber(db: Db, serverId: string): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.max<number>('number').as('n'))
    .where('server_id', '=', serverId)
    .executeTakeFirst();
  return Number(row?.n ?? 0) + 1;
}

export async function insertTicket(db: Db, row: Omit<TicketRow, 'deleted'>): Promise<void> {
  await db.insertInto('tickets').values({ ...row, deleted: 0 }).execute();
}

export async function findTicket(db: Db, ticketId: string, serverId?: string): Promise<TicketRow | undefined> {
  let query = db.selectFrom('tickets').selectAll().where('id', '=', ticketId).where('deleted', '=', 0);
  if (serverId) query = query.where('server_id', '=', serverId);
  return query.executeTakeFirst();
}

export async function updateTicket(db: Db, ticketId: string, fields: Partial<TicketRow>): Promise<void> {
  await db.updateTable('tickets').set(fields).where('id', '=', ticketId).execute();
  await followActivity(db, ticketId, fields);
}

/** Closes the ticket unless it is closed already; false when another close came first. */
export async function closeTicket(db: Db, ticketId: string, fields: Partial<TicketRow>): Promise<boolean> {
  const result = await db.updateTable('tickets').set(fields).where('id', '=', ticketId).where('state', '!=', 'Closed').executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await followActivity(db, ticketId, fields);
  return true;
}

/** The ticket's memberships carry its last activity (migration 0024). */
async function followActivity(db: Db, ticketId: string, fields: Partial<TicketRow>): Promise<void> {
  if (fields.last_activity_at) await db.updateTable('ticket_members').set({ last_activity_at: fields.last_activity_at }).where('ticket_id', '=', ticketId).execute();
}

export async function deleteTicket(db: Db, engine: Engine, ticketId: string): Promise<void> {
  await removeTicketDocs(db, engine, ticketId);
  await db.deleteFrom('tickets').where('id', '=', ticketId).execute();
}

export async function isMember(db: Db, ticketId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('ticket_members').select('user_id').where('ticket_id', '=', ticketId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export async function addMember(db: Db, ticketId: string, userId: string): Promise<void> {
  await db
    .insertInto('ticket_members')
    .columns(['ticket_id', 'user_id', 'added_at', 'last_activity_at'])
    .expression((eb) => eb.selectFrom('tickets').select((e) => [e.val(ticketId).as('ticket_id'), e.val(userId).as('user_id'), e.val(now()).as('added_at'), 'last_activity_at']).where('id', '=', ticketId))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeMember(db: Db, ticketId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('ticket_members').where('ticket_id', '=', ticketId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function membersOf(db: Db, ticketIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (ticketIds.length === 0) return map;
  const rows = await db.selectFrom('ticket_members').select(['ticket_id', 'user_id']).where('ticket_id', 'in', ticketIds).orderBy('added_at').execute();
  for (const row of rows) map.set(row.ticket_id, [...(map.get(row.ticket_id) ?? []), row.user_id]);
  return map;
}

export async function insertMessage(db: Db, row: MessageRow): Promise<void> {
  await db.insertInto('ticket_messages').values(row).execute();
}

export async function findMessage(db: Db, ticketId: string, messageId: string): Promise<MessageRow | undefined> {
  return db.selectFrom('ticket_messages').selectAll().where('ticket_id', '=', ticketId).where('id', '=', messageId).executeTakeFirst();
}

/** A message by its own id or by the platform message it mirrors (what the bot runtime knows). */
/** The message the platform knows by this id (the bot runtime reports it by that id). */
export async function findMessageByExternalId(db: Db, ticketId: string, externalId: string): Promise<MessageRow | undefined> {
  return db.selectFrom('ticket_messages').selectAll().where('ticket_id', '=', ticketId).where('external_id', '=', externalId).executeTakeFirst();
}

export async function findMessageByAnyId(db: Db, ticketId: string, id: string): Promise<MessageRow | undefined> {
  return (await findMessage(db, ticketId, id)) ?? findMessageByExternalId(db, ticketId, id);
}

export async function updateMessage(db: Db, messageId: string, fields: Partial<MessageRow>): Promise<void> {
  await db.updateTable('ticket_messages').set(fields).where('id', '=', messageId).execute();
}

export async function messagesOf(db: Db, ticketId: string): Promise<MessageRow[]> {
  return db.selectFrom('ticket_messages').selectAll().where('ticket_id', '=', ticketId).orderBy('created_at').orderBy('id').execute();
}

export async function reactionsOf(db: Db, messageIds: string[]) {
  if (messageIds.length === 0) return [];
  return db.selectFrom('ticket_reactions').selectAll().where('message_id', 'in', messageIds).orderBy('created_at').execute();
}

export async function addReaction(db: Db, row: { message_id: string; emoji_key: string; emoji: unknown; user_id: string }): Promise<void> {
  await db
    .insertInto('ticket_reactions')
    .values({ ...row, emoji: toJson(row.emoji), created_at: now() })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeReactions(db: Db, messageId: string, filter: { emojiKey?: string; userId?: string }): Promise<void> {
  let query = db.deleteFrom('ticket_reactions').where('message_id', '=', messageId);
  if (filter.emojiKey) query = query.where('emoji_key', '=', filter.emojiKey);
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  await query.execute();
}

/** A ticket's server, compiled once (a list's page reads its tickets' servers beside them). */
const serverById = reusableQuery((db, v: { id: string }) => db.selectFrom('servers').select(['id', 'name', 'icon']).where('id', '=', v.id));

/** A ticket's subject, compiled once. */
const subjectById = reusableQuery((db, v: { id: string }) => db.selectFrom('subjects').select(['id', 'name']).where('id', '=', v.id));

/** The name (and icon) of the server a ticket shows; undefined when the database no longer has it. */
export async function findServer(db: Db, id: string) {
  return (await serverById(db, { id }))[0];
}

export async function findSubject(db: Db, id: string) {
  return (await subjectById(db, { id }))[0];
}

/** How much of the newest message's text a list shows. */
const PREVIEW_LENGTH = 200;

/** What a list shows of a ticket's newest message, kept on the ticket's row (migration 0024). */
export function lastMessageFields(message: Pick<MessageRow, 'id' | 'author_id' | 'created_at'> & { content: string } | null) {
  return {
    last_message_id: message?.id ?? null,
    last_message_author: message?.author_id ?? null,
    last_message_at: message?.created_at ?? null,
    last_message_preview: message ? message.content.slice(0, PREVIEW_LENGTH) : null,
  };
}

/** Points the ticket at its newest message that is not deleted (after a deletion). */
export async function refreshLastMessage(db: Db, ticketId: string): Promise<void> {
  const newest = await db
    .selectFrom('ticket_messages')
    .select(['id', 'author_id', 'created_at', 'body'])
    .where('ticket_id', '=', ticketId)
    .where('deleted', '=', 0)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const content = newest ? (fromJson<{ content?: string }>(newest.body).content ?? '') : '';
  await db
    .updateTable('tickets')
    .set(lastMessageFields(newest ? { ...newest, content } : null))
    .where('id', '=', ticketId)
    .execute();
}

// --- Search documents -------------------------------------------------------------------------

/*
 * SQLite's layout (migration 0009): a document's rowid is its ticket's search_key × 2^16 plus its
 * number within the ticket, and a ticket's search_key is its server's base × 2^23 plus the ticket's
 * number. So one ticket's documents are one rowid range, and a matching document names its ticket
 * (the words themselves are scoped by server, migration 0026). Rowids reach 2^63, beyond a
 * JavaScript number's exact integers: they are only ever computed by SQLite, from keys (below
 * 2^47) cast to integers, and constants inlined as literals (a bound JavaScript number is a REAL
 * to SQLite).
 */
const DOC_BITS = 16;
const NUMBER_BITS = 23;
const DOCS_PER_TICKET = sql.lit(2 ** DOC_BITS);

/** The server part of a ticket's search key (its server's base). */
const baseOf = (key: number) => Math.floor(key / 2 ** NUMBER_BITS);

/** The first rowid of a ticket's documents, from its search key. */
const firstDoc = (key: number) => sql<number>`cast(${key} as integer) * ${DOCS_PER_TICKET}`;

/** Rowids of the ticket with this key: its range of 2^16 documents. */
const inTicketRange = (key: number) => sql<boolean>`ticket_search.rowid between ${firstDoc(key)} and ${firstDoc(key)} + ${DOCS_PER_TICKET} - 1`;

async function searchKey(db: Db, ticketId: string): Promise<number | null> {
  const row = await db.selectFrom('tickets').select('search_key').where('id', '=', ticketId).executeTakeFirst();
  return row?.search_key ?? null;
}

type SearchDoc = { ticket_id: string; server_id: string; kind: string; ref_id: string; body: string };

/**
 * Indexes (or re-indexes) one text of a ticket. SQLite: the document takes the next rowid of its
 * ticket's range; a ticket past the layout's limits (2^16 documents, 2^23 tickets in its server)
 * keeps what is indexed so far and adds nothing more, rather than spill into a neighbour's range.
 */
export async function putSearchDoc(db: Db, engine: Engine, doc: SearchDoc): Promise<void> {
  if (engine !== 'sqlite') {
    const replaced = await removeListedDoc(db, doc.ticket_id, doc.kind, doc.ref_id);
    if (doc.body.trim() !== '') {
      await db.insertInto('ticket_search').values(doc).execute();
      // A new text adds its words to the ticket's; a changed one may have taken some away.
      if (!replaced) {
        await sql`insert into ticket_postings (word, ticket_id)
          select w, ${doc.ticket_id} from unnest(tsvector_to_array(ticket_search_words(${doc.server_id}, ${doc.body}))) as w
          on conflict do nothing`.execute(db);
      }
    }
    if (replaced) await gatherTicketWords(db, doc.ticket_id);
    return;
  }
  const key = await searchKey(db, doc.ticket_id);
  if (key === null) return;
  const replaced = await removeRangedDoc(db, key, doc.kind, doc.ref_id);
  if (doc.body.trim() !== '') {
    const words = scopedWords(doc.server_id, wordsOf(doc.body));
    const next = sql`coalesce(max(ticket_search.rowid) + 1, ${firstDoc(key)})`;
    const added = await sql`insert into ticket_search (rowid, ticket_id, server_id, kind, ref_id, body, words)
      select ${next}, ${doc.ticket_id}, ${doc.server_id}, ${doc.kind}, ${doc.ref_id}, ${doc.body}, ${words.join(' ')}
      from ticket_search where ${inTicketRange(key)}
      having ${next} < ${firstDoc(key)} + ${DOCS_PER_TICKET}`.execute(db);
    if (!replaced && Number(added.numAffectedRows ?? 0) > 0) await addRangedWords(db, key, words);
  }
  if (replaced) await gatherRangedWords(db, key);
}

/** SQLite: one text of the ticket with this search key leaves the index; true when there was one. */
async function removeRangedDoc(db: Db, key: number, kind: string, refId: string): Promise<boolean> {
  const removed = await sql`delete from ticket_search where ${inTicketRange(key)} and kind = ${kind} and ref_id = ${refId}`.execute(db);
  return Number(removed.numAffectedRows ?? 0) > 0;
}

/** SQLite: the row of words of the ticket with this search key (migration 0030). */
const ticketWordsRow = (key: number) => sql<boolean>`ticket_words.rowid = cast(${key} as integer)`;

/** SQLite: the ticket's words become these (each once); a ticket without words has no row. */
async function putRangedWords(db: Db, key: number, words: Set<string>): Promise<void> {
  await sql`delete from ticket_words where ${ticketWordsRow(key)}`.execute(db);
  if (words.size > 0) await sql`insert into ticket_words (rowid, words) values (cast(${key} as integer), ${[...words].join(' ')})`.execute(db);
}

/** SQLite: a new text adds its words to the ticket's; nothing is written when it has none new. */
async function addRangedWords(db: Db, key: number, words: string[]): Promise<void> {
  const row = (await sql<{ words: string }>`select words from ticket_words where ${ticketWordsRow(key)}`.execute(db)).rows[0];
  const held = new Set(row ? row.words.split(' ') : []);
  const before = held.size;
  for (const word of words) held.add(word);
  if (held.size > before) await putRangedWords(db, key, held);
}

/** SQLite: the ticket's words again from its documents, after one left or changed (it may have taken some away). */
async function gatherRangedWords(db: Db, key: number): Promise<void> {
  const docs = await sql<{ words: string }>`select words from ticket_search where ${inTicketRange(key)}`.execute(db);
  await putRangedWords(db, key, new Set(docs.rows.flatMap((d) => d.words.split(' ')).filter((w) => w !== '')));
}

/** PostgreSQL: one text of a ticket leaves the index; true when there was one. */
async function removeListedDoc(db: Db, ticketId: string, kind: string, refId: string): Promise<boolean> {
  const removed = await db.deleteFrom('ticket_search').where('ticket_id', '=', ticketId).where('kind', '=', kind).where('ref_id', '=', refId).executeTakeFirst();
  return removed.numDeletedRows > 0n;
}

/** PostgreSQL: the ticket's words again from its documents (migration 0031), after one left. */
async function gatherTicketWords(db: Db, ticketId: string): Promise<void> {
  await db.deleteFrom('ticket_postings').where('ticket_id', '=', ticketId).execute();
  await sql`insert into ticket_postings (word, ticket_id)
    select distinct w, s.ticket_id
    from ticket_search s cross join unnest(tsvector_to_array(s.tsv)) as w
    where s.ticket_id = ${ticketId}`.execute(db);
}

export async function removeSearchDoc(db: Db, engine: Engine, ticketId: string, kind: string, refId: string): Promise<void> {
  if (engine !== 'sqlite') {
    if (await removeListedDoc(db, ticketId, kind, refId)) await gatherTicketWords(db, ticketId);
    return;
  }
  const key = await searchKey(db, ticketId);
  if (key !== null && (await removeRangedDoc(db, key, kind, refId))) await gatherRangedWords(db, key);
}

async function removeTicketDocs(db: Db, engine: Engine, ticketId: string): Promise<void> {
  // PostgreSQL: the documents and the words go with the ticket (foreign keys, on delete cascade).
  if (engine !== 'sqlite') return;
  const key = await searchKey(db, ticketId);
  if (key === null) return;
  await sql`delete from ticket_search where ${inTicketRange(key)}`.execute(db);
  await sql`delete from ticket_words where ${ticketWordsRow(key)}`.execute(db);
}

/** A text of a ticket that holds a searched word, as a highlight shows it. */
export type FoundText = { kind: string; body: string };

/** How many of a found ticket's texts a search shows: the first that hold any of the words. */
const FOUND_PER_TICKET = 3;

/**
 * PostgreSQL: the first FOUND_PER_TICKET texts of the page's ticket (`tickets`) that hold any of
 * the words (`match`), as one JSON array: the name, the form's answers, then the messages (by id;
 * SQLite gives them in the order they were written). Read as a column of the page's statement: one
 * round trip and one statement fewer, and each ticket's texts come as one value, not as a row each.
 */
const foundTexts = (match: RawBuilder<boolean>) =>
  sql<FoundText[]>`(select coalesce(json_agg(json_build_object('kind', found.kind, 'body', found.body)), '[]') from (
    select ticket_search.kind, ticket_search.body from ticket_search
    where ticket_search.ticket_id = tickets.id and ${match}
    order by case ticket_search.kind when 'name' then 0 when 'answer' then 1 else 2 end, ticket_search.ref_id
    limit ${sql.lit(FOUND_PER_TICKET)}) as found)`;

/**
 * SQLite: the tickets, each with the first FOUND_PER_TICKET of its texts that hold any of the
 * terms (`found`). It finds them in one statement per server: the documents that match, reading
 * only the rowid range that spans the tickets' keys and no document's columns, then the first few
 * of each ticket by rowid, whose columns alone it reads (reading every match's columns took 10 %
 * longer at a million tickets). Rowids themselves stay in SQLite (they pass 2^53); keys do not.
 */
async function withFoundTexts<T extends Pick<TicketRow, 'id' | 'server_id' | 'search_key'>>(db: Db, tickets: T[], terms: string[]): Promise<(T & { found: FoundText[] })[]> {
  // The rows are the page's own, just read: each gets its texts in place (a copy of each cost 10 % of a search).
  const result = tickets as (T & { found: FoundText[] })[];
  const found = new Map<string, FoundText[]>();
  for (const row of result) found.set(row.id, (row.found = []));
  if (tickets.length === 0) return result;
  const match = documentsWithAny('sqlite', terms, [...new Set(tickets.map((t) => t.server_id))]);
  const keysByServer = new Map<number, number[]>();
  for (const { search_key: key } of tickets) {
    if (key === null) continue;
    const keys = keysByServer.get(baseOf(key));
    if (keys) keys.push(key);
    else keysByServer.set(baseOf(key), [key]);
  }
  // Each server's tickets in one statement: the keys go as one JSON array, so its text is the same for every page.
  const statements = await Promise.all(
    [...keysByServer.values()].map(
      (keys) =>
        sql<FoundText & { ticket_id: string }>`select ticket_search.ticket_id, ticket_search.kind, ticket_search.body from (
            select ticket_search.rowid as doc,
              row_number() over (partition by ticket_search.rowid >> ${sql.lit(DOC_BITS)} order by ticket_search.rowid) as nth
            from ticket_search where ${match}
            and ticket_search.rowid between ${firstDoc(Math.min(...keys))} and ${firstDoc(Math.max(...keys))} + ${DOCS_PER_TICKET} - 1
            and ticket_search.rowid >> ${sql.lit(DOC_BITS)} in (select value from json_each(${JSON.stringify(keys)}))) as found
          join ticket_search on ticket_search.rowid = found.doc
          where found.nth <= ${sql.lit(FOUND_PER_TICKET)} order by found.doc`.execute(db),
    ),
  );
  for (const { ticket_id: ticketId, kind, body } of statements.flatMap((r) => r.rows)) found.get(ticketId)?.push({ kind, body });
  return result;
}

/** A server's change counter, read before every reused list (compiled once). */
const serverChanges = reusableQuery((db, v: { serverId: string }) => db.selectFrom('server_changes').select('version').where('server_id', '=', v.serverId));

/** The server's change counter (migration 0010): 0 until something of it is first written. */
export async function serverVersion(db: Db, serverId: string): Promise<number> {
  const [row] = await serverChanges(db, { serverId });
  return Number(row?.version ?? 0);
}

// --- Lists --------------------------------------------------------------------------------------

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

/** The servers where someone is a member of a ticket. */
async function memberServers(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('ticket_members as mine')
    .innerJoin('tickets', 'tickets.id', 'mine.ticket_id')
    .select('tickets.server_id')
    .distinct()
    .where('mine.user_id', '=', userId)
    .execute();
  return rows.map((r) => r.server_id);
}

/** The filters of a list query, without its paging. */
const filtersOf = ({ Page: _page, Amount: _amount, ...filters }: TicketListQuery) => filters;

/** What a list's statements are built from: whose tickets (a server's, or a member's own) and the filters. */
type ListValues = { serverId?: string; userId?: string } & Omit<TicketListQuery, 'Page' | 'Amount'>;

/**
 * The tickets a list shows, with its filters, and the columns it is ordered by. A server's list is
 * read off its index of live tickets. Every author is a member of their ticket, so a member's own
 * list is their memberships, read off their index by activity.
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
  if (v.Server) query = query.where('tickets.server_id', '=', v.Server);
  if (v.Subject) query = query.where('tickets.subject_id', '=', v.Subject);
  if (v.Author) query = query.where('tickets.author_id', '=', v.Author);
  if (v.Assignee) query = query.where('tickets.assignee_id', '=', v.Assignee);
  if (v.ClosedBy) query = query.where('tickets.closed_by', '=', v.ClosedBy);
  if (v.Active === true) query = query.where('tickets.state', '!=', 'Closed');
  if (v.Active === false) query = query.where('tickets.state', '=', 'Closed');
  if (v.HideResolved === true) query = query.where('tickets.state', 'not in', ['Closed', 'AutoClose']);
  return { query, activity, tie };
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

/** SQLite: what a search reads, the list's values and the FTS5 query of the tickets' words. */
type SearchValues = ListValues & { words: string };

/**
 * SQLite: the tickets of a list whose words (migration 0030) match. A ticket's row of words has
 * its search key for rowid. The unary + keeps SQLite from reading each match's ticket by its key (a
 * common word is in most of a server's tickets): it walks the list's own index, in the list's
 * order, and keeps the tickets among the matches, so a page stops at its last match.
 */
function searchedTickets(db: Db, v: SearchValues) {
  const listed = listedTickets(db, v);
  return { ...listed, query: listed.query.where(sql<boolean>`+tickets.search_key in (select ticket_words.rowid from ticket_words where ticket_words match ${v.words})`) };
}

/** SQLite: a page of a search (compiled once per shape of filters). */
const searchPage = reusableQuery((db, v: SearchValues & PageValues) => {
  const searched = searchedTickets(db, v);
  return onePage(withNames(searched.query), searched, v);
}, ['firstPage']);

/** SQLite: how many tickets a search with filters finds. */
const searchCount = reusableQuery((db, v: SearchValues) => searchedTickets(db, v).query.select((eb) => eb.fn.countAll<number>().as('n')));

/**
 * SQLite: how many of a server's tickets a search finds, counted in the words' index alone: the
 * server's tickets are one range of keys (migration 0009), and a ticket's words leave with it.
 */
const serverMatches = reusableQuery((db, v: { serverId: string; words: string }) => {
  const base = sql`(select search_bases.base from search_bases where search_bases.server_id = ${v.serverId})`;
  const keys = sql.lit(2 ** NUMBER_BITS);
  return db.selectNoFrom(
    sql<number>`(select count(*) from ticket_words where ticket_words match ${v.words}
      and ticket_words.rowid between ${base} * ${keys} and ${base} * ${keys} + ${keys} - 1)`.as('n'),
  );
});

/** One page of tickets in scope, newest activity first, with the list filters and an optional search. */
export async function pageTickets(
  db: Db,
  engine: Engine,
  scope: TicketScope,
  filters: TicketListQuery,
  terms: string[] | null,
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
    // A server's whole list is counted by its counter, a member's by theirs, read with the page;
    // past the last page no row carries it.
    const rows = await listPage(db, page);
    if (rows.length > 0 || offset === 0) return { rows, total: Number(rows[0]?.listed_total ?? 0) };
    return { rows, total: Number((await listTotal(db, scope))[0]?.tickets ?? 0) };
  }
  // The words are looked up in the servers the list can show (a member's: those of their tickets);
  // the list's own conditions keep the matching tickets of its own.
  const servers = 'serverId' in scope ? [scope.serverId] : filters.Server ? [filters.Server] : await memberServers(db, scope.userId);
  if (engine === 'sqlite') {
    // The matches are counted apart from the page, which stops at its last match.
    if (servers.length === 0) return { rows: [], total: 0 };
    const searched: SearchValues = { ...values, words: ticketWordsMatch(terms, servers) };
    const total = 'serverId' in scope && unfiltered ? serverMatches(db, { serverId: scope.serverId, words: searched.words }) : searchCount(db, searched);
    const [rows, n] = await Promise.all([searchPage(db, { ...searched, ...pageValues(offset, filters.Amount) }), total]);
    return { rows: await withFoundTexts(db, rows, terms), total: Number(n[0]?.n ?? 0) };
  }
  const listed = listedTickets(db, values);
  const query = listed.query.where(ticketsWithAllWords(terms, servers));
  // PostgreSQL gives the page, the number of matches and the texts to highlight in one statement,
  // so the text search runs once; it orders the matches' ids alone and reads the whole rows of the
  // page's tickets after. The matches are found on their own (a materialized CTE), planned for all
  // of them: planned under the page's LIMIT, with a count over every match above it, the
  // statement's general plan looked up the matches once per ticket of the server (26 ms for
  // "refund" at a million tickets, against 1.5 ms).
  const matches = query.select(['tickets.id', sql`${listed.activity}`.as('activity'), sql`${listed.tie}`.as('tie')]);
  const ordered = { activity: sql.ref('matches.activity'), tie: sql.ref('matches.tie') };
  // Its text is the same for every search with the same filters (the terms are one value), and its
  // plan too, so PostgreSQL plans it once per connection (engine-sql.ts, ticketsWithAllWords).
  const page = await runPrepared(
    db,
    db
      .with((cte) => cte('matches').materialized(), () => matches)
      .with('hits', (qb) => onePage(qb.selectFrom('matches').select('matches.id'), ordered, pageValues(offset, filters.Amount)))
      .selectFrom('hits')
      .innerJoin('tickets', 'tickets.id', 'hits.id')
      .leftJoin('servers', 'servers.id', 'tickets.server_id')
      .leftJoin('subjects', 'subjects.id', 'tickets.subject_id')
      .select(LIST_COLUMNS)
      .select(NAME_COLUMNS)
      // Counted once, over the matches already found (a window count over them cost 0.2 ms more).
      .select(sql<number>`(select count(*) from matches)`.as('total_in_scope'))
      .select(foundTexts(documentsWithAny(engine, terms, servers)).as('found'))
      .orderBy('tickets.last_activity_at', 'desc')
      .orderBy('tickets.id', 'desc'),
  );
  if (page.length > 0 || offset === 0) {
    const rows = page.map(({ total_in_scope: _total, ...row }) => row);
    return { rows, total: Number(page[0]?.total_in_scope ?? 0) };
  }
  // Past the last page there is no row to carry the total.
  return { rows: [], total: Number((await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n) };
}

export async function personalServers(db: Db, userId: string, offset: number, limit: number) {
  const base = db
    .selectFrom('tickets')
    .innerJoin('servers', 'servers.id', 'tickets.server_id')
    .where('tickets.deleted', '=', 0)
    // Every author is a member of their ticket (migration 0024).
    .innerJoin('ticket_members as mine', (join) => join.onRef('mine.ticket_id', '=', 'tickets.id').on('mine.user_id', '=', userId));
  const [rows, total] = await Promise.all([
    base.select(['servers.id', 'servers.name', 'servers.icon']).distinct().orderBy('servers.name').offset(offset).limit(limit).execute(),
    base.select(sql<number>`count(distinct servers.id)`.as('n')).executeTakeFirstOrThrow(),
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

/** The server's subject, unless it was deleted. */
export async function findLiveSubject(db: Db, serverId: string, subjectId: string) {
  return db.selectFrom('subjects').select(['id', 'active']).where('server_id', '=', serverId).where('id', '=', subjectId).where('deleted', '=', 0).executeTakeFirst();
}

/** A page of the server's subjects that are not deleted, in their order, and how many there are. */
export async function pageLiveSubjects(db: Db, serverId: string, offset: number, limit: number) {
  const base = db.selectFrom('subjects').where('server_id', '=', serverId).where('deleted', '=', 0);
  const [rows, total] = await Promise.all([
    base.select(['id', 'name']).orderBy('position').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** What was scheduled for the ticket (a delayed close) goes when it closes. */
export async function deleteTicketJobs(db: Db, ticketId: string): Promise<void> {
  await db.deleteFrom('ticket_jobs').where('ticket_id', '=', ticketId).execute();
}

export async function subjectCounts(db: Db, subjectId: string) {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>(eb.case().when('state', '!=', 'Closed').then(1).else(0).end()).as('active')])
    .where('subject_id', '=', subjectId)
    .where('deleted', '=', 0)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), active: Number(row.active ?? 0) };
}

/** Servers the bot is in: one row per server, far fewer than tickets. */
export async function countActiveServers(db: Db): Promise<number> {
  const row = await db.selectFrom('servers').select((eb) => eb.fn.countAll<number>().as('n')).where('active', '=', 1).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The server's name when its admins made its statistics public; undefined otherwise (or unknown). */
export async function publicStatsServer(db: Db, serverId: string): Promise<{ name: string } | undefined> {
  return db
    .selectFrom('server_settings')
    .innerJoin('servers', 'servers.id', 'server_settings.server_id')
    .select('servers.name')
    .where('server_settings.server_id', '=', serverId)
    .where('server_settings.public_stats', '=', 1)
    .executeTakeFirst();
}
