import { PUBLIC_STATS_DAYS, type DailyCount, type PagedResult, type PublicServerStats, type PublicStats, type TopSimple, type TopSubject, type TopSupporter } from '@ticket/contracts';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { NotFoundError } from '../../http/errors';
import type { PlatformClient } from '../../platform/discord';
import { countActiveServers, publicStatsServer, readCounters } from './repository';

const day = sql<string>`substr(created_at, 1, 10)`;

/** Every day of the range, with 0 where nothing happened, so charts have no gaps. */
function fill(start: string, end: string, counts: Map<string, number>): DailyCount[] {
  const days: DailyCount[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`); t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.push({ date, count: counts.get(date) ?? 0 });
  }
  return days;
}

const endOf = (date: string) => `${date}T23:59:59.999Z`;

/** Statistics of one server's tickets; dates are UTC days. */
export class TicketStats {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly platform: PlatformClient,
  ) {}

  async dailyTickets(serverId: string, start: string, end: string): Promise<DailyCount[]> {
    const rows = await this.db
      .selectFrom('tickets')
      .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('server_id', '=', serverId)
      .where('deleted', '=', 0)
      .where('created_at', '>=', start)
      .where('created_at', '<=', endOf(end))
      .groupBy(day)
      .execute();
    return fill(start, end, new Map(rows.map((r) => [r.day, Number(r.n)])));
  }

  async dailyMessages(serverId: string, start: string, end: string): Promise<DailyCount[]> {
    const rows = await this.db
      .selectFrom('ticket_messages')
      .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('server_id', '=', serverId)
      .where('created_at', '>=', start)
      .where('created_at', '<=', endOf(end))
      .groupBy(day)
      .execute();
    return fill(start, end, new Map(rows.map((r) => [r.day, Number(r.n)])));
  }

  /** Mean seconds from a ticket's opening to the first staff answer, by the day it opened. */
  async dailyResponseTime(serverId: string, start: string, end: string): Promise<DailyCount[]> {
    const tickets = await this.db
      .selectFrom('tickets as t')
      .select(['t.created_at as opened', (eb) => eb.selectFrom('ticket_messages as m').select((e) => e.fn.min('m.created_at').as('f')).whereRef('m.ticket_id', '=', 't.id').where('m.message_type', '=', 'Staff').as('first')])
      .where('t.server_id', '=', serverId)
      .where('t.deleted', '=', 0)
      .where('t.created_at', '>=', start)
      .where('t.created_at', '<=', endOf(end))
      .execute();
    const sums = new Map<string, { total: number; n: number }>();
    for (const t of tickets) {
      if (!t.first) continue;
      const date = t.opened.slice(0, 10);
      const entry = sums.get(date) ?? { total: 0, n: 0 };
      entry.total += (Date.parse(t.first as string) - Date.parse(t.opened)) / 1000;
      entry.n += 1;
      sums.set(date, entry);
    }
    return fill(start, end, new Map([...sums].map(([d, s]) => [d, Math.round(s.total / s.n)])));
  }

  async simple(serverId: string): Promise<TopSimple> {
    const [tickets, messages] = await Promise.all([
      this.db
        .selectFrom('tickets')
        .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>(eb.case().when('state', '!=', 'Closed').then(1).else(0).end()).as('active')])
        .where('server_id', '=', serverId)
        .where('deleted', '=', 0)
        .executeTakeFirstOrThrow(),
      this.db.selectFrom('ticket_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('server_id', '=', serverId).executeTakeFirstOrThrow(),
    ]);
    return { activeTickets: Number(tickets.active ?? 0), totalTickets: Number(tickets.total), totalMessages: Number(messages.n) };
  }

  async topSubjects(serverId: string, page: number, amount: number, start?: string, end?: string): Promise<PagedResult<TopSubject>> {
    let query = this.db.selectFrom('tickets').innerJoin('subjects', 'subjects.id', 'tickets.subject_id').where('tickets.server_id', '=', serverId).where('tickets.deleted', '=', 0);
    if (start && end) query = query.where('tickets.created_at', '>=', start).where('tickets.created_at', '<=', endOf(end));
    const rows = await query
      .select(['subjects.id', 'subjects.name', (eb) => eb.fn.countAll<number>().as('amount')])
      .groupBy(['subjects.id', 'subjects.name'])
      .orderBy('amount', 'desc')
      .orderBy('subjects.name')
      .execute();
    const elements = rows.slice((page - 1) * amount, page * amount).map((r) => ({ subjectId: r.id, serverId, name: r.name, amount: Number(r.amount) }));
    return { page, maxPage: Math.max(1, Math.ceil(rows.length / amount)), elements };
  }

  /** Totals across every server, from the counters the ticket and message writes keep. */
  async installation(): Promise<PublicStats> {
    const [counters, servers] = await Promise.all([readCounters(this.db), countActiveServers(this.db)]);
    return { servers, tickets: counters.tickets, messages: counters.messages, openTickets: counters.open_tickets };
  }

  /** Whether anyone may see the server's statistics (its admins chose so). */
  async isPublic(serverId: string): Promise<boolean> {
    return (await publicStatsServer(this.db, serverId)) !== undefined;
  }

  /**
   * A server's statistics for anyone, when its admins made them public: nothing in it names a
   * member. A server that did not choose so answers exactly as one that does not exist.
   */
  async publicServer(serverId: string, today = new Date()): Promise<PublicServerStats> {
    const server = await publicStatsServer(this.db, serverId);
    if (!server) throw new NotFoundError(`No public statistics for server ${serverId}`);
    const end = today.toISOString().slice(0, 10);
    const start = new Date(Date.parse(`${end}T00:00:00Z`) - (PUBLIC_STATS_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    const [totals, ticketsPerDay, responseTimePerDay, subjects] = await Promise.all([
      this.simple(serverId),
      this.dailyTickets(serverId, start, end),
      this.dailyResponseTime(serverId, start, end),
      this.topSubjects(serverId, 1, 5, start, end),
    ]);
    return { serverId, name: server.name, totals, ticketsPerDay, responseTimePerDay, topSubjects: subjects.elements };
  }

  /** Staff ranked by the tickets they answered in. */
  async topSupporters(serverId: string, page: number, amount: number, start?: string, end?: string): Promise<PagedResult<TopSupporter>> {
    let query = this.db.selectFrom('ticket_messages').where('server_id', '=', serverId).where('message_type', '=', 'Staff');
    if (start && end) query = query.where('created_at', '>=', start).where('created_at', '<=', endOf(end));
    const rows = await query
      .select(['author_id', sql<number>`count(distinct ticket_id)`.as('amount')])
      .groupBy('author_id')
      .orderBy('amount', 'desc')
      .orderBy('author_id')
      .execute();
    const slice = rows.slice((page - 1) * amount, page * amount);
    const elements = await Promise.all(
      slice.map(async (r) => {
        const user = await this.platform.getUser(r.author_id).catch(() => null);
        return {
          id: r.author_id,
          name: user ? (user.global_name ?? user.username) : r.author_id,
          avatarUrl: user ? this.platform.avatarUrl(user.id, user.avatar) : null,
          color: null,
          amount: Number(r.amount),
        };
      }),
    );
    return { page, maxPage: Math.max(1, Math.ceil(rows.length / amount)), elements };
  }
}
