import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ChannelType, GatewayDispatchEvents, MessageReferenceType, MessageType, PermissionFlagsBits, RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { APIMessage } from 'discord-api-types/v10';
import { requireBot } from './api-auth.ts';
import { isDmChannel, postDirectMessage } from './api-direct-messages.ts';
import { botMessage } from './bot-message.ts';
import { parseIntQuery, parseSnowflakeQuery, snowflakeParam } from './api-query.ts';
import type { Query } from './api-query.ts';
import {
  DiscordApiError,
  fieldError,
  invalidFormBody,
  missingAccess,
  missingPermissions,
  nonTextChannel,
  unknownChannel,
  unknownMessage,
} from './errors.ts';
import type { Application } from './applications.ts';
import type { FixtureChannel } from './fixtures.ts';
import { validateCreateMessage, validateEditMessage } from './message-validation.ts';
import { applyMessageEdit, markMessageDeleted } from './message-edits.ts';
import { hasPermission } from './permissions.ts';
import { publishMessage, publishMessagesDeleted } from './platform-events.ts';
import { messageSeenBy } from './reactions.ts';
import { toChannel } from './serializers.ts';
import { compareSnowflakes, discordTimestamp, isSnowflake, snowflakeTime } from './snowflake.ts';
import type { GuildState, SandboxState, StoredMessage } from './state.ts';

type ChannelRoute<Extra = object> = { Params: { channelId: string } & Extra; Querystring: Query };

const BULK_DELETE_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

// Threads-only and container channels cannot hold messages of their own; voice and stage can (text in voice).
const NON_TEXT_TYPES = new Set<number>([ChannelType.GuildCategory, ChannelType.GuildForum, ChannelType.GuildMedia, ChannelType.GuildDirectory]);

export interface ChannelAccess {
  /** The application whose bot is calling. */
  app: Application;
  guild: GuildState;
  channel: FixtureChannel;
  /** The bot's permissions in the channel, overwrites included. */
  permissions: bigint;
}

/** Existence first (Unknown Channel), then whether the bot can see it at all (Missing Access). */
export function channelForBot(state: SandboxState, request: FastifyRequest<{ Params: { channelId: string } }>): ChannelAccess {
  const app = requireBot(state, request);
  const found = state.findChannel(snowflakeParam(request.params.channelId, 'channel_id'));
  if (!found) throw unknownChannel();
  if (!state.isBotIn(found.guild, app)) throw missingAccess();
  const permissions = state.botChannelPermissions(found.guild, found.channel, app);
  if (!hasPermission(permissions, PermissionFlagsBits.ViewChannel)) throw missingAccess();
  return { app, ...found, permissions };
}

export function registerChannelRoutes(api: FastifyInstance, state: SandboxState): void {
  const storedMessage = (channelId: string, messageId: string): StoredMessage => {
    const stored = state.messages.get(snowflakeParam(messageId, 'message_id'));
    if (!stored || stored.deleted || stored.message.channel_id !== channelId) throw unknownMessage();
    return stored;
  };

  api.get<ChannelRoute>('/channels/:channelId', async (request) => {
    const { guild, channel } = channelForBot(state, request);
    return toChannel(guild, channel);
  });

  api.post<ChannelRoute>('/channels/:channelId/messages', async (request) => {
    if (isDmChannel(state, request.params.channelId)) {
      return postDirectMessage(state, requireBot(state, request), request.params.channelId, request.body);
    }
    const { app, guild, channel, permissions } = channelForBot(state, request);
    if (NON_TEXT_TYPES.has(channel.type)) throw nonTextChannel();
    if (!hasPermission(permissions, PermissionFlagsBits.SendMessages)) throw missingPermissions();
    const draft = validateCreateMessage(request.body);

    let referenced: StoredMessage | null = null;
    if (draft.reference) {
      const target = state.messages.get(draft.reference.messageId);
      const sameChannel = target && target.message.channel_id === (draft.reference.channelId ?? channel.id);
      if (target && sameChannel && !target.deleted) referenced = target;
      else if (draft.reference.failIfNotExists) {
        throw invalidFormBody(fieldError(['message_reference'], 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', 'Unknown message'));
      }
    }

    const message = botMessage(state, app, guild, channel, draft, referenced ? MessageType.Reply : MessageType.Default);
    const id = message.id;
    if (draft.nonce !== undefined) message.nonce = draft.nonce;
    if (referenced) {
      message.message_reference = { type: MessageReferenceType.Default, message_id: referenced.message.id, channel_id: channel.id, guild_id: guild.id };
      message.referenced_message = structuredClone(referenced.message);
    }
    const stored: StoredMessage = { message, guildId: guild.id, deleted: false, deletedAt: null, revisions: [] };
    state.messages.set(id, stored);
    if (channel.type !== ChannelType.GuildCategory) (channel as { last_message_id?: string | null }).last_message_id = id;
    publishMessage(state, GatewayDispatchEvents.MessageCreate, stored);
    return structuredClone(message);
  });

  api.get<ChannelRoute>('/channels/:channelId/messages', async (request) => {
    const { app, channel, permissions } = channelForBot(state, request);
    const limit = parseIntQuery(request.query, 'limit', { min: 1, max: 100, fallback: 50 });
    const before = parseSnowflakeQuery(request.query, 'before');
    const after = parseSnowflakeQuery(request.query, 'after');
    const around = parseSnowflakeQuery(request.query, 'around');
    // Without history access Discord answers an empty page rather than an error.
    if (!hasPermission(permissions, PermissionFlagsBits.ReadMessageHistory)) return [];
    const newestFirst = [...state.messages.values()]
      .filter((m) => !m.deleted && m.message.channel_id === channel.id)
      .map((m) => m.message)
      .sort((a, b) => compareSnowflakes(b.id, a.id));
    let page: APIMessage[];
    if (around) {
      const older = newestFirst.filter((m) => compareSnowflakes(m.id, around) <= 0).slice(0, Math.ceil(limit / 2));
      const newer = newestFirst.filter((m) => compareSnowflakes(m.id, around) > 0).slice(-Math.floor(limit / 2));
      page = [...newer, ...older];
    } else if (after) {
      page = newestFirst.filter((m) => compareSnowflakes(m.id, after) > 0).slice(-limit);
    } else {
      page = newestFirst.filter((m) => !before || compareSnowflakes(m.id, before) < 0).slice(0, limit);
    }
    return page.map((m) => messageSeenBy(state, m, app.botUserId));
  });

  api.get<ChannelRoute<{ messageId: string }>>('/channels/:channelId/messages/:messageId', async (request) => {
    const { app, channel, permissions } = channelForBot(state, request);
    if (!hasPermission(permissions, PermissionFlagsBits.ReadMessageHistory)) throw missingAccess();
    return messageSeenBy(state, storedMessage(channel.id, request.params.messageId).message, app.botUserId);
  });

  api.patch<ChannelRoute<{ messageId: string }>>('/channels/:channelId/messages/:messageId', async (request) => {
    const { app, guild, channel, permissions } = channelForBot(state, request);
    const stored = storedMessage(channel.id, request.params.messageId);
    const current = stored.message;
    // A bot edits only its own messages, whichever bot posted the others.
    if (current.author.id !== app.botUserId) {
      throw new DiscordApiError(403, 'Cannot edit a message authored by another user', RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser);
    }
    const edit = validateEditMessage(request.body, current.flags ?? 0);
    return applyMessageEdit(state, guild, stored, edit, hasPermission(permissions, PermissionFlagsBits.MentionEveryone));
  });

  api.delete<ChannelRoute<{ messageId: string }>>('/channels/:channelId/messages/:messageId', async (request, reply) => {
    const { app, channel, permissions } = channelForBot(state, request);
    const stored = storedMessage(channel.id, request.params.messageId);
    if (stored.message.author.id !== app.botUserId && !hasPermission(permissions, PermissionFlagsBits.ManageMessages)) {
      throw missingPermissions();
    }
    markMessageDeleted(state, stored);
    return reply.code(204).send();
  });

  /** One MESSAGE_DELETE_BULK on the gateway rather than a MESSAGE_DELETE per message. */
  api.post<ChannelRoute>('/channels/:channelId/messages/bulk-delete', async (request, reply) => {
    const { guild, channel, permissions } = channelForBot(state, request);
    if (!hasPermission(permissions, PermissionFlagsBits.ManageMessages)) throw missingPermissions();
    const body = request.body as { messages?: unknown } | null;
    const ids = body?.messages;
    if (!Array.isArray(ids)) throw invalidFormBody(fieldError(['messages'], 'BASE_TYPE_REQUIRED', 'This field is required'));
    if (ids.length < 2 || ids.length > 100) {
      throw invalidFormBody(fieldError(['messages'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 100 in length.'));
    }
    const bad = ids.findIndex((id) => !isSnowflake(id));
    if (bad >= 0) throw invalidFormBody(fieldError(['messages', bad], 'NUMBER_TYPE_COERCE', `Value "${String(ids[bad])}" is not snowflake.`));
    const unique = [...new Set(ids as string[])];
    if (unique.some((id) => snowflakeTime(id) < state.now() - BULK_DELETE_MAX_AGE_MS)) {
      throw new DiscordApiError(400, 'You can only bulk delete messages that are under 14 days old.', RESTJSONErrorCodes.OneOfTheMessagesProvidedWasTooOldForBulkDelete);
    }
    const deleted: string[] = [];
    for (const id of unique) {
      const stored = state.messages.get(id);
      if (!stored || stored.deleted || stored.message.channel_id !== channel.id) continue;
      stored.deleted = true;
      stored.deletedAt = discordTimestamp(state.now());
      state.reactions.delete(id);
      deleted.push(id);
    }
    if (deleted.length > 0) publishMessagesDeleted(state, guild.id, channel.id, deleted);
    return reply.code(204).send();
  });
}
