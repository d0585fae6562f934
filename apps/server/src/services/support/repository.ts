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

export async function deleteTicket(db: Db, engine: Engine, ticketId: string): Promise<void> {
  const range = engine === 'sqlite' ? await docRange(db, ticketId) : null;
  if (range) await sql`delete from ticket_search where rowid between ${range.first} and ${range.last}`.execute(db);
  else await db.deleteFrom('ticket_search').where('ticket_id', '=', ticketId).execute();
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

/** The newest message of each ticket (by the ticket's pointer), and the staff who wrote in it. */
export async function activityOf(db: Db, tickets: Pick<TicketRow, 'id' | 'last_message_id'>[]) {
  const last = new Map<string, MessageRow>();
  const attendees = new Map<string, string[]>();
  if (tickets.length === 0) return { last, attendees };
  const lastIds = tickets.flatMap((t) => t.last_message_id ?? []);
  const [latest, staff] = await Promise.all([
    lastIds.length > 0 ? db.selectFrom('ticket_messages').selectAll().where('id', 'in', lastIds).execute() : Promise.resolve([]),
    db
      .selectFrom('ticket_messages')
      .select(['ticket_id', 'author_id'])
      .distinct()
      .where(
        'ticket_id',
        'in',
        tickets.map((t) => t.id),
      )
      .where('message_type', '=', 'Staff')
      .execute(),
  ]);
  for (const row of latest) last.set(row.ticket_id, row);
  for (const row of staff) attendees.set(row.ticket_id, [...(attendees.get(row.ticket_id) ?? []), row.author_id]);
  return { last, attendees };
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

/**
 * SQLite: a ticket's search documents have the rowids search_key × 2^20 + 0, 1, 2… (migration
 * 0007), so that a match yields its ticket from the rowid alone and a ticket's documents are one
 * rowid range.
 */
// Inlined in queries as a literal: a bound JavaScript number is a REAL to SQLite, and rowid / 1048576.0 is no integer.
const DOCS_PER_TICKET = 1_048_576;

async function docRange(db: Db, ticketId: string): Promise<{ first: number; last: number } | null> {
  const row = await db.selectFrom('tickets').select('search_key').where('id', '=', ticketId).executeTakeFirst();
  const key = row?.search_key;
  return key == null ? null : { first: key * DOCS_PER_TICKET, last: key * DOCS_PER_TICKET + DOCS_PER_TICKET - 1 };
}

type SearchDoc = { ticket_id: string; server_id: string; kind: string; ref_id: string; body: string };

export async function putSearchDoc(db: Db, engine: Engine, doc: SearchDoc): Promise<void> {
  await removeSearchDoc(db, engine, doc.ticket_id, doc.kind, doc.ref_id);
  if (doc.body.trim() === '') return;
  const range = engine === 'sqlite' ? await docRange(db, doc.ticket_id) : null;
  if (!range) {
    await db.insertInto('ticket_search').values(doc).execute();
    return;
  }
  await sql`insert into ticket_search (rowid, ticket_id, server_id, kind, ref_id, body)
    select coalesce(max(rowid) + 1, ${range.first}), ${doc.ticket_id}, ${doc.server_id}, ${doc.kind}, ${doc.ref_id}, ${doc.body}
    from ticket_search where rowid between ${range.first} and ${range.last}`.execute(db);
}

export async function removeSearchDoc(db: Db, engine: Engine, ticketId: string, kind: string, refId: string): Promise<void> {
  const range = engine === 'sqlite' ? await docRange(db, ticketId) : null;
  if (range) {
    await sql`delete from ticket_search where rowid between ${range.first} and ${range.last} and kind = ${kind} and ref_id = ${refId}`.execute(db);
  } else {
    await db.deleteFrom('ticket_search').where('ticket_id', '=', ticketId).where('kind', '=', kind).where('ref_id', '=', refId).execute();
  }
}

/** The documents of these tickets that match, for highlights; `serverId` narrows the search when all are in one server. */
export async function matchingDocs(db: Db, engine: Engine, ticketIds: string[], terms: string[], serverId?: string) {
  if (ticketIds.length === 0) return [];
  return db
    .selectFrom('ticket_search')
    .select(['ticket_id', 'kind', 'ref_id', 'body'])
    .where(engine === 'sqlite' ? sql<boolean>`ticket_search.rowid / ${sql.lit(DOCS_PER_TICKET)} in (select search_key from tickets where id in (${sql.join(ticketIds)}))` : sql<boolean>`ticket_search.ticket_id in (${sql.join(ticketIds)})`)
    .where(matchPredicate(engine, terms, serverId))
    .execute();
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
    const scopeServer = 'serverId' in scope ? scope.serverId : undefined;
    const match = matchPredicate(engine, terms, scopeServer);
    query =
      engine === 'sqlite'
        ? query.where(sql<boolean>`tickets.search_key in (select ticket_search.rowid / ${sql.lit(DOCS_PER_TICKET)} from ticket_search where ${match})`)
        : query.where('tickets.id', 'in', (eb) => eb.selectFrom('ticket_search').select('ticket_search.ticket_id').where(match));
  }
  const offset = (filters.Page - 1) * filters.Amount;
  const ordered = query.selectAll('tickets').orderBy('tickets.last_activity_at', 'desc').orderBy('tickets.id', 'desc').offset(offset).limit(filters.Amount);
  if (!terms) {
    // A list reads its page straight off the (server, activity) index; the count is a second, cheap query.
    const [rows, total] = await Promise.all([ordered.execute(), query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()]);
    return { rows, total: Number(total.n) };
  }
  // A search gives the page and the number of matches in one pass, so the text search runs once.
  const page = await query
    .selectAll('tickets')
    .select(sql<number>`count(*) over ()`.as('total_in_scope'))
    .orderBy('tickets.last_activity_at', 'desc')
    .orderBy('tickets.id', 'desc')
    .offset(offset)
    .limit(filters.Amount)
    .execute();
  if (page.length > 0 || offset === 0) {
    const rows = page.map(({ total_in_scope: _total, ...row }) => row);
    return { rows, total: Number(page[0]?.total_in_scope ?? 0) };
  }
  // Past the last page there is no row to carry the total.
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows: [], total: Number(total.n) };
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
