import type { CreateTicketMessageRequest, InteractionResponse, Ticket, TicketChannels, TicketMessage } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { BadRequestError } from '../../http/errors';
import type { Caller } from '../../http/route';
import type { PlatformClient } from '../../platform/discord';
import * as deskRepo from './desk-repository';
import { isStaff, reply, type Actor, type PlatformNotices } from './platform-notices';
import * as repo from './repository';
import type { SupportService } from './service';
import type { TicketJobs } from './ticket-jobs';
import { overwrite } from './ticket-text';

/**
 * A ticket while it is open: staff claim it, people leave it, its channel's messages are recorded
 * (and move the channel between the waiting categories), staff read it with what its subject lets
 * each of its people do, and the bot runtime learns which channels to watch.
 */
export class TicketHandling {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly support: SupportService,
    private readonly platform: PlatformClient,
    private readonly notices: PlatformNotices,
    private readonly jobs: TicketJobs,
  ) {}

  async claim(actor: Actor, ticketId: string): Promise<InteractionResponse> {
    const found = await this.notices.ticketFor(actor, ticketId);
    if (!found) return this.notices.gone(actor.serverId);
    const { ticket, subject, say } = found;
    if (!isStaff(actor, subject)) return reply(say('reply.claimStaffOnly'));
    if (ticket.state === 'Closed') return reply(say('reply.ticketIsClosed'));
    if (ticket.assignee_id === actor.userId) return reply(say('reply.alreadyClaimedByYou'));
    if (ticket.assignee_id) return reply(say('reply.alreadyClaimed', { user: `<@${ticket.assignee_id}>` }));
    await this.support.update(actor.serverId, ticketId, { assigneeId: actor.userId });
    if (ticket.channel_id) {
      const { id, ...claimer } = overwrite(actor.userId, 'member', subject.permissions.claimPermissions.value, ['ViewChannel']);
      await this.platform.putChannelPermission(ticket.channel_id, id, claimer, actor.serverId).catch(() => undefined);
    }
    await this.notices.tell(ticketId, say('channel.claimed', { user: `<@${actor.userId}>` }), [], actor.serverId);
    await this.notices.log(subject, 'claimed', say('log.claimed', { number: ticket.number, name: ticket.name, user: `<@${actor.userId}>` }));
    return reply(say('reply.claimed'));
  }

  /**
   * A member is no longer in a ticket. For the ticket's owner this is the bot worker reporting that
   * they left the server: the owner stays the owner, and the ticket closes when the subject closes
   * on leave. Anyone else is simply removed.
   */
  async removeMember(serverId: string, ticketId: string, userId: string): Promise<void> {
    const ticket = await repo.findTicket(this.db, ticketId, serverId);
    if (!ticket || ticket.author_id !== userId) {
      await this.support.removeMember(serverId, ticketId, userId);
      const subject = ticket ? await this.notices.liveSubject(serverId, ticket.subject_id) : null;
      const say = await this.notices.sayFor(serverId, subject);
      if (ticket?.channel_id && ticket.state !== 'Closed') {
        await this.platform.deleteChannelPermission(ticket.channel_id, userId, serverId).catch(() => undefined);
        await this.notices.tell(ticket.channel_id, say('channel.memberRemoved', { user: `<@${userId}>` }), [], serverId);
      }
      if (ticket && subject) {
        await this.notices.log(subject, 'memberRemoved', say('log.memberRemoved', { user: `<@${userId}>`, number: ticket.number, name: ticket.name }));
      }
      return;
    }
    const left = (await this.platform.getMember(serverId, userId, true)) === null;
    if (!left) throw new BadRequestError('The author of a ticket cannot be removed from it', 'body.userId');
    if (ticket.state !== 'Closed') await this.jobs.ownerLeft(serverId, ticket);
  }

  /** A server's ticket for its staff, with what its subject lets each of its people do in its channel. */
  async getTicket(serverId: string, ticketId: string): Promise<Ticket> {
    const ticket = await this.support.get(serverId, ticketId);
    const subject = await this.notices.liveSubject(serverId, ticket.subject.subjectId);
    if (!subject) return ticket;
    const { userPermissions, claimPermissions, staffPermissions } = subject.permissions;
    const access = { userPermissions: userPermissions.value, claimPermissions: claimPermissions.value, staffPermissions: staffPermissions.value, staffRoles: subject.staffRoles.value };
    return { ...ticket, access };
  }

  /**
   * A message of the ticket's channel, as the bot worker reports it: a member holding one of the
   * subject's staff roles writes as staff. When the state changes and the subject moves tickets,
   * the channel goes to the category of its new state.
   */
  async recordMessage(caller: Caller | null, serverId: string, ticketId: string, request: CreateTicketMessageRequest): Promise<TicketMessage> {
    const before = await repo.findTicket(this.db, ticketId, serverId);
    const subject = before ? await this.notices.liveSubject(serverId, before.subject_id) : null;
    let messageType = request.messageType;
    const authorId = caller?.kind === 'user' ? caller.userId : request.authorId;
    if (messageType === 'User' && caller?.kind !== 'user' && authorId && subject && subject.staffRoles.value.length > 0) {
      const member = await this.platform.getMember(serverId, authorId).catch(() => null);
      if (member?.roles.some((roleId) => subject.staffRoles.value.includes(roleId))) messageType = 'Staff';
    }
    const message = await this.support.addMessage(caller, serverId, ticketId, { ...request, messageType });
    const after = await repo.findTicket(this.db, ticketId, serverId);
    if (after && subject && authorId) await this.notices.notifyOfReply(subject, after, messageType, authorId, request.message.content);
    if (before && after && subject && before.state !== after.state && subject.categories.moveTickets && after.channel_id) {
      const target = after.state === 'PendingUser' ? subject.categories.waitingForUser[0] : after.state === 'PendingStaff' ? subject.categories.waitingForStaff[0] : undefined;
      if (target) await this.platform.editChannel(after.channel_id, { parent_id: target.id }, serverId).catch(() => undefined);
    }
    return message;
  }

  /** The channels of the server's open tickets: all the bot runtime needs to watch. */
  async ticketChannels(serverId: string): Promise<TicketChannels> {
    const rows = await deskRepo.openTicketChannels(this.db, serverId);
    return { channels: rows.map((r) => ({ channelId: r.channel_id!, ticketId: r.id, subjectId: r.subject_id })) };
  }
}
