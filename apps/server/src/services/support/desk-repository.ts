import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { now } from '../../db/database';
import { claimRows, type RowClaim } from '../../db/engine-sql';
import type { DB, TicketJobsTable } from '../../db/schema';
import type { TicketRow } from './repository';

/*
 * The SQL of what the bot does with tickets on the platform (opening, closing, the automation
 * jobs) and of the gateway's event reports. The tickets' own records are in repository.ts.
 */

type Db = Kysely<DB> | Transaction<DB>;

export type TicketJobRow = TicketJobsTable;

/** A panel's server, to check a click names a panel of the server it came from. */
export async function findPanel(db: Db, panelId: string): Promise<{ id: string; server_id: string } | undefined> {
  return db.selectFrom('panels').select(['id', 'server_id']).where('id', '=', panelId).executeTakeFirst();
}

/** The subject's tickets that are not closed, or only this author's of them. */
export async function countOpenTickets(db: Db, subjectId: string, authorId?: string): Promise<number> {
  let query = db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('subject_id', '=', subjectId)
    .where('deleted', '=', 0)
    .where('state', '!=', 'Closed');
  if (authorId !== undefined) query = query.where('author_id', '=', authorId);
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

/** When the author last opened a ticket in the subject (deleted ones count too). */
export async function lastOpenedAt(db: Db, subjectId: string, authorId: string): Promise<string | undefined> {
  const last = await db
    .selectFrom('tickets')
    .select('created_at')
    .where('subject_id', '=', subjectId)
    .where('author_id', '=', authorId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return last?.created_at;
}

/** The author's tickets on the server that are not closed. */
export async function openTicketsOf(db: Db, serverId: string, authorId: string): Promise<TicketRow[]> {
  return db
    .selectFrom('tickets')
    .selectAll()
    .where('server_id', '=', serverId)
    .where('author_id', '=', authorId)
    .where('deleted', '=', 0)
    .where('state', '!=', 'Closed')
    .execute();
}

/** The ticket of this channel, unless it is closed. */
export async function openTicketOfChannel(db: Db, serverId: string, channelId: string): Promise<{ id: string; subject_id: string } | undefined> {
  return db
    .selectFrom('tickets')
    .select(['id', 'subject_id'])
    .where('server_id', '=', serverId)
    .where('channel_id', '=', channelId)
    .where('deleted', '=', 0)
    .where('state', '!=', 'Closed')
    .executeTakeFirst();
}

/** The server's tickets that are not closed and have a channel. */
export async function openTicketChannels(db: Db, serverId: string): Promise<{ id: string; channel_id: string | null; subject_id: string }[]> {
  return db
    .selectFrom('tickets')
    .select(['id', 'channel_id', 'subject_id'])
    .where('server_id', '=', serverId)
    .where('deleted', '=', 0)
    .where('state', '!=', 'Closed')
    .where('channel_id', 'is not', null)
    .execute();
}

/**
 * One batch of the tickets waiting for their user (PendingUser, AutoClose), oldest activity first,
 * after the last one of the previous batch (keyset) when given.
 */
export async function waitingTickets(db: Db, after: { at: string; id: string } | null, batch: number): Promise<TicketRow[]> {
  let query = db
    .selectFrom('tickets')
    .selectAll()
    // Written out as the index of waiting tickets (migration 0009) has them, so it serves.
    .where(sql<boolean>`deleted = 0 and state in ('PendingUser', 'AutoClose')`)
    .orderBy('last_activity_at')
    .orderBy('id')
    .limit(batch);
  if (after) {
    const { at: lastAt, id } = after;
    query = query.where((eb) => eb.or([eb('last_activity_at', '>', lastAt), eb.and([eb('last_activity_at', '=', lastAt), eb('id', '>', id)])]));
  }
  return query.execute();
}

// --- Delayed closes (ticket_jobs) ---------------------------------------------------------------

/** Schedules the ticket's close; false when one is already waiting. */
export async function scheduleClose(db: Db, job: { ticketId: string; serverId: string; runAt: string; actorId: string; reason: string | null }): Promise<boolean> {
  const scheduled = await db
    .insertInto('ticket_jobs')
    .values({ id: randomUUID(), ticket_id: job.ticketId, server_id: job.serverId, kind: 'close', run_at: job.runAt, actor_id: job.actorId, reason: job.reason, created_at: now() })
    .onConflict((oc) => oc.columns(['ticket_id', 'kind']).doNothing())
    .executeTakeFirst();
  return Number(scheduled.numInsertedOrUpdatedRows ?? 1n) !== 0;
}

/** Removes the ticket's waiting close; false when none was waiting. */
export async function unscheduleClose(db: Db, ticketId: string): Promise<boolean> {
  const removed = await db.deleteFrom('ticket_jobs').where('ticket_id', '=', ticketId).where('kind', '=', 'close').executeTakeFirst();
  return Number(removed.numDeletedRows) !== 0;
}

/** The ticket's waiting close, if any. */
export async function findScheduledClose(db: Db, ticketId: string): Promise<TicketJobRow | undefined> {
  return db.selectFrom('ticket_jobs').selectAll().where('ticket_id', '=', ticketId).where('kind', '=', 'close').executeTakeFirst();
}

/**
 * Claims up to `limit` jobs whose time has come by `at` and that no runner holds (or whose
 * runner's claim has passed: it died or hung), the earliest first, each for one runner only.
 */
export async function claimDueJobs(db: Kysely<DB>, at: string, claim: RowClaim, limit: number): Promise<TicketJobRow[]> {
  const free = sql<boolean>`run_at <= ${at} and (claimed_until is null or claimed_until <= ${at})`;
  return claimRows<TicketJobRow>(db, 'ticket_jobs', free, 'run_at', claim, limit);
}

/** The job ran: it goes, unless another runner has claimed it since (its own claim had passed). */
export async function finishJob(db: Db, jobId: string, token: string): Promise<void> {
  await db.deleteFrom('ticket_jobs').where('id', '=', jobId).where('claim_token', '=', token).execute();
}

// --- Gateway events (platform_events) -----------------------------------------------------------

export async function isEventRecorded(db: Db, eventId: string): Promise<boolean> {
  const seen = await db.selectFrom('platform_events').select('event_id').where('event_id', '=', eventId).executeTakeFirst();
  return seen !== undefined;
}

export async function recordEvent(db: Db, event: { eventId: string; serverId: string; type: string }): Promise<void> {
  await db
    .insertInto('platform_events')
    .values({ event_id: event.eventId, server_id: event.serverId, type: event.type, received_at: now() })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute();
}

/** Forgets events received before this time; how many. */
export async function pruneEvents(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('platform_events').where('received_at', '<', before.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
