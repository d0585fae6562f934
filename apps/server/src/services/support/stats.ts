import { PUBLIC_STATS_DAYS, type DailyCount, type PagedResult, type PublicServerStats, type PublicStats, type TopSimple, type TopSubject, type TopSupporter } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { NotFoundError } from '../../http/errors';
import type { PlatformClient } from '../../platform/discord';
import { countActiveServers, publicStatsServer } from './repository';
import { rankSubjects, rankSupporters, readDaily, readInstallationCounters, readServerTotals } from './stats-repository';
import { publicUser } from './ticket-shapes';

/** Every day of the range, with 0 where nothing happened, so charts have no gaps. */
function fill(start: string, end: string, counts: Map<string, number>): DailyCount[] {
  const days: DailyCount[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`); t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.push({ date, count: counts.get(date) ?? 0 });
  }
  return days;
}

/** Statistics of one server's tickets; dates are UTC days. */
export class TicketStats {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly platform: PlatformClient,
  ) {}

  async dailyTickets(serverId: string, start: string, end: string): Promise<DailyCount[]> {
    const days = await readDaily(this.db, serverId, start, end);
    return fill(start, end, new Map(days.map((d) => [d.day, d.tickets])));
  }

  async dailyMessages(serverId: string, start: string, end: string): Promise<DailyCount[]> {
    const days = await readDaily(this.db, serverId, start, end);
    return fill(start, end, new Map(days.map((d) => [d.day, d.messages])));
  }

  /** Mean seconds from a ticket's opening to the first staff answer, by the day it opened. */
  async dailyResponseTime(serverId: string, start: string, end: string): Promise<DailyCount[]> {
    const days = await readDaily(this.db, serverId, start, end);
    return fill(start, end, new Map(days.filter((d) => d.responses > 0).map((d) => [d.day, Math.round(d.responseMs / d.responses / 1000)])));
  }

  async simple(serverId: string): Promise<TopSimple> {
    const totals = await readServerTotals(this.db, serverId);
    return { activeTickets: Math.max(0, totals.openTickets), totalTickets: Math.max(0, totals.tickets), totalMessages: Math.max(0, totals.messages) };
  }

  async topSubjects(serverId: string, page: number, amount: number, start?: string, end?: string): Promise<PagedResult<TopSubject>> {
    const rows = await rankSubjects(this.db, serverId, start && end ? { start, end } : undefined);
    const elements = rows.slice((page - 1) * amount, page * amount).map((r) => ({ subjectId: r.id, serverId, name: r.name, amount: r.amount }));
    return { page, maxPage: Math.max(1, Math.ceil(rows.length / amount)), elements };
  }

  /** Totals across every server, from the counters the ticket and message writes keep. */
  async installation(): Promise<PublicStats> {
    const [counters, servers] = await Promise.all([readInstallationCounters(this.db), countActiveServers(this.db)]);
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

  /** Staff ranked by the tickets they answered in (in the range: the tickets they first answered in it). */
  async topSupporters(serverId: string, page: number, amount: number, start?: string, end?: string): Promise<PagedResult<TopSupporter>> {
    const rows = await rankSupporters(this.db, serverId, start && end ? { start, end } : undefined);
    const slice = rows.slice((page - 1) * amount, page * amount);
    const elements = await Promise.all(slice.map(async (r) => Object.assign(await publicUser(this.platform, r.authorId), { amount: r.amount })));
    return { page, maxPage: Math.max(1, Math.ceil(rows.length / amount)), elements };
  }
}
