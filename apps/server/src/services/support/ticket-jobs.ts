import { randomUUID } from 'node:crypto';
import type { Subject } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { withLease } from '../../db/leases';
import type { DB } from '../../db/schema';
import * as deskRepo from './desk-repository';
import type { PlatformNotices } from './platform-notices';
import * as repo from './repository';
import type { TicketClosing } from './ticket-closing';
import { spanMs, spanText } from './ticket-text';

/** How long a runner holds a delayed close it claimed: far more than a close takes. */
export const JOB_CLAIM_MS = 5 * 60_000;
const JOB_BATCH = 10;
export const AUTO_CLOSE_LEASE = 'tickets.auto-close';
/** How long the auto-close sweep holds its lease between batches. */
const SWEEP_LEASE_MS = 5 * 60_000;

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

  /**
   * Runs the closes whose delay has passed, each once however many processes run this: a job is
   * claimed for JOB_CLAIM_MS and removed once its close is done, so the job of a process that died
   * before finishing it runs again, elsewhere, once the claim has passed. A few at a time, so a
   * claim never waits long behind the closes before it.
   */
  async runDueJobs(at: Date = new Date()): Promise<number> {
    let ran = 0;
    let failed: unknown = null;
    for (;;) {
      const claim = { token: randomUUID(), until: new Date(at.getTime() + JOB_CLAIM_MS).toISOString() };
      const jobs = await deskRepo.claimDueJobs(this.db, at.toISOString(), claim, JOB_BATCH);
      for (const job of jobs) {
        try {
          await this.closing.close(job.actor_id, job.server_id, job.ticket_id, job.reason);
        } catch (error) {
          // Its claim stays: the job runs again once the claim has passed. The others go on.
          failed ??= error;
          continue;
        }
        await deskRepo.finishJob(this.db, job.id, claim.token);
        ran += 1;
      }
      if (jobs.length < JOB_BATCH) break;
    }
    if (failed) throw failed;
    return ran;
  }

  /**
   * Auto-close (SPEC §4): a ticket waiting for its user longer than the subject's warn time gets a
   * warning and the AutoClose state; longer than its close time, it closes. Computed from stored
   * activity, so a sweep missed while the process was down is made up by the next one. One process
   * sweeps at a time (the others answer 0): two would warn the same ticket twice.
   */
  async sweepAutoClose(at: Date = new Date(), batch = 500): Promise<number> {
    return (await withLease(this.db, AUTO_CLOSE_LEASE, SWEEP_LEASE_MS, (keep) => this.autoCloseAll(at, batch, keep))) ?? 0;
  }

  private async autoCloseAll(at: Date, batch: number, keep: () => Promise<void>): Promise<number> {
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
      await keep();
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
