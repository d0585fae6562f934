import { sql, type RawBuilder } from 'kysely';
import type { Engine } from '../../db/database';
import { anyWordMatch, inJsonArray } from '../../db/engine-sql';
import { reusableQuery } from '../../db/reusable-query';
import { scopedWords, wordsOf } from '../../db/search-terms';
import type { Db, TicketRow } from './repository';

/*
 * The search index of tickets' texts (a ticket's name, form answers and messages), as the support
 * service writes it, and the texts a search shows of the tickets it found. The search's pages are
 * read with the lists (list-repository.ts).
 */

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
export const NUMBER_BITS = 23;
const DOCS_PER_TICKET = sql.lit(2 ** DOC_BITS);

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

export async function removeTicketDocs(db: Db, engine: Engine, ticketId: string): Promise<void> {
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
 *
 * The document's key (ticket, kind, ref) gives answers before messages, each by ref, so the texts
 * after the name are read off the key in order until three hold a word, with no sort; the name,
 * last in the key, is looked up first on its own, and the two run in that order (one after the
 * other, as PostgreSQL runs the parts of a UNION ALL outside a parallel plan, which a correlated
 * subquery never is). Reading every text of the ticket and sorting them took 0.33 ms a page of
 * 25 tickets at a million tickets, against 0.25 ms.
 */
export const foundTexts = (match: RawBuilder<boolean>) =>
  sql<FoundText[]>`(select coalesce(json_agg(json_build_object('kind', found.kind, 'body', found.body)), '[]') from (
    (select ticket_search.kind, ticket_search.body from ticket_search
      where ticket_search.ticket_id = tickets.id and ticket_search.kind = 'name' and ${match})
    union all
    (select ticket_search.kind, ticket_search.body from ticket_search
      where ticket_search.ticket_id = tickets.id and ticket_search.kind < 'name' and ${match}
      order by ticket_search.kind, ticket_search.ref_id limit ${sql.lit(FOUND_PER_TICKET)})
    limit ${sql.lit(FOUND_PER_TICKET)}) as found)`;

/**
 * SQLite: the first FOUND_PER_TICKET texts of each of one server's tickets (their keys, `keys`, as
 * one JSON array, from `first` to `last`) that hold any of the words (`words`, an FTS5 query), in
 * the order of their rowids. Built and compiled once (its text is the same for every page), as
 * building it took about 40 µs of the API's thread a search.
 */
const serverFoundTexts = reusableQuery((db, v: { words: string; keys: string; first: number; last: number }) => {
  const statement = sql<FoundText & { ticket_id: string }>`select ticket_search.ticket_id, ticket_search.kind, ticket_search.body from (
      select ticket_search.rowid as doc,
        row_number() over (partition by ticket_search.rowid >> ${sql.lit(DOC_BITS)} order by ticket_search.rowid) as nth
      from ticket_search where ticket_search match ${v.words}
      and ticket_search.rowid between ${firstDoc(v.first)} and ${firstDoc(v.last)} + ${DOCS_PER_TICKET} - 1
      and ${inJsonArray(sql`ticket_search.rowid >> ${sql.lit(DOC_BITS)}`, v.keys)}) as found
    join ticket_search on ticket_search.rowid = found.doc
    where found.nth <= ${sql.lit(FOUND_PER_TICKET)} order by found.doc`;
  return { compile: () => statement.compile(db) };
});

/**
 * SQLite: the tickets, each with the first FOUND_PER_TICKET of its texts that hold any of the
 * terms (`found`). It finds them in one statement per server: the documents that match, reading
 * only the rowid range that spans the tickets' keys and no document's columns, then the first few
 * of each ticket by rowid, whose columns alone it reads (reading every match's columns took 10 %
 * longer at a million tickets). Rowids themselves stay in SQLite (they pass 2^53); keys do not.
 */
export async function withFoundTexts<T extends Pick<TicketRow, 'id' | 'server_id' | 'search_key'>>(db: Db, tickets: T[], terms: string[]): Promise<(T & { found: FoundText[] })[]> {
  // The rows are the page's own, just read: each gets its texts in place (a copy of each cost 10 % of a search).
  const result = tickets as (T & { found: FoundText[] })[];
  const found = new Map<string, FoundText[]>();
  for (const row of result) found.set(row.id, (row.found = []));
  if (tickets.length === 0 || terms.length === 0) return result;
  const keysByServer = new Map<string, number[]>();
  for (const { server_id: serverId, search_key: key } of tickets) {
    if (key === null) continue;
    const keys = keysByServer.get(serverId);
    if (keys) keys.push(key);
    else keysByServer.set(serverId, [key]);
  }
  // Each server's tickets in one statement, which looks up that server's words only: a member's
  // page of 25 tickets on 25 servers, each statement looking up every server's words, took 20–42 ms
  // at a million tickets, against 0.2 ms for one server's.
  const statements = await Promise.all(
    [...keysByServer].map(([serverId, keys]) =>
      serverFoundTexts(db, { words: anyWordMatch(terms, [serverId]), keys: JSON.stringify(keys), first: Math.min(...keys), last: Math.max(...keys) }),
    ),
  );
  for (const { ticket_id: ticketId, kind, body } of statements.flat()) found.get(ticketId)?.push({ kind, body });
  return result;
}
