import type { Subject } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { DB } from '../../db/schema';
import * as deskRepo from './desk-repository';
import type { PlatformNotices } from './platform-notices';
import * as repo from './repository';
import type { TicketClosing } from './ticket-closing';
import { spanMs, spanText } from './ticket-text';

/**
 * What closes tickets without anyone clicking: delayed closes falling due, auto-close of tickets
 * left waiting for their user, the owner leaving the server, the channel deleted on the platform.
 * All of it is computed from what is stored, so work missed while no process ran is done by the
 * next run. The bot closes as the main bot unless someone is known to have caused the close.
 */
export class TicketJobs {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Config,
    private readonly notices: PlatformNotices,
    private readonly closing: TicketClosing,
  ) {}

  /** Runs the closes whose delay has passed, each once even if two processes look at the same time. */
  async runDueJobs(at: Date = new Date()): Promise<number> {
    const due = await deskRepo.dueJobs(this.db, at);
    let ran = 0;
    for (const job of due) {
      if (!(await deskRepo.takeJob(this.db, job.id))) continue;
      await this.closing.close(job.actor_id, job.server_id, job.ticket_id, job.reason);
      ran += 1;
    }
    return ran;
  }

  /**
   * Auto-close (SPEC §4): a ticket waiting for its user longer than the subject's warn time gets a
   * warning and the AutoClose state; longer than its close time, it closes. Computed from stored
   * activity, so a sweep missed while the process was down is made up by the next one.
   */
  async sweepAutoClose(at: Date = new Date(), batch = 500): Promise<number> {
    const subjects = new Map<string, Subject | null>();
    let changed = 0;
    // Oldest activity first, a batch at a time (keyset), handing the event loop back in between.
    let after: { at: string; id: string } | null = null;
    for (;;) {
      const waiting = await deskRepo.waitingTickets(this.db, after, batch);
      for (const ticket of waiting) {
        if (!subjects.has(ticket.subject_id)) subjects.set(ticket.subject_id, await this.notices.liveSubject(ticket.server_id, ticket.subject_id));
        if (await this.autoClose(ticket, subjects.get(ticket.subject_id) ?? null, at)) changed += 1;
      }
      if (waiting.length < batch) return changed;
      const last = waiting[waiting.length - 1]!;
      after = { at: last.last_activity_at, id: last.id };
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** One waiting ticket against its subject's auto-close setting; true when it changed. */
  private async autoClose(ticket: repo.TicketRow, subject: Subject | null, at: Date): Promise<boolean> {
    const auto = subject?.automation.autoCloseTime;
    if (!auto?.enabled) return false;
    const say = await this.notices.sayFor(ticket.server_id, subject);
    const idle = at.getTime() - Date.parse(ticket.last_activity_at);
    const closeAfter = spanMs(auto.value.closeTime);
    if (closeAfter > 0 && idle >= closeAfter) {
      await this.closing.close(this.config.platform.clientId, ticket.server_id, ticket.id, say('reason.autoClose'), true, say);
      return true;
    }
    if (ticket.state === 'PendingUser' && idle >= spanMs(auto.value.warnTime)) {
      // The state changes without counting as activity: the close time still runs from the last message.
      await repo.updateTicket(this.db, ticket.id, { state: 'AutoClose' });
      if (ticket.channel_id) {
        const left = Math.max(0, closeAfter - idle);
        await this.notices.tell(ticket.channel_id, say('channel.autoCloseWarning', { user: `<@${ticket.author_id}>`, wait: spanText(left, say) }), [ticket.author_id]);
      }
      return true;
    }
    return false;
  }

  /** The ticket's owner left the server: it closes when its subject closes on leave. */
  async ownerLeft(serverId: string, ticket: Pick<repo.TicketRow, 'id' | 'subject_id'>): Promise<void> {
    const subject = await this.notices.liveSubject(serverId, ticket.subject_id);
    if (!subject?.automation.closeOnLeave) return;
    const say = await this.notices.sayFor(serverId, subject);
    await this.closing.close(this.config.platform.clientId, serverId, ticket.id, say('reason.ownerLeft'), true, say);
  }

  /** The bot runtime saw a member leave the server: their open tickets close where the subject closes on leave. */
  async memberLeft(serverId: string, userId: string): Promise<void> {
    for (const ticket of await deskRepo.openTicketsOf(this.db, serverId, userId)) await this.ownerLeft(serverId, ticket);
  }

  /** The bot runtime saw a ticket's channel deleted on the platform: the ticket closes, as the one who deleted it. */
  async channelDeleted(serverId: string, channelId: string, deletedBy: string | null): Promise<void> {
    const ticket = await deskRepo.openTicketOfChannel(this.db, serverId, channelId);
    if (!ticket) return;
    const say = await this.notices.sayFor(serverId, await this.notices.liveSubject(serverId, ticket.subject_id));
    await this.closing.close(deletedBy ?? this.config.platform.clientId, serverId, ticket.id, say('reason.channelDeleted'), true, say);
  }
}
