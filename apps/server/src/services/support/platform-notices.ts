import type { InteractionResponse, Subject, TemplateAnswer, TicketMessage } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import { type APIInteractionGuildMember, InteractionResponseType, MessageFlags } from 'discord-api-types/v10';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { now } from '../../db/database';
import type { DB } from '../../db/schema';
import type { BotWords, Say } from '../../i18n/bot-words';
import type { PlatformClient } from '../../platform/discord';
import type { SettingsService } from '../settings';
import * as repo from './repository';
import { filledMessage, linkButton, platformButton, row, type TicketContext, ticketCustomId } from './ticket-text';

/** Who acted, as the platform's interaction tells it. */
export interface Actor {
  serverId: string;
  userId: string;
  username: string;
  roles: string[];
}

export const actorOf = (serverId: string, member: APIInteractionGuildMember): Actor => ({
  serverId,
  userId: member.user.id,
  username: member.user.global_name ?? member.user.username,
  roles: member.roles,
});

/** Whether the actor is staff of the ticket's subject. */
export const isStaff = (actor: Actor, subject: Subject): boolean => subject.staffRoles.value.some((roleId) => actor.roles.includes(roleId));

/** The private answer the person who clicked sees. */
export const reply = (content: string, components?: ReturnType<typeof row>[]): InteractionResponse => ({
  type: InteractionResponseType.ChannelMessageWithSource,
  data: { content, flags: MessageFlags.Ephemeral, ...(components ? { components } : {}) },
});

/** A line and, when one was given, the reason under it. */
export const withReason = (line: string, reason: string | null, say: Say) => (reason ? `${line}\n${say('reason.line', { reason })}` : line);

/** A stored message with nothing in it stands for the default one. */
const isEmptyMessage = (message: { content: string; embeds: unknown[] }) => !message.content.trim() && message.embeds.length === 0;

/** The ticket events a subject can log to its log channel (SPEC §3 logging). */
export type LoggedEvent = 'created' | 'claimed' | 'closed' | 'deleted' | 'memberAdded' | 'memberRemoved' | 'subjectChanged';

const LOG_COLORS: Record<LoggedEvent, number> = {
  created: 0x57f287,
  claimed: 0x5865f2,
  closed: 0xed4245,
  deleted: 0x992d22,
  memberAdded: 0x3ba55c,
  memberRemoved: 0xfaa61a,
  subjectChanged: 0xeb459e,
};

/**
 * What the bot writes on the platform about tickets, in the words of the ticket's subject (its
 * language, its messages, its log channel): channel notices, log entries, the welcome message and
 * the direct messages to a ticket's people. Sending is best effort: a channel or a person the bot
 * cannot reach does not undo what the notice is about.
 */
export class PlatformNotices {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: SettingsService,
    private readonly platform: PlatformClient,
    private readonly config: Config,
    private readonly words: BotWords,
  ) {}

  /** What the bot writes for a ticket: in its subject's language, else the server's, else English. */
  async sayFor(serverId: string, subject: Pick<Subject, 'language'> | null): Promise<Say> {
    return this.words.for(subject?.language, await this.settings.serverLanguage(serverId).catch(() => null));
  }

  /** The subject a ticket follows, as it acts now; null when it is deleted or gone. */
  async liveSubject(serverId: string, subjectId: string): Promise<Subject | null> {
    try {
      // As it acts: a plan that ended switches off its features' settings without losing them.
      const subject = await this.settings.getSubjectInEffect(serverId, subjectId);
      return subject.deleted ? null : subject;
    } catch {
      return null;
    }
  }

  /** The ticket a click is about, with its subject and the words to answer in; null when either is gone. */
  async ticketFor(actor: Actor, ticketId: string) {
    const ticket = await repo.findTicket(this.db, ticketId, actor.serverId);
    if (!ticket) return null;
    const subject = await this.liveSubject(actor.serverId, ticket.subject_id);
    return subject ? { ticket, subject, say: await this.sayFor(actor.serverId, subject) } : null;
  }

  /** The answer to a click on a ticket that is gone, in the server's language. */
  async gone(serverId: string): Promise<InteractionResponse> {
    return reply((await this.sayFor(serverId, null))('reply.ticketGone'));
  }

  /** The subject's "go to ticket" link to the ticket's channel, as a row of buttons. */
  goToTicket(subject: Subject, serverId: string, channelId: string, say: Say) {
    const url = `${this.config.platform.appUrl}/channels/${serverId}/${channelId}`;
    return row(linkButton(subject.buttons.goToTicket.text.trim() || say('button.goToTicket'), url));
  }

  /** A line in a ticket's channel that mentions only these users. */
  async tell(channelId: string, content: string, mentioned: string[], serverId?: string): Promise<void> {
    await this.platform.postMessage(channelId, { content, allowed_mentions: { users: mentioned } }, serverId).catch(() => undefined);
  }

  /** Posts an event to the subject's log channel when the subject logs that kind of event. */
  async log(subject: Subject, event: LoggedEvent, text: string): Promise<void> {
    const { channelId, rainbowColors } = subject.logging;
    if (!channelId || !subject.logging[event]) return;
    await this.platform
      .postMessage(channelId, { embeds: [{ description: text, color: rainbowColors ? LOG_COLORS[event] : 0x5865f2, timestamp: now() }], allowed_mentions: { parse: [] } }, subject.serverId)
      .catch(() => undefined);
  }

  /** The first message of a new ticket's channel: the subject's welcome, the form's answers and the ticket's buttons. */
  async welcome(subject: Subject, context: TicketContext & { channelId: string }, answers: TemplateAnswer[], say: Say): Promise<void> {
    const initial = subject.messages.initialMessage;
    // A welcome left empty is the default one, written at send time so it follows the language.
    const body = !initial.enabled
      ? { content: `<@${context.userId}>`, embeds: [] }
      : isEmptyMessage(initial.value.message)
        ? { content: `<@${context.userId}>`, embeds: [{ title: say('welcome.title', { subject: subject.name }).slice(0, 256), description: say('welcome.description'), color: 0x5865f2 }] }
        : filledMessage(initial.value.message, context);
    if (answers.length > 0) {
      body.embeds.push({ title: say('welcome.formAnswers'), fields: answers.map((a) => ({ name: a.question.slice(0, 256), value: a.answer.slice(0, 1024) || '—' })) });
    }
    if (!body.content.trim() && body.embeds.length === 0) body.content = `<@${context.userId}>`;
    const ticketId = context.channelId;
    const { closeButton, claimButton, linkButton: link } = subject.buttons;
    const buttons = [
      platformButton(closeButton, ticketCustomId('close', ticketId), say('button.close')),
      platformButton(claimButton, ticketCustomId('claim', ticketId), say('button.claim')),
    ];
    if (link.enabled && link.url && /^https?:\/\//i.test(link.url)) buttons.push(linkButton(link.text.trim() || say('button.link'), link.url));
    const message = { ...body, embeds: body.embeds.slice(0, DISCORD_LIMITS.embedsPerMessage), components: [row(...buttons)], allowed_mentions: { users: [context.userId] } };
    await this.platform.postMessage(context.channelId, message, subject.serverId).catch(() => undefined);
  }

  /** The subject's close message (or a plain notice), sent to the ticket's author directly. */
  async tellAuthorOfClose(subject: Subject, ticket: repo.TicketRow, reason: string | null, say: Say): Promise<void> {
    const guild = await this.platform.getGuild(ticket.server_id).catch(() => null);
    const context: TicketContext = {
      userId: ticket.author_id,
      username: ticket.author_id,
      ticketNumber: ticket.number,
      subjectName: subject.name,
      serverName: guild?.name ?? '',
    };
    const close = subject.messages.closeMessage;
    const notice = withReason(say('dm.closed', { number: ticket.number, name: ticket.name, server: guild?.name ?? ticket.server_id }), reason, say);
    // A close message left empty is the default one, written at send time so it follows the language.
    const body = !close.enabled
      ? { content: notice, embeds: [] }
      : isEmptyMessage(close.value.message)
        ? { content: notice, embeds: [{ title: say('closeMessage.title'), description: say('closeMessage.description'), color: 0x5865f2 }] }
        : filledMessage(close.value.message, context);
    // Which ticket, where and why head the message unless the subject's own text says it.
    if (!body.content.trim()) body.content = notice;
    await this.platform.sendDirectMessage(ticket.author_id, { ...body, allowed_mentions: { parse: [] } }, ticket.server_id).catch(() => undefined);
  }

  /**
   * The subject's notifications of replies, sent directly: staff replying tells the ticket's owner
   * (notifyUser), the owner replying tells the staff member who claimed it (notifyClaimer).
   */
  async notifyOfReply(subject: Subject, ticket: repo.TicketRow, type: TicketMessage['messageType'], authorId: string, content: string): Promise<void> {
    // Who a reply is for: the owner when staff replied, the claimer when the owner (or a member) did.
    const other = (toOwner: boolean, toClaimer: boolean) =>
      type === 'Staff' && toOwner && authorId !== ticket.author_id
        ? ticket.author_id
        : type === 'User' && toClaimer && ticket.assignee_id && authorId !== ticket.assignee_id
          ? ticket.assignee_id
          : null;
    const { mentionOwnerOnReply, mentionClaimeeOnReply } = subject.notifications;
    const mentioned = other(mentionOwnerOnReply, mentionClaimeeOnReply);
    if (mentioned && ticket.channel_id) await this.tell(ticket.channel_id, `<@${mentioned}>`, [mentioned], ticket.server_id);
    const recipient = other(subject.automation.notifyUser, subject.automation.notifyClaimer);
    if (!recipient) return;
    const excerpt = content.length > 300 ? `${content.slice(0, 300)}…` : content;
    const say = await this.sayFor(ticket.server_id, subject);
    const link = ticket.channel_id ? [this.goToTicket(subject, ticket.server_id, ticket.channel_id, say)] : [];
    await this.platform
      .sendDirectMessage(recipient, {
        content: `${say('dm.newReply', { number: ticket.number, name: ticket.name, user: `<@${authorId}>` })}\n> ${excerpt.replaceAll('\n', '\n> ')}`,
        components: link,
        allowed_mentions: { parse: [] },
      })
      .catch(() => undefined);
  }
}
