import { sql, type Kysely, type Transaction } from 'kysely';
import type { TicketListQuery } from '@ticket/contracts';
import { now, toJson, type Engine } from '../../db/database';
import type { DB, TicketMessagesTable, TicketsTable } from '../../db/schema';
import { matchPredicate } from './search-text';

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
}

/** Closes the ticket unless it is closed already; false when another close came first. */
export async function closeTicket(db: Db, ticketId: string, fields: Partial<TicketRow>): Promise<boolean> {
  const result = await db.updateTable('tickets').set(fields).where('id', '=', ticketId).where('state', '!=', 'Closed').executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
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
  await db.insertInto('ticket_members').values({ ticket_id: ticketId, user_id: userId, added_at: now() }).onConflict((oc) => oc.doNothing()).execute();
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
export async function findMessageByAnyId(db: Db, ticketId: string, id: string): Promise<MessageRow | undefined> {
  return (
    (await findMessage(db, ticketId, id)) ??
    db.selectFrom('ticket_messages').selectAll().where('ticket_id', '=', ticketId).where('external_id', '=', id).executeTakeFirst()
  );
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

/** What a list shows of each ticket besides its own row, from one query. */
export interface TicketListDetails {
  serverName: string | null;
  serverIcon: string | null;
  subjectName: string | null;
  /** The newest message (by the ticket's pointer). */
  last: Pick<MessageRow, 'id' | 'author_id' | 'created_at' | 'body'> | null;
  /** The staff who wrote in it. */
  attendees: string[];
}

export async function listDetails(db: Db, engine: Engine, ticketIds: string[]): Promise<Map<string, TicketListDetails>> {
  const details = new Map<string, TicketListDetails>();
  if (ticketIds.length === 0) return details;
  // Author ids are digits: a comma joins and splits them safely.
  const staffIds = engine === 'sqlite' ? sql<string | null>`group_concat(distinct staff.author_id)` : sql<string | null>`string_agg(distinct staff.author_id, ',')`;
  const rows = await db
    .selectFrom('tickets')
    .leftJoin('servers', 'servers.id', 'tickets.server_id')
    .leftJoin('subjects', 'subjects.id', 'tickets.subject_id')
    .leftJoin('ticket_messages as last', 'last.id', 'tickets.last_message_id')
    .select([
      'tickets.id',
      'servers.name as server_name',
      'servers.icon as server_icon',
      'subjects.name as subject_name',
      'last.id as last_id',
      'last.author_id as last_author_id',
      'last.created_at as last_created_at',
      'last.body as last_body',
    ])
    .select((eb) =>
      eb
        .selectFrom('ticket_messages as staff')
        .select(staffIds.as('ids'))
        .whereRef('staff.ticket_id', '=', 'tickets.id')
        // Written out as the index of staff messages (migration 0011) has it, so it serves.
        .where(sql<boolean>`staff.message_type = 'Staff'`)
        .as('attendees'),
    )
    .where('tickets.id', 'in', ticketIds)
    .execute();
  for (const row of rows) {
    details.set(row.id, {
      serverName: row.server_name,
      serverIcon: row.server_icon,
      subjectName: row.subject_name,
      last:
        row.last_id && row.last_author_id && row.last_created_at
          ? { id: row.last_id, author_id: row.last_author_id, created_at: row.last_created_at, body: row.last_body }
          : null,
      attendees: row.attendees ? row.attendees.split(',') : [],
    });
  }
  return details;
}

/** Points the ticket at its newest message that is not deleted (after a deletion). */
export async function refreshLastMessage(db: Db, ticketId: string): Promise<void> {
  const newest = await db
    .selectFrom('ticket_messages')
    .select('id')
    .where('ticket_id', '=', ticketId)
    .where('deleted', '=', 0)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  await db.updateTable('tickets').set({ last_message_id: newest?.id ?? null }).where('id', '=', ticketId).execute();
}

// --- Search documents -------------------------------------------------------------------------

/*
 * SQLite's layout (migration 0009): a document's rowid is its ticket's search_key × 2^16 plus its
 * number within the ticket, and a ticket's search_key is its server's base × 2^23 plus the ticket's
 * number. So one server's documents are one rowid range (which FTS5 seeks to), and one ticket's a
 * smaller range inside it. Rowids reach 2^63, beyond a JavaScript number's exact integers: they
 * are only ever computed by SQLite, from keys (below 2^47) cast to integers, and constants inlined
 * as literals (a bound JavaScript number is a REAL to SQLite).
 */
const DOC_BITS = 16;
const NUMBER_BITS = 23;
const DOCS_PER_TICKET = sql.lit(2 ** DOC_BITS);
const SERVER_SPAN = sql.lit(2 ** (DOC_BITS + NUMBER_BITS));

/** The server part of a ticket's search key (its server's base). */
const baseOf = (key: number) => Math.floor(key / 2 ** NUMBER_BITS);

/** The first rowid of a ticket's documents, from its search key. */
const firstDoc = (key: number) => sql<number>`cast(${key} as integer) * ${DOCS_PER_TICKET}`;

/** Rowids of the ticket with this key: its range of 2^16 documents. */
const inTicketRange = (key: number) => sql<boolean>`ticket_search.rowid between ${firstDoc(key)} and ${firstDoc(key)} + ${DOCS_PER_TICKET} - 1`;

/** Rowids of one server's documents; no range (nothing found) for a server without tickets. */
const inServerRange = (serverId: string) => {
  const first = sql<number>`(select base from search_bases where server_id = ${serverId}) * ${SERVER_SPAN}`;
  return sql<boolean>`ticket_search.rowid between ${first} and ${first} + ${SERVER_SPAN} - 1`;
};

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
    await removeSearchDoc(db, engine, doc.ticket_id, doc.kind, doc.ref_id);
    if (doc.body.trim() !== '') await db.insertInto('ticket_search').values(doc).execute();
    return;
  }
  const key = await searchKey(db, doc.ticket_id);
  if (key === null) return;
  await removeRangedDoc(db, key, doc.kind, doc.ref_id);
  if (doc.body.trim() === '') return;
  const next = sql`coalesce(max(ticket_search.rowid) + 1, ${firstDoc(key)})`;
  await sql`insert into ticket_search (rowid, ticket_id, server_id, kind, ref_id, body)
    select ${next}, ${doc.ticket_id}, ${doc.server_id}, ${doc.kind}, ${doc.ref_id}, ${doc.body}
    from ticket_search where ${inTicketRange(key)}
    having ${next} < ${firstDoc(key)} + ${DOCS_PER_TICKET}`.execute(db);
}

/** SQLite: one text of the ticket with this search key leaves the index. */
async function removeRangedDoc(db: Db, key: number, kind: string, refId: string): Promise<void> {
  await sql`delete from ticket_search where ${inTicketRange(key)} and kind = ${kind} and ref_id = ${refId}`.execute(db);
}

export async function removeSearchDoc(db: Db, engine: Engine, ticketId: string, kind: string, refId: string): Promise<void> {
  if (engine !== 'sqlite') {
    await db.deleteFrom('ticket_search').where('ticket_id', '=', ticketId).where('kind', '=', kind).where('ref_id', '=', refId).execute();
    return;
  }
  const key = await searchKey(db, ticketId);
  if (key !== null) await removeRangedDoc(db, key, kind, refId);
}

async function removeTicketDocs(db: Db, engine: Engine, ticketId: string): Promise<void> {
  if (engine !== 'sqlite') {
    await db.deleteFrom('ticket_search').where('ticket_id', '=', ticketId).execute();
    return;
  }
  const key = await searchKey(db, ticketId);
  if (key !== null) await sql`delete from ticket_search where ${inTicketRange(key)}`.execute(db);
}

/** The first `n` items of each group, in order. */
function firstOfEach<T, K>(items: T[], groupOf: (item: T) => K, n: number): T[] {
  const seen = new Map<K, number>();
  return items.filter((item) => {
    const count = (seen.get(groupOf(item)) ?? 0) + 1;
    seen.set(groupOf(item), count);
    return count <= n;
  });
}

/**
 * Up to `perTicket` matching documents of each of these tickets, for highlights. SQLite finds them
 * in two steps: which documents match, reading only the rowid range that spans the tickets' keys
 * (per server: a page of one server's tickets is one range, usually a narrow one), then the text
 * of the few it keeps. Rowids themselves stay in SQLite (they pass 2^53); keys and numbers do not.
 */
export async function matchingDocs(db: Db, engine: Engine, tickets: Pick<TicketRow, 'id' | 'search_key'>[], terms: string[], perTicket = 3) {
  const columns = ['ticket_id', 'kind', 'ref_id', 'body'] as const;
  if (tickets.length === 0) return [];
  const match = matchPredicate(engine, terms);
  if (engine !== 'sqlite') {
    const rows = await db.selectFrom('ticket_search').select(columns).where(match).where('ticket_id', 'in', tickets.map((t) => t.id)).execute();
    return firstOfEach(rows, (r) => r.ticket_id, perTicket);
  }
  const keysByServer = new Map<number, number[]>();
  for (const { search_key: key } of tickets) {
    if (key !== null) keysByServer.set(baseOf(key), [...(keysByServer.get(baseOf(key)) ?? []), key]);
  }
  const int = (n: number) => sql<number>`cast(${n} as integer)`;
  const found = await Promise.all(
    [...keysByServer.values()].map(
      (keys) =>
        sql<{ key: number; n: number }>`select ticket_search.rowid >> ${sql.lit(DOC_BITS)} as key, ticket_search.rowid & ${sql.lit(2 ** DOC_BITS - 1)} as n
          from ticket_search where ${match}
          and ticket_search.rowid between ${firstDoc(Math.min(...keys))} and ${firstDoc(Math.max(...keys))} + ${DOCS_PER_TICKET} - 1
          and ticket_search.rowid >> ${sql.lit(DOC_BITS)} in (${sql.join(keys.map(int))})`.execute(db),
    ),
  );
  const wanted = firstOfEach(
    found.flatMap((r) => r.rows),
    (d) => d.key,
    perTicket,
  );
  if (wanted.length === 0) return [];
  return db
    .selectFrom('ticket_search')
    .select(columns)
    .where(sql<boolean>`ticket_search.rowid in (${sql.join(wanted.map((d) => sql`${firstDoc(d.key)} + ${int(d.n)}`))})`)
    .orderBy(sql`ticket_search.rowid`)
    .execute();
}

/** The server's change counter (migration 0010): 0 until something of it is first written. */
export async function serverVersion(db: Db, serverId: string): Promise<number> {
  const row = await db.selectFrom('server_changes').select('version').where('server_id', '=', serverId).executeTakeFirst();
  return Number(row?.version ?? 0);
}

// --- Lists --------------------------------------------------------------------------------------

/** One page of tickets in scope, newest activity first, with the list filters and an optional search. */
export async function pageTickets(
  db: Db,
  engine: Engine,
  scope: TicketScope,
  filters: TicketListQuery,
  terms: string[] | null,
): Promise<{ rows: TicketRow[]; total: number }> {
  let query = db.selectFrom('tickets').where('tickets.deleted', '=', 0);
  if ('serverId' in scope) {
    query = query.where('tickets.server_id', '=', scope.serverId);
  } else {
    const userId = scope.userId;
    query = query.where((eb) =>
      eb.or([
        eb('tickets.author_id', '=', userId),
        eb.exists(eb.selectFrom('ticket_members').select('user_id').whereRef('ticket_members.ticket_id', '=', 'tickets.id').where('ticket_members.user_id', '=', userId)),
      ]),
    );
  }
  if (filters.Server) query = query.where('tickets.server_id', '=', filters.Server);
  if (filters.Subject) query = query.where('tickets.subject_id', '=', filters.Subject);
  if (filters.Author) query = query.where('tickets.author_id', '=', filters.Author);
  if (filters.Assignee) query = query.where('tickets.assignee_id', '=', filters.Assignee);
  if (filters.ClosedBy) query = query.where('tickets.closed_by', '=', filters.ClosedBy);
  if (filters.Active === true) query = query.where('tickets.state', '!=', 'Closed');
  if (filters.Active === false) query = query.where('tickets.state', '=', 'Closed');
  if (filters.HideResolved === true) query = query.where('tickets.state', 'not in', ['Closed', 'AutoClose']);
  if (terms) {
    const match = matchPredicate(engine, terms, 'serverId' in scope ? scope.serverId : undefined);
    if (engine !== 'sqlite') {
      query = query.where('tickets.id', 'in', (eb) => eb.selectFrom('ticket_search').select('ticket_search.ticket_id').where(match));
    } else if ('serverId' in scope) {
      // FTS5 reads this server's rowid range alone; a document's ticket is its rowid without the document bits.
      query = query.where(
        sql<boolean>`tickets.search_key in (select distinct ticket_search.rowid >> ${sql.lit(DOC_BITS)} from ticket_search where ${match} and ${inServerRange(scope.serverId)})`,
      );
    } else {
      // A member's own tickets are few: each is looked up in its own range.
      query = query.where(
        sql<boolean>`exists (select 1 from ticket_search where ${match} and ticket_search.rowid between tickets.search_key * ${DOCS_PER_TICKET} and tickets.search_key * ${DOCS_PER_TICKET} + ${DOCS_PER_TICKET} - 1)`,
      );
    }
  }
  const offset = (filters.Page - 1) * filters.Amount;
  const ordered = query.selectAll('tickets').orderBy('tickets.last_activity_at', 'desc').orderBy('tickets.id', 'desc').offset(offset).limit(filters.Amount);
  const count = () => query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (!terms) {
    // A list reads its page straight off the index of live tickets; the count reads that index alone.
    const [rows, total] = await Promise.all([ordered.execute(), count()]);
    return { rows, total: Number(total.n) };
  }
  // A search gives the page and the number of matches in one pass, so the text search runs once;
  // it orders the matches' ids alone and reads the whole rows of the page's tickets after.
  const hits = query
    .select(['tickets.id', sql<number>`count(*) over ()`.as('total_in_scope')])
    .orderBy('tickets.last_activity_at', 'desc')
    .orderBy('tickets.id', 'desc')
    .offset(offset)
    .limit(filters.Amount);
  const page = await db
    .with('hits', () => hits)
    .selectFrom('hits')
    .innerJoin('tickets', 'tickets.id', 'hits.id')
    .selectAll('tickets')
    .select('hits.total_in_scope')
    .orderBy('tickets.last_activity_at', 'desc')
    .orderBy('tickets.id', 'desc')
    .execute();
  if (page.length > 0 || offset === 0) {
    const rows = page.map(({ total_in_scope: _total, ...row }) => row);
    return { rows, total: Number(page[0]?.total_in_scope ?? 0) };
  }
  // Past the last page there is no row to carry the total.
  return { rows: [], total: Number((await count()).n) };
}

export async function personalServers(db: Db, userId: string, offset: number, limit: number) {
  const base = db
    .selectFrom('tickets')
    .innerJoin('servers', 'servers.id', 'tickets.server_id')
    .where('tickets.deleted', '=', 0)
    .where((eb) =>
      eb.or([
        eb('tickets.author_id', '=', userId),
        eb.exists(eb.selectFrom('ticket_members').select('user_id').whereRef('ticket_members.ticket_id', '=', 'tickets.id').where('ticket_members.user_id', '=', userId)),
      ]),
    );
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
    .where((eb) =>
      eb.or([
        eb('tickets.author_id', '=', userId),
        eb.exists(eb.selectFrom('ticket_members').select('user_id').whereRef('ticket_members.ticket_id', '=', 'tickets.id').where('ticket_members.user_id', '=', userId)),
      ]),
    );
  const [rows, total] = await Promise.all([
    base.select(['subjects.id', 'subjects.name']).distinct().orderBy('subjects.name').offset(offset).limit(limit).execute(),
    base.select(sql<number>`count(distinct subjects.id)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
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
