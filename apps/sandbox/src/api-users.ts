import type { FastifyInstance } from 'fastify';
import type { APIUser, RESTGetAPICurrentUserGuildsResult } from 'discord-api-types/v10';
import { requireBearer, requireBot, requireCaller } from './api-auth.ts';
import { setBotMembership } from './bot-membership.ts';
import { parseBooleanQuery, parseIntQuery, parseSnowflakeQuery, snowflakeParam } from './api-query.ts';
import type { Query } from './api-query.ts';
import { unauthorized, unknownGuild, unknownUser } from './errors.ts';
import { toCurrentUser, toCurrentUserGuild, toGuildMember } from './serializers.ts';
import { compareSnowflakes } from './snowflake.ts';
import type { GuildState, SandboxState } from './state.ts';

type GuildParams = { Params: { guildId: string } };

export function registerUserRoutes(api: FastifyInstance, state: SandboxState): void {
  api.get('/users/@me', async (request) => {
    const caller = requireCaller(state, request);
    if (caller.kind === 'bot') {
      const bot: APIUser = { ...state.botUser(caller.app), verified: true, mfa_enabled: true, email: null, locale: 'en-US', premium_type: 0 };
      return bot;
    }
    if (!caller.grant.scopes.includes('identify')) throw unauthorized();
    return toCurrentUser(caller.user, caller.grant.scopes.includes('email'));
  });

  api.get<{ Querystring: Query }>('/users/@me/guilds', async (request) => {
    const caller = requireCaller(state, request);
    const userId = caller.kind === 'bot' ? caller.app.botUserId : caller.user.id;
    if (caller.kind === 'bearer' && !caller.grant.scopes.includes('guilds')) throw unauthorized();
    const limit = parseIntQuery(request.query, 'limit', { min: 1, max: 200, fallback: 200 });
    const before = parseSnowflakeQuery(request.query, 'before');
    const after = parseSnowflakeQuery(request.query, 'after');
    const withCounts = parseBooleanQuery(request.query, 'with_counts');
    const guilds = pageById(state.guildsOf(userId), { limit, before, after });
    const result: RESTGetAPICurrentUserGuildsResult = guilds.map((g) => toCurrentUserGuild(state, g, userId, withCounts));
    return result;
  });

  api.get<GuildParams>('/users/@me/guilds/:guildId/member', async (request) => {
    const { user } = requireBearer(state, request, 'guilds.members.read');
    const guildId = snowflakeParam(request.params.guildId, 'guild_id');
    // The bot's presence is irrelevant here: users belong to guilds the bot never joined.
    const member = state.guilds.get(guildId)?.members.get(user.id);
    if (!member) throw unknownGuild();
    return toGuildMember(state, member);
  });

  api.delete<GuildParams>('/users/@me/guilds/:guildId', async (request, reply) => {
    const app = requireBot(state, request);
    const guild = state.guilds.get(snowflakeParam(request.params.guildId, 'guild_id'));
    if (!guild || !state.isBotIn(guild, app)) throw unknownGuild();
    setBotMembership(state, guild, false, { app });
    return reply.code(204).send();
  });

  api.get<{ Params: { userId: string } }>('/users/:userId', async (request) => {
    requireBot(state, request);
    const user = state.publicUser(snowflakeParam(request.params.userId, 'user_id'));
    if (!user) throw unknownUser();
    return user;
  });
}

/** Discord pages guild lists by id: `after` walks forward, `before` returns the nearest ones below it. */
function pageById(guilds: GuildState[], { limit, before, after }: { limit: number; before?: string; after?: string }): GuildState[] {
  let list = [...guilds].sort((a, b) => compareSnowflakes(a.id, b.id));
  if (after) list = list.filter((g) => compareSnowflakes(g.id, after) > 0);
  if (before) list = list.filter((g) => compareSnowflakes(g.id, before) < 0);
  return before && !after ? list.slice(-limit) : list.slice(0, limit);
}
