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

export async function deleteTicket(db: Db, ticketId: string): Promise<void> {
  await db.deleteFrom('ticket_search').where('ticket_id', '=', ticketId).execute();
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

/** The newest message of each ticket, and the staff who wrote in it. */
export async function activityOf(db: Db, ticketIds: string[]) {
  if (ticketIds.length === 0) return { last: new Map<string, MessageRow>(), attendees: new Map<string, string[]>() };
  const [latest, staff] = await Promise.all([
    db
      .selectFrom('ticket_messages as m')
      .selectAll('m')
      .where('m.ticket_id', 'in', ticketIds)
      .where('m.deleted', '=', 0)
      .where('m.created_at', '=', (eb) =>
        eb.selectFrom('ticket_messages as n').select((e) => e.fn.max('n.created_at').as('c')).whereRef('n.ticket_id', '=', 'm.ticket_id').where('n.deleted', '=', 0),
      )
      .execute(),
    db
      .selectFrom('ticket_messages')
      .select(['ticket_id', 'author_id'])
      .distinct()
      .where('ticket_id', 'in', ticketIds)
      .where('message_type', '=', 'Staff')
      .execute(),
  ]);
  const last = new Map<string, MessageRow>();
  for (const row of latest) if (!last.has(row.ticket_id)) last.set(row.ticket_id, row);
  const attendees = new Map<string, string[]>();
  for (const row of staff) attendees.set(row.ticket_id, [...(attendees.get(row.ticket_id) ?? []), row.author_id]);
  return { last, attendees };
}

// --- Search documents -------------------------------------------------------------------------

export async function putSearchDoc(db: Db, doc: { ticket_id: string; server_id: string; kind: string; ref_id: string; body: string }): Promise<void> {
  await db.deleteFrom('ticket_search').where('ticket_id', '=', doc.ticket_id).where('kind', '=', doc.kind).where('ref_id', '=', doc.ref_id).execute();
  if (doc.body.trim() !== '') await db.insertInto('ticket_search').values(doc).execute();
}

export async function removeSearchDoc(db: Db, ticketId: string, kind: string, refId: string): Promise<void> {
  await db.deleteFrom('ticket_search').where('ticket_id', '=', ticketId).where('kind', '=', kind).where('ref_id', '=', refId).execute();
}

export async function matchingDocs(db: Db, engine: Engine, ticketIds: string[], terms: string[]) {
  if (ticketIds.length === 0) return [];
  return db
    .selectFrom('ticket_search')
    .select(['ticket_id', 'kind', 'ref_id', 'body'])
    .where('ticket_id', 'in', ticketIds)
    .where(matchPredicate(engine, terms))
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
  if (terms) {
    const scopeServer = 'serverId' in scope ? scope.serverId : undefined;
    query = query.where('tickets.id', 'in', (eb) => {
      let docs = eb.selectFrom('ticket_search').select('ticket_search.ticket_id').where(matchPredicate(engine, terms));
      if (scopeServer) docs = docs.where('ticket_search.server_id', '=', scopeServer);
      return docs;
    });
  }
  const offset = (filters.Page - 1) * filters.Amount;
  const [rows, total] = await Promise.all([
    query.selectAll('tickets').orderBy('tickets.last_activity_at', 'desc').orderBy('tickets.id', 'desc').offset(offset).limit(filters.Amount).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
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
