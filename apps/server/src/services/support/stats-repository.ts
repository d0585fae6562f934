import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, TicketsTable } from '../../db/schema';
import { reusableQuery } from '../../db/reusable-query';

/**
 * The counters statistics read instead of counting tickets and messages: the installation's
 * totals (migration 0021) and each server's totals and daily counts (migration 0023). Every
 * `count…` function runs in the transaction of the write it counts, so a counter never drifts
 * from what was written.
 */
type Db = Kysely<DB> | Transaction<DB>;

/** A UTC day, YYYY-MM-DD, of an ISO timestamp. */
const dayOf = (at: string) => at.slice(0, 10);

// --- Writes -----------------------------------------------------------------------------------

type InstallationCounter = 'tickets' | 'messages' | 'open_tickets';

async function bumpInstallation(db: Db, deltas: Partial<Record<InstallationCounter, number>>): Promise<void> {
  for (const [name, delta] of Object.entries(deltas)) {
    if (!delta) continue;
    await db
      .insertInto('counters')
      .values({ name, value: delta })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql`counters.value + ${delta}` }))
      .execute();
  }
}

type Deltas<K extends string> = Partial<Record<K, number>>;

/** The update part of an upsert that adds each delta to its column of `table`. */
function added<K extends string>(table: string, deltas: Deltas<K>) {
  return Object.fromEntries(Object.entries(deltas).map(([column, delta]) => [column, sql`${sql.ref(`${table}.${column}`)} + ${delta}`]));
}

async function bumpTotals(db: Db, serverId: string, deltas: Deltas<'tickets' | 'open_tickets' | 'messages'>): Promise<void> {
  await db
    .insertInto('server_totals')
    .values({ server_id: serverId, tickets: 0, open_tickets: 0, messages: 0, ...deltas })
    .onConflict((oc) => oc.column('server_id').doUpdateSet(added('server_totals', deltas)))
    .execute();
}

async function bumpDaily(db: Db, serverId: string, day: string, deltas: Deltas<'tickets' | 'messages' | 'responses' | 'response_ms'>): Promise<void> {
  await db
    .insertInto('server_daily_stats')
    .values({ server_id: serverId, day, tickets: 0, messages: 0, responses: 0, response_ms: 0, ...deltas })
    .onConflict((oc) => oc.columns(['server_id', 'day']).doUpdateSet(added('server_daily_stats', deltas)))
    .execute();
}

async function bumpSubject(db: Db, serverId: string, subjectId: string, day: string, delta: number): Promise<void> {
  await db
    .insertInto('server_subject_daily')
    .values({ server_id: serverId, subject_id: subjectId, day, tickets: delta })
    .onConflict((oc) => oc.columns(['server_id', 'subject_id', 'day']).doUpdateSet(added('server_subject_daily', { tickets: delta })))
    .execute();
}

async function bumpSupporter(db: Db, serverId: string, authorId: string, day: string, delta: number): Promise<void> {
  await db
    .insertInto('server_supporter_daily')
    .values({ server_id: serverId, author_id: authorId, day, tickets: delta })
    .onConflict((oc) => oc.columns(['server_id', 'author_id', 'day']).doUpdateSet(added('server_supporter_daily', { tickets: delta })))
    .execute();
}

type CountedTicket = Pick<TicketsTable, 'id' | 'server_id' | 'subject_id' | 'created_at' | 'state' | 'answered_at'>;

const responseMs = (ticket: Pick<TicketsTable, 'created_at'>, answeredAt: string) => Math.max(0, Date.parse(answeredAt) - Date.parse(ticket.created_at));

export async function countTicketOpened(db: Db, ticket: CountedTicket): Promise<void> {
  await bumpInstallation(db, { tickets: 1, open_tickets: 1 });
  await bumpTotals(db, ticket.server_id, { tickets: 1, open_tickets: 1 });
  await bumpDaily(db, ticket.server_id, dayOf(ticket.created_at), { tickets: 1 });
  await bumpSubject(db, ticket.server_id, ticket.subject_id, dayOf(ticket.created_at), 1);
}

/** A ticket closed (delta -1) or reopened (+1). */
export async function countOpenChange(db: Db, serverId: string, delta: 1 | -1): Promise<void> {
  await bumpInstallation(db, { open_tickets: delta });
  await bumpTotals(db, serverId, { open_tickets: delta });
}

/** A ticket counted for the day it opened under one subject now counts under another. */
export async function countSubjectChange(db: Db, ticket: CountedTicket, subjectId: string): Promise<void> {
  if (subjectId === ticket.subject_id) return;
  await bumpSubject(db, ticket.server_id, ticket.subject_id, dayOf(ticket.created_at), -1);
  await bumpSubject(db, ticket.server_id, subjectId, dayOf(ticket.created_at), 1);
}

/**
 * A message written in a ticket, called before the message is stored. A staff message may be
 * the ticket's first answer (its time since the opening counts for the day the ticket opened),
 * and its author's first answer in this ticket (the ticket counts for them that day).
 */
export async function countMessage(db: Db, ticket: CountedTicket, message: { author_id: string; message_type: string; created_at: string }): Promise<void> {
  const day = dayOf(message.created_at);
  await bumpInstallation(db, { messages: 1 });
  await bumpTotals(db, ticket.server_id, { messages: 1 });
  await bumpDaily(db, ticket.server_id, day, { messages: 1 });
  if (message.message_type !== 'Staff') return;
  // Only one message can be the first answer, even when two arrive at once.
  const answered = await db.updateTable('tickets').set({ answered_at: message.created_at }).where('id', '=', ticket.id).where('answered_at', 'is', null).executeTakeFirst();
  if (Number(answered.numUpdatedRows) > 0) {
    await bumpDaily(db, ticket.server_id, dayOf(ticket.created_at), { responses: 1, response_ms: responseMs(ticket, message.created_at) });
  }
  const before = await db
    .selectFrom('ticket_messages')
    .select('id')
    .where('ticket_id', '=', ticket.id)
    .where('author_id', '=', message.author_id)
    .where('message_type', '=', 'Staff')
    .limit(1)
    .executeTakeFirst();
  if (!before) await bumpSupporter(db, ticket.server_id, message.author_id, day, 1);
}

/** Takes back everything the ticket and its messages counted; called before the ticket is deleted. */
export async function countTicketDeleted(db: Db, ticket: CountedTicket): Promise<void> {
  const created = dayOf(ticket.created_at);
  const open = ticket.state === 'Closed' ? 0 : 1;
  const messagesByDay = await db
    .selectFrom('ticket_messages')
    .select([sql<string>`substr(created_at, 1, 10)`.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('ticket_id', '=', ticket.id)
    .groupBy(sql`substr(created_at, 1, 10)`)
    .execute();
  const firstAnswers = await db
    .selectFrom('ticket_messages')
    .select(['author_id', (eb) => eb.fn.min<string>('created_at').as('first')])
    .where('ticket_id', '=', ticket.id)
    .where('message_type', '=', 'Staff')
    .groupBy('author_id')
    .execute();
  const messages = messagesByDay.reduce((sum, r) => sum + Number(r.n), 0);
  await bumpInstallation(db, { open_tickets: -open });
  await bumpTotals(db, ticket.server_id, { tickets: -1, open_tickets: -open, messages: -messages });
  await bumpDaily(db, ticket.server_id, created, ticket.answered_at ? { tickets: -1, responses: -1, response_ms: -responseMs(ticket, ticket.answered_at) } : { tickets: -1 });
  await bumpSubject(db, ticket.server_id, ticket.subject_id, created, -1);
  for (const { day, n } of messagesByDay) await bumpDaily(db, ticket.server_id, day, { messages: -Number(n) });
  for (const { author_id, first } of firstAnswers) await bumpSupporter(db, ticket.server_id, author_id, dayOf(first), -1);
}

// --- Reads ------------------------------------------------------------------------------------

export async function readInstallationCounters(db: Db): Promise<Record<InstallationCounter, number>> {
  const rows = await db.selectFrom('counters').select(['name', 'value']).execute();
  const value = (name: InstallationCounter) => Math.max(0, Number(rows.find((r) => r.name === name)?.value ?? 0));
  return { tickets: value('tickets'), messages: value('messages'), open_tickets: value('open_tickets') };
}

/** A server's counters, read by every list and statistics call (compiled once). */
const serverTotals = reusableQuery((db, v: { serverId: string }) => db.selectFrom('server_totals').select(['tickets', 'open_tickets', 'messages']).where('server_id', '=', v.serverId));

export async function readServerTotals(db: Db, serverId: string): Promise<{ tickets: number; openTickets: number; messages: number }> {
  const [row] = await serverTotals(db, { serverId });
  return { tickets: Number(row?.tickets ?? 0), openTickets: Number(row?.open_tickets ?? 0), messages: Number(row?.messages ?? 0) };
}

/** The server's daily counts from `start` to `end` (UTC days, inclusive); days without any are absent. */
const dailyCounts = reusableQuery((db, v: { serverId: string; start: string; end: string }) =>
  db
    .selectFrom('server_daily_stats')
    .select(['day', 'tickets', 'messages', 'responses', 'response_ms'])
    .where('server_id', '=', v.serverId)
    .where('day', '>=', v.start)
    .where('day', '<=', v.end),
);

export async function readDaily(db: Db, serverId: string, start: string, end: string) {
  const rows = await dailyCounts(db, { serverId, start, end });
  return rows.map((r) => ({ day: r.day, tickets: Number(r.tickets), messages: Number(r.messages), responses: Number(r.responses), responseMs: Number(r.response_ms) }));
}

/** The days a ranking covers: all of them, or from `start` to `end`. */
type RankValues = { serverId: string; start?: string; end?: string };

const subjectRanking = reusableQuery((db, v: RankValues) => {
  let query = db.selectFrom('server_subject_daily as d').innerJoin('subjects as s', 's.id', 'd.subject_id').where('d.server_id', '=', v.serverId);
  if (v.start !== undefined && v.end !== undefined) query = query.where('d.day', '>=', v.start).where('d.day', '<=', v.end);
  const amount = sql<number>`sum(d.tickets)`;
  return query.select(['s.id', 's.name', amount.as('amount')]).groupBy(['s.id', 's.name']).having(amount, '>', 0).orderBy('amount', 'desc').orderBy('s.name');
});

/** Subjects by the tickets opened under them (in the range, when given), most first, then by name. */
export async function rankSubjects(db: Db, serverId: string, range?: { start: string; end: string }) {
  const rows = await subjectRanking(db, { serverId, ...range });
  return rows.map((r) => ({ id: r.id, name: r.name, amount: Number(r.amount) }));
}

const supporterRanking = reusableQuery((db, v: RankValues) => {
  let query = db.selectFrom('server_supporter_daily').where('server_id', '=', v.serverId);
  if (v.start !== undefined && v.end !== undefined) query = query.where('day', '>=', v.start).where('day', '<=', v.end);
  const amount = sql<number>`sum(tickets)`;
  return query.select(['author_id', amount.as('amount')]).groupBy('author_id').having(amount, '>', 0).orderBy('amount', 'desc').orderBy('author_id');
});

/** Staff by the tickets they answered in (first answered in the range, when given), most first. */
export async function rankSupporters(db: Db, serverId: string, range?: { start: string; end: string }) {
  const rows = await supporterRanking(db, { serverId, ...range });
  return rows.map((r) => ({ authorId: r.author_id, amount: Number(r.amount) }));
}
