import type { InteractionResponse, Subject, Ticket, UpdateTicketRequest } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import { ComponentType, InteractionResponseType, TextInputStyle } from 'discord-api-types/v10';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { ConflictError, NotFoundError } from '../../http/errors';
import type { BotWords, Say } from '../../i18n/bot-words';
import type { PlatformClient } from '../../platform/discord';
import type { GuildAccess } from '../../platform/guild-access';
import * as deskRepo from './desk-repository';
import { isStaff, reply, withReason, type Actor, type PlatformNotices } from './platform-notices';
import * as repo from './repository';
import type { SupportService } from './service';
import { platformButton, row, spanMs, spanText, ticketCustomId } from './ticket-text';

const TICKET_ROLES = ['Member', 'TicketOwner', 'Staff', 'Bot'] as const;

/** Whether the actor holds at least the subject's least ticket role allowed to close. */
function mayClose(actor: Actor, subject: Subject, authorId: string): boolean {
  const role = isStaff(actor, subject) ? 'Staff' : actor.userId === authorId ? 'TicketOwner' : 'Member';
  return TICKET_ROLES.indexOf(role) >= TICKET_ROLES.indexOf(subject.limitations.neededCloseRole);
}

/**
 * How tickets end: the close button (with the reason the subject asks for), a close delayed by the
 * subject and its cancel and "close now" buttons, every close from the API or the automation, what
 * follows a close (the log, the author told, the channel removed), and a ticket's deletion.
 */
export class TicketClosing {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly support: SupportService,
    private readonly platform: PlatformClient,
    private readonly guilds: GuildAccess,
    private readonly words: BotWords,
    private readonly notices: PlatformNotices,
  ) {}

  /** The close button: the reason first when the subject asks for one. */
  async requestClose(actor: Actor, ticketId: string): Promise<InteractionResponse> {
    const found = await this.notices.ticketFor(actor, ticketId);
    if (!found) return this.notices.gone(actor.serverId);
    const { ticket, subject, say } = found;
    if (ticket.state === 'Closed') return reply(say('reply.alreadyClosed'));
    if (!mayClose(actor, subject, ticket.author_id)) return reply(say('reply.closeNotAllowed'));
    if (subject.automation.requireCloseReason) {
      return {
        type: InteractionResponseType.Modal,
        data: {
          custom_id: ticketCustomId('close-reason', ticketId),
          title: say('modal.closeTitle').slice(0, 45),
          components: [
            {
              type: ComponentType.ActionRow,
              components: [{ type: ComponentType.TextInput, custom_id: 'reason', label: say('modal.reasonLabel').slice(0, DISCORD_LIMITS.modalLabel), style: TextInputStyle.Paragraph, required: true, max_length: 1024 }],
            },
          ],
        },
      };
    }
    return this.closeOrSchedule(actor, ticketId, null);
  }

  /** A close asked for (with its reason when given): at once, or after the subject's close delay. */
  async closeOrSchedule(actor: Actor, ticketId: string, reason: string | null): Promise<InteractionResponse> {
    const found = await this.notices.ticketFor(actor, ticketId);
    if (!found) return this.notices.gone(actor.serverId);
    const { ticket, subject, say } = found;
    if (ticket.state === 'Closed') return reply(say('reply.alreadyClosed'));
    if (!mayClose(actor, subject, ticket.author_id)) return reply(say('reply.closeNotAllowed'));
    const delay = spanMs(subject.automation.closeDelay);
    if (delay <= 0) return this.close(actor.userId, actor.serverId, ticketId, reason, false, say);

    const runAt = new Date(Date.now() + delay).toISOString();
    const scheduled = await deskRepo.scheduleClose(this.db, { ticketId, serverId: actor.serverId, runAt, actorId: actor.userId, reason });
    if (!scheduled) return reply(say('reply.alreadyClosing'));
    const { cancelCloseButton, closeNowButton } = subject.buttons;
    if (ticket.channel_id) {
      await this.platform
        .postMessage(ticket.channel_id, {
          content: withReason(say('channel.closing', { wait: spanText(delay, say) }), reason, say),
          components: [
            row(
              platformButton(cancelCloseButton, ticketCustomId('cancel-close', ticketId), say('button.cancelClose')),
              platformButton(closeNowButton, ticketCustomId('close-now', ticketId), say('button.closeNow')),
            ),
          ],
        })
        .catch(() => undefined);
    }
    return reply(say('reply.closingIn', { wait: spanText(delay, say) }));
  }

  async cancelClose(actor: Actor, ticketId: string): Promise<InteractionResponse> {
    const found = await this.notices.ticketFor(actor, ticketId);
    if (!found) return this.notices.gone(actor.serverId);
    const { say } = found;
    if (!mayClose(actor, found.subject, found.ticket.author_id)) return reply(say('reply.cancelNotAllowed'));
    if (!(await deskRepo.unscheduleClose(this.db, ticketId))) return reply(say('reply.notClosing'));
    if (found.ticket.channel_id) await this.notices.tell(found.ticket.channel_id, say('channel.closeCancelled', { user: `<@${actor.userId}>` }), [], actor.serverId);
    return reply(say('reply.closeCancelled'));
  }

  /** "Close now" under a pending close: the waiting close happens at once. */
  async closeNow(actor: Actor, ticketId: string): Promise<InteractionResponse> {
    const found = await this.notices.ticketFor(actor, ticketId);
    if (!found) return this.notices.gone(actor.serverId);
    if (!mayClose(actor, found.subject, found.ticket.author_id)) return reply(found.say('reply.closeNotAllowed'));
    const job = await deskRepo.findScheduledClose(this.db, ticketId);
    return this.close(actor.userId, actor.serverId, ticketId, job?.reason ?? null, false, found.say);
  }

  /** A close from the platform (button, modal, delayed close, auto-close, close on leave), worded for whoever clicked. */
  async close(closedBy: string, serverId: string, ticketId: string, reason: string | null, force = false, say?: Say): Promise<InteractionResponse> {
    // Closes nobody clicked for (delayed, automatic) answer no one: their words are not looked up.
    const words = say ?? this.words.for(null);
    try {
      await this.updateTicket(serverId, ticketId, { closure: { closedBy, reason, force } });
    } catch (error) {
      if (error instanceof NotFoundError) return reply(words('reply.ticketGone'));
      if (error instanceof ConflictError) return reply(words('reply.alreadyClosed'));
      throw error;
    }
    return reply(withReason(words('reply.closed'), reason, words));
  }

  /**
   * Every change to a ticket, closes included: whatever asks to close (the API, a button, a
   * modal, a delayed close, auto-close, close on leave) comes here. The close and the removal of
   * the ticket's pending jobs are one transaction; what follows it runs once, for the close that
   * won. A move to another subject is logged there.
   */
  async updateTicket(serverId: string, ticketId: string, update: UpdateTicketRequest): Promise<Ticket> {
    if (update.authorId !== undefined) await this.guilds.assertMember(serverId, update.authorId, 'body.authorId');
    if (update.assigneeId) await this.guilds.assertMember(serverId, update.assigneeId, 'body.assigneeId');
    const before = await repo.findTicket(this.db, ticketId, serverId);
    const updated = await this.support.update(serverId, ticketId, update);
    if (!before) return updated;
    if (update.closure) {
      const after = (await repo.findTicket(this.db, ticketId, serverId)) ?? before;
      await this.afterClose(after, updated.subject.subjectId, update.closure.closedBy, update.closure.reason);
    }
    if (update.subjectId !== undefined && update.subjectId !== before.subject_id) {
      const subject = await this.notices.liveSubject(serverId, update.subjectId);
      if (subject) {
        const say = await this.notices.sayFor(serverId, subject);
        await this.notices.log(subject, 'subjectChanged', say('log.subjectChanged', { number: updated.number, name: updated.name, subject: subject.name }));
      }
    }
    return updated;
  }

  /**
   * What follows a close, once it is recorded: the close logged, the owner told when the subject
   * says so, and the channel removed (the ticket's messages stay in its history).
   */
  private async afterClose(ticket: repo.TicketRow, subjectId: string, closedBy: string, reason: string | null): Promise<void> {
    const subject = await this.notices.liveSubject(ticket.server_id, subjectId);
    if (subject) {
      const say = await this.notices.sayFor(ticket.server_id, subject);
      await this.notices.log(subject, 'closed', withReason(say('log.closed', { number: ticket.number, name: ticket.name, user: `<@${closedBy}>` }), reason, say));
      if (subject.automation.dmAuthorOnClose) await this.notices.tellAuthorOfClose(subject, ticket, reason, say);
    }
    if (ticket.channel_id) await this.platform.deleteChannel(ticket.channel_id, ticket.server_id).catch(() => undefined);
  }

  /** A ticket is deleted with its history; its channel goes too, and the deletion is logged. */
  async deleteTicket(serverId: string, ticketId: string): Promise<void> {
    const ticket = await repo.findTicket(this.db, ticketId, serverId);
    const subject = ticket ? await this.notices.liveSubject(serverId, ticket.subject_id) : null;
    await this.support.delete(serverId, ticketId);
    if (ticket?.channel_id) await this.platform.deleteChannel(ticket.channel_id, serverId).catch(() => undefined);
    if (ticket && subject) await this.notices.log(subject, 'deleted', (await this.notices.sayFor(serverId, subject))('log.deleted', { number: ticket.number, name: ticket.name }));
  }
}
