import { randomUUID } from 'node:crypto';
import type { CreateTicketMessageRequest, CreateTicketRequest, InteractionResponse, TicketChannels, Subject, Template, TemplateAnswer, Ticket, TicketMessage, UpdateTicketRequest } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import {
  type APIInteractionGuildMember,
  type APIModalInteractionResponseCallbackData,
  ComponentType,
  InteractionResponseType,
  MessageFlags,
  TextInputStyle,
} from 'discord-api-types/v10';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../../config';
import type { BotWords, Say } from '../../i18n/bot-words';
import { now } from '../../db/database';
import { BadRequestError, ConflictError, NotFoundError } from '../../http/errors';
import type { DB } from '../../db/schema';
import type { Caller } from '../../http/route';
import { PlatformRefusal, type PlatformClient } from '../../platform/discord';
import type { GuildAccess } from '../../platform/guild-access';
import type { SettingsService } from '../settings';
import * as repo from './repository';
import type { SupportService } from './service';
import {
  BOT_PERMISSIONS,
  filledMessage,
  formCustomId,
  hiddenFromEveryone,
  linkButton,
  overwrite,
  platformButton,
  row,
  spanMs,
  spanText,
  type TicketContext,
  ticketChannelName,
  ticketCustomId,
} from './ticket-text';

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

export const reply = (content: string, components?: ReturnType<typeof row>[]): InteractionResponse => ({
  type: InteractionResponseType.ChannelMessageWithSource,
  data: { content, flags: MessageFlags.Ephemeral, ...(components ? { components } : {}) },
});

/** A line and, when one was given, the reason under it. */
const withReason = (line: string, reason: string | null, say: Say) => (reason ? `${line}\n${say('reason.line', { reason })}` : line);

/** A stored message with nothing in it stands for the default one. */
const isEmptyMessage = (message: { content: string; embeds: unknown[] }) => !message.content.trim() && message.embeds.length === 0;

/** An id shaped like a platform id (a snowflake): a ticket id of this shape names its channel. */
const SNOWFLAKE = /^\d{17,20}$/;

const TICKET_ROLES = ['Member', 'TicketOwner', 'Staff', 'Bot'] as const;

/** The ticket events a subject can log to its log channel (SPEC §3 logging). */
type LoggedEvent = 'created' | 'claimed' | 'closed' | 'deleted' | 'memberAdded' | 'memberRemoved' | 'subjectChanged';

/**
 * What members and staff do with tickets on the chat platform: open one from a panel (with the
 * subject's form and limits), claim it, close it. Each answer is the interaction response the
 * platform shows the person who clicked.
 */
export class TicketDesk {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: SettingsService,
    private readonly support: SupportService,
    private readonly platform: PlatformClient,
    private readonly guilds: GuildAccess,
    private readonly config: Config,
    private readonly words: BotWords,
  ) {}

  /** What the bot writes for a ticket: in its subject's language, else the server's, else English. */
  async sayFor(serverId: string, subject: Pick<Subject, 'language'> | null): Promise<Say> {
    return this.words.for(subject?.language, await this.settings.serverLanguage(serverId).catch(() => null));
  }

  private channelUrl(serverId: string, channelId: string): string {
    return `${this.config.platform.appUrl}/channels/${serverId}/${channelId}`;
  }

  private async liveSubject(serverId: string, subjectId: string): Promise<Subject | null> {
    try {
      // As it acts: a plan that ended switches off its features' settings without losing them.
      const subject = await this.settings.getSubjectInEffect(serverId, subjectId);
      return subject.deleted ? null : subject;
    } catch {
      return null;
    }
  }

  /** Why this member may not open a ticket in this subject now, in words for them; null if they may. */
  async refusal(actor: Actor, subject: Subject, say: Say): Promise<string | null> {
    const named = { subject: subject.name };
    if (!subject.active || subject.disableCreation) return say('refusal.creationDisabled', named);
    const { whitelist, maxActivePerUser, maxActiveTotal, cooldown } = subject.limitations;
    if (whitelist.ids.length > 0) {
      const listed = whitelist.ids.some((id) => id === actor.userId || actor.roles.includes(id));
      if (listed === whitelist.inverted) return say('refusal.notAllowed', named);
    }
    const open = this.db
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('subject_id', '=', subject.subjectId)
      .where('deleted', '=', 0)
      .where('state', '!=', 'Closed');
    if (maxActiveTotal !== null) {
      const total = Number((await open.executeTakeFirst())?.n ?? 0);
      if (total >= maxActiveTotal) return say('refusal.totalLimit', { ...named, max: maxActiveTotal });
    }
    if (maxActivePerUser !== null) {
      const mine = Number((await open.where('author_id', '=', actor.userId).executeTakeFirst())?.n ?? 0);
      if (mine >= maxActivePerUser) return say('refusal.userLimit', { ...named, max: maxActivePerUser });
    }
    const wait = spanMs(cooldown);
    if (wait > 0) {
      const last = await this.db
        .selectFrom('tickets')
        .select('created_at')
        .where('subject_id', '=', subject.subjectId)
        .where('author_id', '=', actor.userId)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      const left = last ? Date.parse(last.created_at) + wait - Date.now() : 0;
      if (left > 0) return say('refusal.cooldown', { ...named, wait: spanText(left, say) });
    }
    return null;
  }

  /** A click on a panel's button or a choice in its menu. */
  async openFromPanel(actor: Actor, panelId: string, subjectId: string): Promise<InteractionResponse> {
    const panel = await this.db.selectFrom('panels').select(['id', 'server_id']).where('id', '=', panelId).executeTakeFirst();
    if (!panel || panel.server_id !== actor.serverId) return reply((await this.sayFor(actor.serverId, null))('reply.panelGone'));
    const subject = await this.liveSubject(actor.serverId, subjectId);
    if (!subject) return reply((await this.sayFor(actor.serverId, null))('reply.subjectGone'));
    const say = await this.sayFor(actor.serverId, subject);
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
    const subject = await this.liveSubject(actor.serverId, subjectId);
    if (!subject) return reply((await this.sayFor(actor.serverId, null))('reply.subjectGone'));
    const say = await this.sayFor(actor.serverId, subject);
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
    context.channelId = channel.id;
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
    await this.platform.postMessage(channel.id, this.welcome(subject, context, answers, say), serverId).catch(() => undefined);
    await this.log(subject, 'created', say('log.created', { number: context.ticketNumber, channel: `<#${channel.id}>`, user: `<@${actor.userId}>`, subject: subject.name }));
    const go = subject.buttons.goToTicket;
    return reply(say('reply.opened', { channel: `<#${channel.id}>` }), [row(linkButton(go.text.trim() || say('button.goToTicket'), this.channelUrl(serverId, channel.id)))]);
  }

  private welcome(subject: Subject, context: TicketContext, answers: TemplateAnswer[], say: Say) {
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
    const ticketId = context.channelId!;
    const { closeButton, claimButton, linkButton: link } = subject.buttons;
    const buttons = [
      platformButton(closeButton, ticketCustomId('close', ticketId), say('button.close')),
      platformButton(claimButton, ticketCustomId('claim', ticketId), say('button.claim')),
    ];
    if (link.enabled && link.url && /^https?:\/\//i.test(link.url)) buttons.push(linkButton(link.text.trim() || say('button.link'), link.url));
    return { ...body, embeds: body.embeds.slice(0, DISCORD_LIMITS.embedsPerMessage), components: [row(...buttons)], allowed_mentions: { users: [context.userId] } };
  }

  /** Whether the actor is staff of the ticket's subject. */
  private isStaff(actor: Actor, subject: Subject): boolean {
    return subject.staffRoles.value.some((roleId) => actor.roles.includes(roleId));
  }

  private async ticketFor(actor: Actor, ticketId: string) {
    const ticket = await repo.findTicket(this.db, ticketId, actor.serverId);
    if (!ticket) return null;
    const subject = await this.liveSubject(actor.serverId, ticket.subject_id);
    return subject ? { ticket, subject, say: await this.sayFor(actor.serverId, subject) } : null;
  }

  /** The answer to a click on a ticket that is gone, in the server's language. */
  private async gone(serverId: string): Promise<InteractionResponse> {
    return reply((await this.sayFor(serverId, null))('reply.ticketGone'));
  }

  async claim(actor: Actor, ticketId: string): Promise<InteractionResponse> {
    const found = await this.ticketFor(actor, ticketId);
    if (!found) return this.gone(actor.serverId);
    const { ticket, subject, say } = found;
    if (!this.isStaff(actor, subject)) return reply(say('reply.claimStaffOnly'));
    if (ticket.state === 'Closed') return reply(say('reply.ticketIsClosed'));
    if (ticket.assignee_id === actor.userId) return reply(say('reply.alreadyClaimedByYou'));
    if (ticket.assignee_id) return reply(say('reply.alreadyClaimed', { user: `<@${ticket.assignee_id}>` }));
    await this.support.update(actor.serverId, ticketId, { assigneeId: actor.userId });
    if (ticket.channel_id) {
      const { id, ...claimer } = overwrite(actor.userId, 'member', subject.permissions.claimPermissions.value, ['ViewChannel']);
      await this.platform.putChannelPermission(ticket.channel_id, id, claimer, actor.serverId).catch(() => undefined);
    }
    await this.platform.postMessage(ticketId, { content: say('channel.claimed', { user: `<@${actor.userId}>` }), allowed_mentions: { users: [] } }, actor.serverId).catch(() => undefined);
    await this.log(subject, 'claimed', say('log.claimed', { number: ticket.number, name: ticket.name, user: `<@${actor.userId}>` }));
    return reply(say('reply.claimed'));
  }

  /** Whether the actor holds at least the subject's least ticket role allowed to close. */
  private mayClose(actor: Actor, subject: Subject, authorId: string): boolean {
    const role = this.isStaff(actor, subject) ? 'Staff' : actor.userId === authorId ? 'TicketOwner' : 'Member';
    return TICKET_ROLES.indexOf(role) >= TICKET_ROLES.indexOf(subject.limitations.neededCloseRole);
  }

  /** The close button: the reason first when the subject asks for one. */
  async requestClose(actor: Actor, ticketId: string): Promise<InteractionResponse> {
    const found = await this.ticketFor(actor, ticketId);
    if (!found) return this.gone(actor.serverId);
    const { ticket, subject, say } = found;
    if (ticket.state === 'Closed') return reply(say('reply.alreadyClosed'));
    if (!this.mayClose(actor, subject, ticket.author_id)) return reply(say('reply.closeNotAllowed'));
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
    const found = await this.ticketFor(actor, ticketId);
    if (!found) return this.gone(actor.serverId);
    const { ticket, subject, say } = found;
    if (ticket.state === 'Closed') return reply(say('reply.alreadyClosed'));
    if (!this.mayClose(actor, subject, ticket.author_id)) return reply(say('reply.closeNotAllowed'));
    const delay = spanMs(subject.automation.closeDelay);
    if (delay <= 0) return this.close(actor.userId, actor.serverId, ticketId, reason, false, say);

    const runAt = new Date(Date.now() + delay).toISOString();
    const scheduled = await this.db
      .insertInto('ticket_jobs')
      .values({ id: randomUUID(), ticket_id: ticketId, server_id: actor.serverId, kind: 'close', run_at: runAt, actor_id: actor.userId, reason, created_at: now() })
      .onConflict((oc) => oc.columns(['ticket_id', 'kind']).doNothing())
      .executeTakeFirst();
    if (Number(scheduled.numInsertedOrUpdatedRows ?? 1n) === 0) return reply(say('reply.alreadyClosing'));
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
    const found = await this.ticketFor(actor, ticketId);
    if (!found) return this.gone(actor.serverId);
    const { say } = found;
    if (!this.mayClose(actor, found.subject, found.ticket.author_id)) return reply(say('reply.cancelNotAllowed'));
    const removed = await this.db.deleteFrom('ticket_jobs').where('ticket_id', '=', ticketId).where('kind', '=', 'close').executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return reply(say('reply.notClosing'));
    if (found.ticket.channel_id) {
      await this.platform
        .postMessage(found.ticket.channel_id, { content: say('channel.closeCancelled', { user: `<@${actor.userId}>` }), allowed_mentions: { users: [] } }, actor.serverId)
        .catch(() => undefined);
    }
    return reply(say('reply.closeCancelled'));
  }

  /** "Close now" under a pending close: the waiting close happens at once. */
  async closeNow(actor: Actor, ticketId: string): Promise<InteractionResponse> {
    const found = await this.ticketFor(actor, ticketId);
    if (!found) return this.gone(actor.serverId);
    if (!this.mayClose(actor, found.subject, found.ticket.author_id)) return reply(found.say('reply.closeNotAllowed'));
    const job = await this.db.selectFrom('ticket_jobs').selectAll().where('ticket_id', '=', ticketId).where('kind', '=', 'close').executeTakeFirst();
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
   * What follows a close, once it is recorded: the close logged, the owner told when the subject
   * says so, and the channel removed (the ticket's messages stay in its history).
   */
  private async afterClose(ticket: repo.TicketRow, subjectId: string, closedBy: string, reason: string | null): Promise<void> {
    const subject = await this.liveSubject(ticket.server_id, subjectId);
    if (subject) {
      const say = await this.sayFor(ticket.server_id, subject);
      await this.log(subject, 'closed', withReason(say('log.closed', { number: ticket.number, name: ticket.name, user: `<@${closedBy}>` }), reason, say));
      if (subject.automation.dmAuthorOnClose) await this.tellAuthorOfClose(subject, ticket, reason, say);
    }
    if (ticket.channel_id) await this.platform.deleteChannel(ticket.channel_id, ticket.server_id).catch(() => undefined);
  }

  /** The subject's close message (or a plain notice), sent to the ticket's author directly. */
  private async tellAuthorOfClose(subject: Subject, ticket: repo.TicketRow, reason: string | null, say: Say): Promise<void> {
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

  /** Runs the closes whose delay has passed, each once even if two processes look at the same time. */
  async runDueJobs(at: Date = new Date()): Promise<number> {
    const due = await this.db.selectFrom('ticket_jobs').selectAll().where('run_at', '<=', at.toISOString()).orderBy('run_at').limit(100).execute();
    let ran = 0;
    for (const job of due) {
      const taken = await this.db.deleteFrom('ticket_jobs').where('id', '=', job.id).executeTakeFirst();
      if (Number(taken.numDeletedRows) === 0) continue;
      await this.close(job.actor_id, job.server_id, job.ticket_id, job.reason);
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
      let query = this.db
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
      const waiting = await query.execute();
      for (const ticket of waiting) {
        if (!subjects.has(ticket.subject_id)) subjects.set(ticket.subject_id, await this.liveSubject(ticket.server_id, ticket.subject_id));
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
    const say = await this.sayFor(ticket.server_id, subject);
    const idle = at.getTime() - Date.parse(ticket.last_activity_at);
    const closeAfter = spanMs(auto.value.closeTime);
    if (closeAfter > 0 && idle >= closeAfter) {
      await this.close(this.config.platform.clientId, ticket.server_id, ticket.id, say('reason.autoClose'), true, say);
      return true;
    }
    if (ticket.state === 'PendingUser' && idle >= spanMs(auto.value.warnTime)) {
      // The state changes without counting as activity: the close time still runs from the last message.
      await repo.updateTicket(this.db, ticket.id, { state: 'AutoClose' });
      if (ticket.channel_id) {
        const left = Math.max(0, closeAfter - idle);
        await this.platform
          .postMessage(ticket.channel_id, {
            content: say('channel.autoCloseWarning', { user: `<@${ticket.author_id}>`, wait: spanText(left, say) }),
            allowed_mentions: { users: [ticket.author_id] },
          })
          .catch(() => undefined);
      }
      return true;
    }
    return false;
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
      const subject = ticket ? await this.liveSubject(serverId, ticket.subject_id) : null;
      const say = await this.sayFor(serverId, subject);
      if (ticket?.channel_id && ticket.state !== 'Closed') {
        await this.platform.deleteChannelPermission(ticket.channel_id, userId, serverId).catch(() => undefined);
        await this.platform
          .postMessage(ticket.channel_id, { content: say('channel.memberRemoved', { user: `<@${userId}>` }), allowed_mentions: { users: [] } }, serverId)
          .catch(() => undefined);
      }
      if (ticket && subject) {
        await this.log(subject, 'memberRemoved', say('log.memberRemoved', { user: `<@${userId}>`, number: ticket.number, name: ticket.name }));
      }
      return;
    }
    const left = (await this.platform.getMember(serverId, userId, true)) === null;
    if (!left) throw new BadRequestError('The author of a ticket cannot be removed from it', 'body.userId');
    const subject = await this.liveSubject(serverId, ticket.subject_id);
    if (ticket.state !== 'Closed' && subject?.automation.closeOnLeave) {
      const say = await this.sayFor(serverId, subject);
      await this.close(this.config.platform.clientId, serverId, ticketId, say('reason.ownerLeft'), true, say);
    }
  }

  /** The bot runtime saw a member leave the server: their open tickets close where the subject closes on leave. */
  async memberLeft(serverId: string, userId: string): Promise<void> {
    const open = await this.db
      .selectFrom('tickets')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('author_id', '=', userId)
      .where('deleted', '=', 0)
      .where('state', '!=', 'Closed')
      .execute();
    for (const ticket of open) {
      const subject = await this.liveSubject(serverId, ticket.subject_id);
      if (subject?.automation.closeOnLeave) {
        const say = await this.sayFor(serverId, subject);
        await this.close(this.config.platform.clientId, serverId, ticket.id, say('reason.ownerLeft'), true, say);
      }
    }
  }

  /** The bot runtime saw a ticket's channel deleted on the platform: the ticket closes, as the one who deleted it. */
  async channelDeleted(serverId: string, channelId: string, deletedBy: string | null): Promise<void> {
    const ticket = await this.db
      .selectFrom('tickets')
      .select(['id', 'subject_id'])
      .where('server_id', '=', serverId)
      .where('channel_id', '=', channelId)
      .where('deleted', '=', 0)
      .where('state', '!=', 'Closed')
      .executeTakeFirst();
    if (!ticket) return;
    const say = await this.sayFor(serverId, await this.liveSubject(serverId, ticket.subject_id));
    await this.close(deletedBy ?? this.config.platform.clientId, serverId, ticket.id, say('reason.channelDeleted'), true, say);
  }

  /** The channels of the server's open tickets: all the bot runtime needs to watch. */
  async ticketChannels(serverId: string): Promise<TicketChannels> {
    const rows = await this.db
      .selectFrom('tickets')
      .select(['id', 'channel_id', 'subject_id'])
      .where('server_id', '=', serverId)
      .where('deleted', '=', 0)
      .where('state', '!=', 'Closed')
      .where('channel_id', 'is not', null)
      .execute();
    return { channels: rows.map((r) => ({ channelId: r.channel_id!, ticketId: r.id, subjectId: r.subject_id })) };
  }

  /**
   * The subject's notifications of replies, sent directly: staff replying tells the ticket's owner
   * (notifyUser), the owner replying tells the staff member who claimed it (notifyClaimer).
   */
  private async notifyOfReply(subject: Subject, ticket: repo.TicketRow, type: TicketMessage['messageType'], authorId: string, content: string): Promise<void> {
    // Who a reply is for: the owner when staff replied, the claimer when the owner (or a member) did.
    const other = (toOwner: boolean, toClaimer: boolean) =>
      type === 'Staff' && toOwner && authorId !== ticket.author_id
        ? ticket.author_id
        : type === 'User' && toClaimer && ticket.assignee_id && authorId !== ticket.assignee_id
          ? ticket.assignee_id
          : null;
    const { mentionOwnerOnReply, mentionClaimeeOnReply } = subject.notifications;
    const mentioned = other(mentionOwnerOnReply, mentionClaimeeOnReply);
    if (mentioned && ticket.channel_id) {
      await this.platform.postMessage(ticket.channel_id, { content: `<@${mentioned}>`, allowed_mentions: { users: [mentioned] } }, ticket.server_id).catch(() => undefined);
    }
    const recipient = other(subject.automation.notifyUser, subject.automation.notifyClaimer);
    if (!recipient) return;
    const excerpt = content.length > 300 ? `${content.slice(0, 300)}…` : content;
    const say = await this.sayFor(ticket.server_id, subject);
    const link = ticket.channel_id ? [row(linkButton(subject.buttons.goToTicket.text.trim() || say('button.goToTicket'), this.channelUrl(ticket.server_id, ticket.channel_id)))] : [];
    await this.platform
      .sendDirectMessage(recipient, {
        content: `${say('dm.newReply', { number: ticket.number, name: ticket.name, user: `<@${authorId}>` })}\n> ${excerpt.replaceAll('\n', '\n> ')}`,
        components: link,
        allowed_mentions: { parse: [] },
      })
      .catch(() => undefined);
  }

  /** Someone is added to a ticket: recorded, let into its channel with the subject's user permissions, logged. */
  async addMember(serverId: string, ticketId: string, userId: string): Promise<void> {
    await this.guilds.assertMember(serverId, userId, 'body.userId');
    if (!(await this.support.addMember(serverId, ticketId, userId))) return;
    const ticket = await repo.findTicket(this.db, ticketId, serverId);
    const subject = ticket ? await this.liveSubject(serverId, ticket.subject_id) : null;
    if (!ticket || !subject) return;
    const say = await this.sayFor(serverId, subject);
    if (ticket.channel_id && ticket.state !== 'Closed') {
      await this.letIntoChannel(serverId, ticket.channel_id, userId, subject);
      // Mentioned, so the new member is pointed to the channel they can now see.
      await this.platform
        .postMessage(ticket.channel_id, { content: say('channel.memberAdded', { user: `<@${userId}>` }), allowed_mentions: { users: [userId] } }, serverId)
        .catch(() => undefined);
    }
    await this.log(subject, 'memberAdded', say('log.memberAdded', { user: `<@${userId}>`, number: ticket.number, name: ticket.name }));
  }

  /** A server's ticket for its staff, with what its subject lets each of its people do in its channel. */
  async getTicket(serverId: string, ticketId: string): Promise<Ticket> {
    const ticket = await this.support.get(serverId, ticketId);
    const subject = await this.liveSubject(serverId, ticket.subject.subjectId);
    if (!subject) return ticket;
    const { userPermissions, claimPermissions, staffPermissions } = subject.permissions;
    const access = { userPermissions: userPermissions.value, claimPermissions: claimPermissions.value, staffPermissions: staffPermissions.value, staffRoles: subject.staffRoles.value };
    return { ...ticket, access };
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
    const subject = channelId ? await this.liveSubject(serverId, ticket.subject.subjectId) : null;
    if (channelId && subject) await this.letIntoChannel(serverId, channelId, request.authorId, subject);
    return ticket;
  }

  /** Lets a member of a ticket into its channel with the subject's member permissions (best effort: the channel may be gone). */
  private async letIntoChannel(serverId: string, channelId: string, userId: string, subject: Subject): Promise<void> {
    const { id, ...member } = overwrite(userId, 'member', subject.permissions.userPermissions.value, ['ViewChannel']);
    await this.platform.putChannelPermission(channelId, id, member, serverId).catch(() => undefined);
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
      const subject = await this.liveSubject(serverId, update.subjectId);
      if (subject) {
        const say = await this.sayFor(serverId, subject);
        await this.log(subject, 'subjectChanged', say('log.subjectChanged', { number: updated.number, name: updated.name, subject: subject.name }));
      }
    }
    return updated;
  }

  /** A ticket is deleted with its history; its channel goes too, and the deletion is logged. */
  async deleteTicket(serverId: string, ticketId: string): Promise<void> {
    const ticket = await repo.findTicket(this.db, ticketId, serverId);
    const subject = ticket ? await this.liveSubject(serverId, ticket.subject_id) : null;
    await this.support.delete(serverId, ticketId);
    if (ticket?.channel_id) await this.platform.deleteChannel(ticket.channel_id, serverId).catch(() => undefined);
    if (ticket && subject) await this.log(subject, 'deleted', (await this.sayFor(serverId, subject))('log.deleted', { number: ticket.number, name: ticket.name }));
  }

  /** Posts an event to the subject's log channel when the subject logs that kind of event. */
  private async log(subject: Subject, event: LoggedEvent, text: string): Promise<void> {
    const { channelId, rainbowColors } = subject.logging;
    if (!channelId || !subject.logging[event]) return;
    const colors: Record<LoggedEvent, number> = {
      created: 0x57f287,
      claimed: 0x5865f2,
      closed: 0xed4245,
      deleted: 0x992d22,
      memberAdded: 0x3ba55c,
      memberRemoved: 0xfaa61a,
      subjectChanged: 0xeb459e,
    };
    await this.platform
      .postMessage(channelId, { embeds: [{ description: text, color: rainbowColors ? colors[event] : 0x5865f2, timestamp: now() }], allowed_mentions: { parse: [] } }, subject.serverId)
      .catch(() => undefined);
  }

  /**
   * A message of the ticket's channel, as the bot worker reports it: a member holding one of the
   * subject's staff roles writes as staff. When the state changes and the subject moves tickets,
   * the channel goes to the category of its new state.
   */
  async recordMessage(caller: Caller | null, serverId: string, ticketId: string, request: CreateTicketMessageRequest): Promise<TicketMessage> {
    const before = await repo.findTicket(this.db, ticketId, serverId);
    const subject = before ? await this.liveSubject(serverId, before.subject_id) : null;
    let messageType = request.messageType;
    const authorId = caller?.kind === 'user' ? caller.userId : request.authorId;
    if (messageType === 'User' && caller?.kind !== 'user' && authorId && subject && subject.staffRoles.value.length > 0) {
      const member = await this.platform.getMember(serverId, authorId).catch(() => null);
      if (member?.roles.some((roleId) => subject.staffRoles.value.includes(roleId))) messageType = 'Staff';
    }
    const message = await this.support.addMessage(caller, serverId, ticketId, { ...request, messageType });
    const after = await repo.findTicket(this.db, ticketId, serverId);
    if (after && subject && authorId) await this.notifyOfReply(subject, after, messageType, authorId, request.message.content);
    if (before && after && subject && before.state !== after.state && subject.categories.moveTickets && after.channel_id) {
      const target = after.state === 'PendingUser' ? subject.categories.waitingForUser[0] : after.state === 'PendingStaff' ? subject.categories.waitingForStaff[0] : undefined;
      if (target) await this.platform.editChannel(after.channel_id, { parent_id: target.id }, serverId).catch(() => undefined);
    }
    return message;
  }
}
