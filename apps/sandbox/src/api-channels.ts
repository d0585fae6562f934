import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ChannelType, MessageReferenceType, MessageType, PermissionFlagsBits } from 'discord-api-types/v10';
import type { APIMessage, APIUser } from 'discord-api-types/v10';
import { requireBot } from './api-auth.ts';
import { parseIntQuery, parseSnowflakeQuery, snowflakeParam } from './api-query.ts';
import type { Query } from './api-query.ts';
import {
  emptyMessage,
  fieldError,
  invalidFormBody,
  missingAccess,
  missingPermissions,
  nonTextChannel,
  unknownChannel,
  unknownMessage,
} from './errors.ts';
import type { FixtureChannel } from './fixtures.ts';
import { validateCreateMessage, validateEditMessage } from './message-validation.ts';
import type { AllowedMentions } from './message-validation.ts';
import { hasPermission } from './permissions.ts';
import { toChannel } from './serializers.ts';
import { compareSnowflakes, discordTimestamp } from './snowflake.ts';
import type { GuildState, SandboxState, StoredMessage } from './state.ts';

type ChannelRoute<Extra = object> = { Params: { channelId: string } & Extra; Querystring: Query };

// Threads-only and container channels cannot hold messages of their own; voice and stage can (text in voice).
const NON_TEXT_TYPES = new Set<number>([ChannelType.GuildCategory, ChannelType.GuildForum, ChannelType.GuildMedia, ChannelType.GuildDirectory]);

interface ChannelAccess {
  guild: GuildState;
  channel: FixtureChannel;
  permissions: bigint;
}

export function registerChannelRoutes(api: FastifyInstance, state: SandboxState): void {
  /** Existence first (Unknown Channel), then whether the bot can see it at all (Missing Access). */
  const channelForBot = (request: FastifyRequest<ChannelRoute>): ChannelAccess => {
    requireBot(state, request);
    const found = state.findChannel(snowflakeParam(request.params.channelId, 'channel_id'));
    if (!found) throw unknownChannel();
    if (!state.isBotIn(found.guild)) throw missingAccess();
    const permissions = state.botChannelPermissions(found.guild, found.channel);
    if (!hasPermission(permissions, PermissionFlagsBits.ViewChannel)) throw missingAccess();
    return { ...found, permissions };
  };

  const storedMessage = (channelId: string, messageId: string): StoredMessage => {
    const stored = state.messages.get(snowflakeParam(messageId, 'message_id'));
    if (!stored || stored.deleted || stored.message.channel_id !== channelId) throw unknownMessage();
    return stored;
  };

  api.get<ChannelRoute>('/channels/:channelId', async (request) => {
    const { guild, channel } = channelForBot(request);
    return toChannel(guild, channel);
  });

  api.post<ChannelRoute>('/channels/:channelId/messages', async (request) => {
    const { guild, channel, permissions } = channelForBot(request);
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

    const now = state.now();
    const id = state.nextId();
    const canMentionEveryone = hasPermission(permissions, PermissionFlagsBits.MentionEveryone);
    const mentions = resolveMentions(state, guild, draft.content, draft.allowedMentions, canMentionEveryone);
    const message: APIMessage = {
      id,
      type: referenced ? MessageType.Reply : MessageType.Default,
      channel_id: channel.id,
      author: state.botUser(),
      content: draft.content,
      timestamp: discordTimestamp(now),
      edited_timestamp: null,
      tts: draft.tts,
      mention_everyone: mentions.everyone,
      mentions: mentions.users,
      mention_roles: mentions.roles,
      attachments: [],
      embeds: draft.embeds,
      components: draft.components,
      pinned: false,
      flags: draft.flags,
    };
    if (draft.nonce !== undefined) message.nonce = draft.nonce;
    if (referenced) {
      message.message_reference = { type: MessageReferenceType.Default, message_id: referenced.message.id, channel_id: channel.id, guild_id: guild.id };
      message.referenced_message = structuredClone(referenced.message);
    }
    state.messages.set(id, { message, guildId: guild.id, deleted: false, deletedAt: null, revisions: [] });
    if (channel.type !== ChannelType.GuildCategory) (channel as { last_message_id?: string | null }).last_message_id = id;
    return structuredClone(message);
  });

  api.get<ChannelRoute>('/channels/:channelId/messages', async (request) => {
    const { channel, permissions } = channelForBot(request);
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
    return page.map((m) => structuredClone(m));
  });

  api.get<ChannelRoute<{ messageId: string }>>('/channels/:channelId/messages/:messageId', async (request) => {
    const { channel, permissions } = channelForBot(request);
    if (!hasPermission(permissions, PermissionFlagsBits.ReadMessageHistory)) throw missingAccess();
    return structuredClone(storedMessage(channel.id, request.params.messageId).message);
  });

  api.patch<ChannelRoute<{ messageId: string }>>('/channels/:channelId/messages/:messageId', async (request) => {
    const { guild, channel, permissions } = channelForBot(request);
    const stored = storedMessage(channel.id, request.params.messageId);
    const current = stored.message;
    const edit = validateEditMessage(request.body, current.flags ?? 0);
    const next = {
      content: edit.content ?? current.content,
      embeds: edit.embeds ?? current.embeds,
      components: edit.components ?? current.components ?? [],
      flags: edit.flags ?? current.flags ?? 0,
    };
    if (next.content.trim() === '' && next.embeds.length === 0 && next.components.length === 0) throw emptyMessage();
    const now = state.now();
    stored.revisions.push({
      content: current.content,
      embeds: structuredClone(current.embeds),
      components: structuredClone(current.components),
      flags: current.flags ?? 0,
      replacedAt: discordTimestamp(now),
    });
    Object.assign(current, next, { edited_timestamp: discordTimestamp(now) });
    if (edit.content !== undefined || edit.allowedMentions !== undefined) {
      const mentions = resolveMentions(state, guild, current.content, edit.allowedMentions ?? null, hasPermission(permissions, PermissionFlagsBits.MentionEveryone));
      current.mentions = mentions.users;
      current.mention_roles = mentions.roles;
      current.mention_everyone = mentions.everyone;
    }
    return structuredClone(current);
  });

  api.delete<ChannelRoute<{ messageId: string }>>('/channels/:channelId/messages/:messageId', async (request, reply) => {
    const { channel, permissions } = channelForBot(request);
    const stored = storedMessage(channel.id, request.params.messageId);
    if (stored.message.author.id !== state.botUserId && !hasPermission(permissions, PermissionFlagsBits.ManageMessages)) {
      throw missingPermissions();
    }
    stored.deleted = true;
    stored.deletedAt = discordTimestamp(state.now());
    return reply.code(204).send();
  });
}

/**
 * Mirrors what a member would be pinged by: allowed_mentions filters, non-mentionable roles need
 * the bot's Mention Everyone permission, and @everyone/@here need it too.
 */
function resolveMentions(
  state: SandboxState,
  guild: GuildState,
  content: string,
  allowed: AllowedMentions | null,
  canMentionEveryone: boolean,
): { users: APIUser[]; roles: string[]; everyone: boolean } {
  const userIds = new Set([...content.matchAll(/<@!?(\d{17,20})>/g)].map((m) => m[1]!));
  const roleIds = new Set([...content.matchAll(/<@&(\d{17,20})>/g)].map((m) => m[1]!));
  const users = [...userIds]
    .filter((id) => !allowed || allowed.parse.includes('users') || allowed.users.includes(id))
    .map((id) => state.publicUser(id))
    .filter((u): u is APIUser => u !== null);
  const roles = [...roleIds].filter((id) => {
    const role = guild.roles.find((r) => r.id === id);
    if (!role || id === guild.id) return false;
    if (allowed && !allowed.parse.includes('roles') && !allowed.roles.includes(id)) return false;
    return role.mentionable || canMentionEveryone;
  });
  const everyone = /@(everyone|here)\b/.test(content) && canMentionEveryone && (!allowed || allowed.parse.includes('everyone'));
  return { users, roles, everyone };
}
