import type { REST } from '@discordjs/rest';
import { filesCalls, supportCalls, TicketChannels as TicketChannelsSchema } from '@ticket/contracts';
import { AuditLogEvent, Routes, type RESTGetAPIAuditLogResult } from 'discord-api-types/v10';
import type { Logger } from 'pino';
import type { Delivery } from './report-sender';
import type { Report } from './reports';
import { ApiAnswerError, type TicketApi } from './ticket-api';
import type { TicketChannel, TicketChannels } from './ticket-channels';

export interface DeliveryDeps {
  api: TicketApi;
  tickets: TicketChannels;
  /** The bot's REST client, for the audit log. */
  rest: Pick<REST, 'get'>;
  botUserId(): string | null;
  /** The white-label bots this runtime runs: the API speaks as them on their servers. */
  isWhitelabelBot?(userId: string): boolean;
  log: Logger;
  /** Waits before reading the audit log a second time (the entry may trail the event). */
  auditLogRetryMs?: number;
}

/** The open tickets' channels of a server, from the Ticket API. */
export async function loadTicketChannels(api: TicketApi, guildId: string): Promise<TicketChannel[]> {
  const answer = await api.call('support', supportCalls.getTicketChannels, { params: { serverId: guildId } });
  return TicketChannelsSchema.parse(answer.body).channels;
}

const isNotFound = (error: unknown): boolean => error instanceof ApiAnswerError && error.status === 404;

/**
 * Who deleted the channel, from the server's audit log; null when the log cannot be read (the
 * bot may lack View Audit Log) or does not say.
 */
export async function channelDeletedBy(deps: DeliveryDeps, guildId: string, channelId: string): Promise<string | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, deps.auditLogRetryMs ?? 1000));
    let log: RESTGetAPIAuditLogResult;
    try {
      log = (await deps.rest.get(Routes.guildAuditLog(guildId), {
        query: new URLSearchParams({ action_type: String(AuditLogEvent.ChannelDelete), limit: '5' }),
      })) as RESTGetAPIAuditLogResult;
    } catch (error) {
      deps.log.debug({ guildId, channelId, status: (error as { status?: number }).status }, 'audit log not readable: channel deleted by someone unknown');
      return null;
    }
    const entry = log.audit_log_entries?.find((e) => e.target_id === channelId);
    if (entry) return entry.user_id ?? null;
  }
  return null;
}

/**
 * Sends one report to the Ticket API. Channel reports go to the channel's ticket, looked up when
 * sending; a channel without an open ticket is skipped.
 */
export function createDeliver(deps: DeliveryDeps): (report: Report) => Promise<Delivery> {
  const { api, tickets } = deps;

  /** A 404 means the API no longer knows the ticket (or the message): the list is refreshed, the report is done with. */
  const onTicket = async (
    report: Extract<Report, { channelId: string }>,
    send: (ticket: TicketChannel) => Promise<Delivery>,
    notFound: Delivery = { outcome: 'skipped', reason: 'the API does not know this ticket or message' },
  ): Promise<Delivery> => {
    const ticket = await tickets.lookup(report.guildId, report.channelId);
    if (!ticket) return { outcome: 'skipped', reason: 'not a ticket channel' };
    try {
      return await send(ticket);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      tickets.refresh(report.guildId).catch((e: unknown) => deps.log.debug({ err: e, guildId: report.guildId }, 'ticket channels not refreshed'));
      return notFound;
    }
  };

  const messageParams = (r: { guildId: string; messageId: string }, t: TicketChannel) => ({ serverId: r.guildId, ticketId: t.ticketId, messageId: r.messageId });

  return async (report) => {
    switch (report.kind) {
      case 'messageCreated':
        return onTicket(report, async (ticket) => {
          const answer = await api.call('support', supportCalls.createTicketMessage, {
            params: { serverId: report.guildId, ticketId: ticket.ticketId },
            body: {
              message: { content: report.content, embeds: report.embeds, mentions: report.mentions, attachments: report.attachments, replyTo: report.replyTo },
              messageType: 'User',
              authorId: report.authorId,
              externalId: report.messageId,
            },
          });
          // 200: recorded before (this is a repeat), and so were its files.
          if (answer.status !== 201) return { outcome: 'sent' };
          return {
            outcome: 'sent',
            followUps: report.attachments.map((a) => ({ kind: 'fileCloned', guildId: report.guildId, channelId: report.channelId, fileName: a.filename, url: a.url })),
          };
        });
      case 'fileCloned':
        return onTicket(report, async (ticket) => {
          await api.call('files', filesCalls.cloneFile, {
            body: { fileName: report.fileName, serverId: report.guildId, ticketId: ticket.ticketId, subjectId: ticket.subjectId, url: report.url },
          });
          return { outcome: 'sent' };
        });
      case 'messageUpdated':
        return onTicket(report, async (ticket) => {
          await api.call('support', supportCalls.updateTicketMessage, {
            params: messageParams(report, ticket),
            body: { message: { content: report.content, embeds: report.embeds } },
          });
          return { outcome: 'sent' };
        });
      case 'messageDeleted':
        return onTicket(
          report,
          async (ticket) => {
            await api.call('support', supportCalls.deleteTicketMessage, { params: messageParams(report, ticket) });
            return { outcome: 'sent' };
          },
          // Deleted before, or never recorded: either way it is not in the ticket.
          { outcome: 'sent' },
        );
      case 'reactionAdded':
        return onTicket(report, async (ticket) => {
          await api.call('support', supportCalls.addReaction, { params: messageParams(report, ticket), body: { reactorId: report.userId, emoji: report.emoji } });
          return { outcome: 'sent' };
        });
      case 'reactionRemoved':
        return onTicket(report, async (ticket) => {
          await api.call('support', supportCalls.removeReaction, { params: messageParams(report, ticket), body: { reactorId: report.userId, emoji: report.emoji } });
          return { outcome: 'sent' };
        });
      case 'reactionsCleared':
        return onTicket(report, async (ticket) => {
          const body = report.emoji === null ? { deleteAll: true } : { clearEmoji: true, emoji: report.emoji };
          await api.call('support', supportCalls.removeReaction, { params: messageParams(report, ticket), body });
          return { outcome: 'sent' };
        });
      case 'channelDeleted': {
        const delivery = await onTicket(report, async () => {
          const deletedBy = await channelDeletedBy(deps, report.guildId, report.channelId);
          // The bot deleted it: the API did that itself when it closed the ticket.
          if (deletedBy !== null && (deletedBy === deps.botUserId() || deps.isWhitelabelBot?.(deletedBy) === true)) return { outcome: 'skipped', reason: 'deleted by the bot' };
          await api.call('support', supportCalls.handlePlatformEvent, {
            params: { serverId: report.guildId },
            body: { eventId: report.eventId, type: 'channelDeleted', channelId: report.channelId, deletedBy },
          });
          return { outcome: 'sent' };
        });
        tickets.removeChannel(report.guildId, report.channelId);
        return delivery;
      }
      case 'serverEvent':
        try {
          await api.call('support', supportCalls.handlePlatformEvent, { params: { serverId: report.guildId }, body: report.event });
        } catch (error) {
          // A server the dashboard does not know: nothing to update.
          if (isNotFound(error)) return { outcome: 'skipped', reason: 'the API does not know this server' };
          throw error;
        }
        return { outcome: 'sent' };
    }
  };
}
