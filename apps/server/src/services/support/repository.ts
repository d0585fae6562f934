import { type Kysely, type Transaction } from 'kysely';
import { fromJson, now, toJson, type Engine } from '../../db/database';
import type { DB, TicketMessagesTable, TicketsTable } from '../../db/schema';
import { reusableQuery } from '../../db/reusable-query';
import { removeTicketDocs } from './search-repository';

/** A connection or a transaction: what every repository of the support service reads and writes with. */
export type Db = Kysely<DB> | Transaction<DB>;

export type TicketRow = TicketsTable;
export type MessageRow = TicketMessagesTable;

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
    .columns(['ticket_id', 'user_id', 'added_at', 'last_activity_at', 'server_id', 'search_key'])
    .expression((eb) =>
      eb
        .selectFrom('tickets')
        .select((e) => [e.val(ticketId).as('ticket_id'), e.val(userId).as('user_id'), e.val(now()).as('added_at'), 'last_activity_at', 'server_id', 'search_key'])
        .where('id', '=', ticketId),
    )
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
