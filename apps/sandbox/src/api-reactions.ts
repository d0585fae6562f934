import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PermissionFlagsBits, RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { APIUser } from 'discord-api-types/v10';
import { channelForBot } from './api-channels.ts';
import type { ChannelAccess } from './api-channels.ts';
import { parseIntQuery, parseSnowflakeQuery, snowflakeParam } from './api-query.ts';
import type { Query } from './api-query.ts';
import { DiscordApiError, missingAccess, missingPermissions, unknownMessage } from './errors.ts';
import { hasPermission } from './permissions.ts';
import { addReaction, hasReaction, parseEmoji, reactionUsers, removeAllReactions, removeEmojiReactions, removeReaction } from './reactions.ts';
import type { ReactionEmoji } from './reactions.ts';
import { compareSnowflakes } from './snowflake.ts';
import type { SandboxState, StoredMessage } from './state.ts';

type MessageRoute<Extra = object> = { Params: { channelId: string; messageId: string } & Extra; Querystring: Query };

const unknownEmoji = () => new DiscordApiError(400, 'Unknown Emoji', RESTJSONErrorCodes.UnknownEmoji);

/** The bot's reactions and moderation of reactions, on the message routes Discord has for them. */
export function registerReactionRoutes(api: FastifyInstance, state: SandboxState): void {
  const target = (request: FastifyRequest<MessageRoute<{ emoji?: string }>>): ChannelAccess & { stored: StoredMessage; emoji: ReactionEmoji | null } => {
    const access = channelForBot(state, request);
    if (!hasPermission(access.permissions, PermissionFlagsBits.ReadMessageHistory)) throw missingAccess();
    const stored = state.messages.get(snowflakeParam(request.params.messageId, 'message_id'));
    if (!stored || stored.deleted || stored.message.channel_id !== access.channel.id) throw unknownMessage();
    if (request.params.emoji === undefined) return { ...access, stored, emoji: null };
    const emoji = parseEmoji(access.guild, request.params.emoji);
    if (!emoji) throw unknownEmoji();
    return { ...access, stored, emoji };
  };
  const moderate = (permissions: bigint) => {
    if (!hasPermission(permissions, PermissionFlagsBits.ManageMessages)) throw missingPermissions();
  };
  const base = '/channels/:channelId/messages/:messageId/reactions';

  api.put<MessageRoute<{ emoji: string }>>(`${base}/:emoji/@me`, async (request, reply) => {
    const { app, guild, stored, emoji, permissions } = target(request);
    if (!hasReaction(state, stored, emoji!) && !hasPermission(permissions, PermissionFlagsBits.AddReactions)) throw missingPermissions();
    addReaction(state, guild, stored, app.botUserId, emoji!);
    return reply.code(204).send();
  });

  api.delete<MessageRoute<{ emoji: string }>>(`${base}/:emoji/@me`, async (request, reply) => {
    const { app, stored, emoji } = target(request);
    removeReaction(state, stored, app.botUserId, emoji!);
    return reply.code(204).send();
  });

  api.delete<MessageRoute<{ emoji: string; userId: string }>>(`${base}/:emoji/:userId`, async (request, reply) => {
    const { app, stored, emoji, permissions } = target(request);
    const userId = snowflakeParam(request.params.userId, 'user_id');
    if (userId !== app.botUserId) moderate(permissions);
    removeReaction(state, stored, userId, emoji!);
    return reply.code(204).send();
  });

  api.get<MessageRoute<{ emoji: string }>>(`${base}/:emoji`, async (request) => {
    const { stored, emoji } = target(request);
    const limit = parseIntQuery(request.query, 'limit', { min: 1, max: 100, fallback: 25 });
    const after = parseSnowflakeQuery(request.query, 'after') ?? '0';
    return reactionUsers(state, stored, emoji!)
      .sort(compareSnowflakes)
      .filter((id) => compareSnowflakes(id, after) > 0)
      .slice(0, limit)
      .map((id) => state.publicUser(id))
      .filter((u): u is APIUser => u !== null);
  });

  api.delete<MessageRoute<{ emoji: string }>>(`${base}/:emoji`, async (request, reply) => {
    const { stored, emoji, permissions } = target(request);
    moderate(permissions);
    removeEmojiReactions(state, stored, emoji!);
    return reply.code(204).send();
  });

  api.delete<MessageRoute>(base, async (request, reply) => {
    const { stored, permissions } = target(request);
    moderate(permissions);
    removeAllReactions(state, stored);
    return reply.code(204).send();
  });
}
