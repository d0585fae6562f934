import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import { requireBot } from './api-auth.ts';
import { parseBooleanQuery, parseIntQuery, parseSnowflakeQuery, queryValue, snowflakeParam } from './api-query.ts';
import type { Query } from './api-query.ts';
import { DiscordApiError, fieldError, invalidFormBody, missingAccess, unknownGuild, unknownMember, unknownUser } from './errors.ts';
import { sortedChannels, toChannel, toGuild, toGuildMember } from './serializers.ts';
import { compareSnowflakes } from './snowflake.ts';
import type { GuildState, MemberState, SandboxState } from './state.ts';

type GuildRoute<Extra = object> = { Params: { guildId: string } & Extra; Querystring: Query };

export function registerGuildRoutes(api: FastifyInstance, state: SandboxState): void {
  /**
   * GET /guilds/{id} hides whether a guild exists from bots outside it (Unknown Guild), while
   * its sub-resources answer Missing Access for a real guild the bot is not in.
   */
  const guildForBot = (request: FastifyRequest<GuildRoute>): GuildState => {
    const app = requireBot(state, request);
    const guild = state.guilds.get(snowflakeParam(request.params.guildId, 'guild_id'));
    if (!guild) throw unknownGuild();
    if (!state.isBotIn(guild, app)) throw missingAccess();
    return guild;
  };

  api.get<GuildRoute>('/guilds/:guildId', async (request) => {
    const app = requireBot(state, request);
    const guild = state.guilds.get(snowflakeParam(request.params.guildId, 'guild_id'));
    if (!guild || !state.isBotIn(guild, app)) throw unknownGuild();
    return toGuild(guild, parseBooleanQuery(request.query, 'with_counts'));
  });

  api.get<GuildRoute>('/guilds/:guildId/channels', async (request) => {
    const guild = guildForBot(request);
    // Bots see every channel in the list, including ones they cannot open, as on Discord.
    return sortedChannels(guild).map((c) => toChannel(guild, c));
  });

  api.get<GuildRoute>('/guilds/:guildId/roles', async (request) => {
    const guild = guildForBot(request);
    return [...guild.roles].sort((a, b) => a.position - b.position).map((r) => structuredClone(r));
  });

  api.get<GuildRoute<{ roleId: string }>>('/guilds/:guildId/roles/:roleId', async (request) => {
    const guild = guildForBot(request);
    const role = guild.roles.find((r) => r.id === snowflakeParam(request.params.roleId, 'role_id'));
    if (!role) throw new DiscordApiError(404, 'Unknown Role', RESTJSONErrorCodes.UnknownRole);
    return structuredClone(role);
  });

  api.get<GuildRoute>('/guilds/:guildId/emojis', async (request) => {
    const guild = guildForBot(request);
    return guild.emojis.map((e) => structuredClone(e));
  });

  api.get<GuildRoute<{ emojiId: string }>>('/guilds/:guildId/emojis/:emojiId', async (request) => {
    const guild = guildForBot(request);
    const emoji = guild.emojis.find((e) => e.id === snowflakeParam(request.params.emojiId, 'emoji_id'));
    if (!emoji) throw new DiscordApiError(404, 'Unknown Emoji', RESTJSONErrorCodes.UnknownEmoji);
    return structuredClone(emoji);
  });

  api.get<GuildRoute>('/guilds/:guildId/members', async (request) => {
    const guild = guildForBot(request);
    const limit = parseIntQuery(request.query, 'limit', { min: 1, max: 1000, fallback: 1 });
    const after = parseSnowflakeQuery(request.query, 'after') ?? '0';
    return sortedMembers(guild)
      .filter((m) => compareSnowflakes(m.userId, after) > 0)
      .slice(0, limit)
      .map((m) => toGuildMember(state, m));
  });

  api.get<GuildRoute>('/guilds/:guildId/members/search', async (request) => {
    const guild = guildForBot(request);
    const query = queryValue(request.query, 'query');
    if (query === undefined) throw invalidFormBody(fieldError(['query'], 'BASE_TYPE_REQUIRED', 'This field is required'));
    const limit = parseIntQuery(request.query, 'limit', { min: 1, max: 1000, fallback: 1 });
    const needle = query.toLowerCase();
    const matches = sortedMembers(guild).filter((m) => {
      const user = state.publicUser(m.userId);
      const names = [user?.username, user?.global_name, m.nick];
      return names.some((name) => typeof name === 'string' && name.toLowerCase().startsWith(needle));
    });
    return matches.slice(0, limit).map((m) => toGuildMember(state, m));
  });

  api.get<GuildRoute<{ userId: string }>>('/guilds/:guildId/members/:userId', async (request) => {
    const guild = guildForBot(request);
    const userId = snowflakeParam(request.params.userId, 'user_id');
    const member = guild.members.get(userId);
    if (member) return toGuildMember(state, member);
    throw state.publicUser(userId) ? unknownMember() : unknownUser();
  });
}

function sortedMembers(guild: GuildState): MemberState[] {
  return [...guild.members.values()].sort((a, b) => compareSnowflakes(a.userId, b.userId));
}
