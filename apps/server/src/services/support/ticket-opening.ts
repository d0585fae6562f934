import type { CreateTicketRequest, InteractionResponse, Subject, Template, TemplateAnswer, Ticket } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import { type APIModalInteractionResponseCallbackData, ComponentType, InteractionResponseType, TextInputStyle } from 'discord-api-types/v10';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { DB } from '../../db/schema';
import type { Say } from '../../i18n/bot-words';
import { PlatformRefusal, type PlatformClient } from '../../platform/discord';
import type { GuildAccess } from '../../platform/guild-access';
import type { SettingsService } from '../settings';
import * as deskRepo from './desk-repository';
import { reply, type Actor, type PlatformNotices } from './platform-notices';
import * as repo from './repository';
import type { SupportService } from './service';
import { BOT_PERMISSIONS, formCustomId, hiddenFromEveryone, overwrite, spanMs, spanText, type TicketContext, ticketChannelName } from './ticket-text';

/** An id shaped like a platform id (a snowflake): a ticket id of this shape names its channel. */
const SNOWFLAKE = /^\d{17,20}$/;

/**
 * How tickets begin: a member opens one from a panel (with the subject's form and limits) and gets
 * a private channel, or the API records one, possibly on an existing channel. A ticket's people are
 * let into its channel here. Each answer to a click is the interaction response the platform shows
 * the person who clicked.
 */
export class TicketOpening {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: SettingsService,
    private readonly support: SupportService,
    private readonly platform: PlatformClient,
    private readonly guilds: GuildAccess,
    private readonly config: Config,
    private readonly notices: PlatformNotices,
  ) {}

  /** Why this member may not open a ticket in this subject now, in words for them; null if they may. */
  async refusal(actor: Actor, subject: Subject, say: Say): Promise<string | null> {
    const named = { subject: subject.name };
    if (!subject.active || subject.disableCreation) return say('refusal.creationDisabled', named);
    const { whitelist, maxActivePerUser, maxActiveTotal, cooldown } = subject.limitations;
    if (whitelist.ids.length > 0) {
      const listed = whitelist.ids.some((id) => id === actor.userId || actor.roles.includes(id));
      if (listed === whitelist.inverted) return say('refusal.notAllowed', named);
    }
    if (maxActiveTotal !== null) {
      const total = await deskRepo.countOpenTickets(this.db, subject.subjectId);
      if (total >= maxActiveTotal) return say('refusal.totalLimit', { ...named, max: maxActiveTotal });
    }
    if (maxActivePerUser !== null) {
      const mine = await deskRepo.countOpenTickets(this.db, subject.subjectId, actor.userId);
      if (mine >= maxActivePerUser) return say('refusal.userLimit', { ...named, max: maxActivePerUser });
    }
    const wait = spanMs(cooldown);
    if (wait > 0) {
      const last = await deskRepo.lastOpenedAt(this.db, subject.subjectId, actor.userId);
      const left = last ? Date.parse(last) + wait - Date.now() : 0;
      if (left > 0) return say('refusal.cooldown', { ...named, wait: spanText(left, say) });
    }
    return null;
  }

  /** A click on a panel's button or a choice in its menu. */
  async openFromPanel(actor: Actor, panelId: string, subjectId: string): Promise<InteractionResponse> {
    const panel = await deskRepo.findPanel(this.db, panelId);
    if (!panel || panel.server_id !== actor.serverId) return reply((await this.notices.sayFor(actor.serverId, null))('reply.panelGone'));
    const subject = await this.notices.liveSubject(actor.serverId, subjectId);
    if (!subject) return reply((await this.notices.sayFor(actor.serverId, null))('reply.subjectGone'));
    const say = await this.notices.sayFor(actor.serverId, subject);
    const refused = await this.refusal(actor, subject, say);
    if (refused) return reply(refused);
    if (subject.requireForm) {
      const questions = (await this.settings.listTemplates(actor.serverId, subjectId)).filter((q) => q.type === 'Text');
      if (questions.length > 0) return { type: InteractionResponseType.Modal, data: this.formModal(panelId, subject, questions) };
    }
    return this.open(actor, subject, [], say);
  }

  /** The subject's form as the platform's modal: its first five text questions. */
  private formModal(panelId: string, subject: Subject, questions: Template[]): APIModalInteractionResponseCallbackData {
    return {
      custom_id: formCustomId(panelId, subject.subjectId),
      title: subject.name.slice(0, 45),
      components: questions.slice(0, 5).map((question) => {
        const values = question.type === 'Text' ? question.values : null;
        return {
          type: ComponentType.ActionRow,
          components: [
            {
              type: ComponentType.TextInput,
              custom_id: question.questionId,
              label: question.question.slice(0, DISCORD_LIMITS.modalLabel),
              style: values?.large ? TextInputStyle.Paragraph : TextInputStyle.Short,
              required: true,
              ...(values?.minLength ? { min_length: values.minLength } : {}),
              ...(values?.maxLength ? { max_length: values.maxLength } : {}),
              ...(values?.placeholder ? { placeholder: values.placeholder } : {}),
            },
          ],
        };
      }),
    };
  }

  /** The form's modal sent back: the answers, then the ticket. */
  async openFromForm(actor: Actor, subjectId: string, fields: Map<string, string>): Promise<InteractionResponse> {
    const subject = await this.notices.liveSubject(actor.serverId, subjectId);
    if (!subject) return reply((await this.notices.sayFor(actor.serverId, null))('reply.subjectGone'));
    const say = await this.notices.sayFor(actor.serverId, subject);
    const refused = await this.refusal(actor, subject, say);
    if (refused) return reply(refused);
    const questions = await this.settings.listTemplates(actor.serverId, subjectId);
    const answers: TemplateAnswer[] = questions
      .filter((q) => fields.has(q.questionId))
      .map((q) => ({ questionId: q.questionId, question: q.question, answer: fields.get(q.questionId)!.slice(0, 4000) }));
    return this.open(actor, subject, answers, say);
  }

  /**
   * Opens the ticket: a private channel named by the subject's format in its waiting-for-staff
   * category, the ticket record (its id is the channel's), the welcome message with the subject's
   * buttons, and a reply with a link to it. A channel whose ticket could not be recorded is removed.
   */
  private async open(actor: Actor, subject: Subject, answers: TemplateAnswer[], say: Say): Promise<InteractionResponse> {
    const { serverId } = actor;
    const guild = await this.platform.getGuild(serverId).catch(() => null);
    const context: TicketContext = {
      userId: actor.userId,
      username: actor.username,
      ticketNumber: await repo.nextNumber(this.db, serverId),
      subjectName: subject.name,
      serverName: guild?.name ?? '',
    };
    const name = ticketChannelName(subject.ticketNameFormat.value, context);
    const { userPermissions, staffPermissions } = subject.permissions;
    // The bot that speaks on the server (its white-label bot, when one runs) writes in the channel;
    // the main bot keeps its access, to act there should the white-label bot stop.
    const bots = [...new Set([await this.platform.botUserId(serverId), this.config.platform.clientId])];
    let channel;
    try {
      channel = await this.platform.createGuildChannel(serverId, {
        name,
        type: 0,
        parent_id: subject.categories.waitingForStaff[0]?.id ?? null,
        topic: `${subject.name} · #${context.ticketNumber} · ${actor.username}`,
        permission_overwrites: [
          hiddenFromEveryone(serverId),
          overwrite(actor.userId, 'member', userPermissions.value, ['ViewChannel']),
          ...subject.staffRoles.value.map((roleId) => overwrite(roleId, 'role', staffPermissions.value, ['ViewChannel'])),
          ...bots.map((botId) => overwrite(botId, 'member', { allow: [], deny: [] }, BOT_PERMISSIONS)),
        ],
      });
    } catch (error) {
      if (error instanceof PlatformRefusal) return reply(say('reply.channelRefused', { error: error.message }));
      throw error;
    }
    try {
      await this.support.create(
        serverId,
        { ticketId: channel.id, ticketName: name, subjectId: subject.subjectId, authorId: actor.userId, templateAnswers: answers },
        channel.id,
      );
    } catch (error) {
      await this.platform.deleteChannel(channel.id, serverId).catch(() => undefined);
      throw error;
    }
    await this.notices.welcome(subject, { ...context, channelId: channel.id }, answers, say);
    await this.notices.log(subject, 'created', say('log.created', { number: context.ticketNumber, channel: `<#${channel.id}>`, user: `<@${actor.userId}>`, subject: subject.name }));
    return reply(say('reply.opened', { channel: `<#${channel.id}>` }), [this.notices.goToTicket(subject, serverId, channel.id, say)]);
  }

  /**
   * A ticket recorded through the API. Its author must be a member of the server, and an id that
   * names a channel makes that channel the ticket's only once it is known to be a text channel of
   * this server: the bot will later close, move and open that channel.
   */
  async createTicket(serverId: string, request: CreateTicketRequest): Promise<Ticket> {
    await this.guilds.assertMember(serverId, request.authorId, 'body.authorId');
    const channelId = request.ticketId && SNOWFLAKE.test(request.ticketId) ? request.ticketId : null;
    if (channelId) await this.guilds.assertTicketChannel(serverId, channelId, 'body.ticketId');
    const ticket = await this.support.create(serverId, request, channelId);
    // Its author is let into the channel with the subject's member permissions, as when the bot
    // opens the channel itself.
    const subject = channelId ? await this.notices.liveSubject(serverId, ticket.subject.subjectId) : null;
    if (channelId && subject) await this.letIntoChannel(serverId, channelId, request.authorId, subject);
    return ticket;
  }

  /** Someone is added to a ticket: recorded, let into its channel with the subject's user permissions, logged. */
  async addMember(serverId: string, ticketId: string, userId: string): Promise<void> {
    await this.guilds.assertMember(serverId, userId, 'body.userId');
    if (!(await this.support.addMember(serverId, ticketId, userId))) return;
    const ticket = await repo.findTicket(this.db, ticketId, serverId);
    const subject = ticket ? await this.notices.liveSubject(serverId, ticket.subject_id) : null;
    if (!ticket || !subject) return;
    const say = await this.notices.sayFor(serverId, subject);
    if (ticket.channel_id && ticket.state !== 'Closed') {
      await this.letIntoChannel(serverId, ticket.channel_id, userId, subject);
      // Mentioned, so the new member is pointed to the channel they can now see.
      await this.notices.tell(ticket.channel_id, say('channel.memberAdded', { user: `<@${userId}>` }), [userId], serverId);
    }
    await this.notices.log(subject, 'memberAdded', say('log.memberAdded', { user: `<@${userId}>`, number: ticket.number, name: ticket.name }));
  }

  /** Lets a member of a ticket into its channel with the subject's member permissions (best effort: the channel may be gone). */
  private async letIntoChannel(serverId: string, channelId: string, userId: string, subject: Subject): Promise<void> {
    const { id, ...member } = overwrite(userId, 'member', subject.permissions.userPermissions.value, ['ViewChannel']);
    await this.platform.putChannelPermission(channelId, id, member, serverId).catch(() => undefined);
  }
}
