import type { Kysely, Transaction } from 'kysely';
import { supportsRowLocks } from '../../db/database';
import type { DB, FilesTable } from '../../db/schema';

type Db = Kysely<DB> | Transaction<DB>;

export type FileRow = FilesTable;

export interface TicketRow {
  id: string;
  server_id: string;
  subject_id: string;
  author_id: string;
}

/** A live ticket of the server (deleted ones are gone for files too). */
export async function findTicket(db: Db, serverId: string, ticketId: string): Promise<TicketRow | undefined> {
  return db
    .selectFrom('tickets')
    .select(['id', 'server_id', 'subject_id', 'author_id'])
    .where('server_id', '=', serverId)
    .where('id', '=', ticketId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
}

export async function isTicketMember(db: Db, ticketId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('ticket_members').select('user_id').where('ticket_id', '=', ticketId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

/** Who is in each ticket: its author, and the users added to it (a ticket not found has nobody). */
export async function ticketPeople(db: Db, ticketIds: string[]): Promise<Map<string, { authorId: string | null; memberIds: string[] }>> {
  const people = new Map(ticketIds.map((id) => [id, { authorId: null as string | null, memberIds: [] as string[] }]));
  if (ticketIds.length === 0) return people;
  const [tickets, members] = await Promise.all([
    db.selectFrom('tickets').select(['id', 'author_id']).where('id', 'in', ticketIds).execute(),
    db.selectFrom('ticket_members').select(['ticket_id', 'user_id']).where('ticket_id', 'in', ticketIds).execute(),
  ]);
  for (const t of tickets) people.get(t.id)!.authorId = t.author_id;
  for (const m of members) people.get(m.ticket_id)!.memberIds.push(m.user_id);
  return people;
}

/** The server's plan; with `lock`, uploads to the server wait for each other until the transaction ends (PostgreSQL). */
export async function serverPlan(db: Db, serverId: string, lock = false): Promise<string> {
  let query = db.selectFrom('servers').select('plan').where('id', '=', serverId);
  if (lock && supportsRowLocks(db)) query = query.forUpdate();
  return (await query.executeTakeFirst())?.plan ?? 'free';
}

export async function findFile(db: Db, fileId: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', fileId).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function listTicketFiles(db: Db, serverId: string, ticketId: string): Promise<FileRow[]> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('server_id', '=', serverId)
    .where('ticket_id', '=', ticketId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findByAttachments(db: Db, serverId: string, attachmentIds: string[]): Promise<FileRow[]> {
  if (attachmentIds.length === 0) return [];
  return db
    .selectFrom('files')
    .selectAll()
    .where('server_id', '=', serverId)
    .where('attachment_id', 'in', attachmentIds)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

export async function spaceUsed(db: Db, serverId: string): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('used'))
    .where('server_id', '=', serverId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

export async function spaceUsedBySubject(db: Db, serverId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('files')
    .select((eb) => ['subject_id', eb.fn.sum<number>('size').as('used')])
    .where('server_id', '=', serverId)
    .where('deleted_at', 'is', null)
    .groupBy('subject_id')
    .execute();
  return new Map(rows.map((r) => [r.subject_id, Number(r.used)]));
}

/** Space per ticket, largest first. */
export async function pageSpaceByTicket(db: Db, serverId: string, offset: number, limit: number) {
  const base = db.selectFrom('files').where('server_id', '=', serverId).where('deleted_at', 'is', null);
  const [rows, total] = await Promise.all([
    base
      .select((eb) => ['ticket_id', eb.fn.sum<number>('size').as('used')])
      .groupBy('ticket_id')
      .orderBy('used', 'desc')
      .orderBy('ticket_id')
      .offset(offset)
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.count<number>('ticket_id').distinct().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ticketId: r.ticket_id, used: Number(r.used) })), total: Number(total.n) };
}

/** Live files of the server (or of one subject in it), oldest first: the order the DeleteOldest policies free space in. */
export async function oldestFiles(db: Db, serverId: string, subjectId: string | null, limit: number) {
  let query = db.selectFrom('files').select(['id', 'size']).where('server_id', '=', serverId).where('deleted_at', 'is', null);
  if (subjectId !== null) query = query.where('subject_id', '=', subjectId);
  return query.orderBy('created_at').orderBy('id').limit(limit).execute();
}

export async function insertFile(db: Db, row: FileRow): Promise<void> {
  await db.insertInto('files').values(row).execute();
}

/** Takes files away from every reader; their bytes and rows are removed by `purge` afterwards. */
export async function markDeleted(db: Db, fileIds: string[], at: string): Promise<void> {
  if (fileIds.length === 0) return;
  await db.updateTable('files').set({ deleted_at: at }).where('id', 'in', fileIds).where('deleted_at', 'is', null).execute();
}

export async function markTicketDeleted(db: Db, serverId: string, ticketId: string, at: string): Promise<void> {
  await db.updateTable('files').set({ deleted_at: at }).where('server_id', '=', serverId).where('ticket_id', '=', ticketId).where('deleted_at', 'is', null).execute();
}

/** Files of the subject uploaded before the cutoff, taken away from every reader. */
export async function markExpired(db: Db, serverId: string, subjectId: string, cutoff: string, at: string): Promise<number> {
  const result = await db
    .updateTable('files')
    .set({ deleted_at: at })
    .where('server_id', '=', serverId)
    .where('subject_id', '=', subjectId)
    .where('created_at', '<', cutoff)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Live files whose ticket is gone or marked deleted. */
export async function markOrphaned(db: Db, at: string): Promise<number> {
  const result = await db
    .updateTable('files')
    .set({ deleted_at: at })
    .where('deleted_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('tickets')
            .select('tickets.id')
            .whereRef('tickets.id', '=', 'files.ticket_id')
            .whereRef('tickets.server_id', '=', 'files.server_id')
            .where('tickets.deleted', '=', 0),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function pendingDeletions(db: Db, fileIds: string[] | null, limit: number) {
  let query = db.selectFrom('files').select(['id', 'storage_key']).where('deleted_at', 'is not', null);
  if (fileIds !== null) {
    if (fileIds.length === 0) return [];
    query = query.where('id', 'in', fileIds);
  }
  return query.orderBy('deleted_at').limit(limit).execute();
}

export async function removeRows(db: Db, fileIds: string[]): Promise<void> {
  if (fileIds.length === 0) return;
  await db.deleteFrom('files').where('id', 'in', fileIds).where('deleted_at', 'is not', null).execute();
}

/** Subjects that hold live files, with the server they belong to. */
export async function subjectsWithFiles(db: Db) {
  return db.selectFrom('files').select(['server_id', 'subject_id']).where('deleted_at', 'is', null).groupBy(['server_id', 'subject_id']).execute();
}
