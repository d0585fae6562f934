import { GatewayCloseCodes, GatewayIntentBits } from 'discord-api-types/v10';
import type { APIGuildMember, GatewayGuildMembersChunkDispatchData } from 'discord-api-types/v10';
import type { Application } from './applications.ts';
import { shardOf } from './gateway-payloads.ts';
import { toGuildMember } from './serializers.ts';
import { compareSnowflakes } from './snowflake.ts';
import type { SandboxState } from './state.ts';

const CHUNK_SIZE = 1000;
const MAX_QUERY_RESULTS = 100;
const MAX_NONCE_BYTES = 32;

export interface MembersRequestOutcome {
  chunks: GatewayGuildMembersChunkDispatchData[];
  /** Set when Discord would close the connection instead of answering. */
  error?: { code: GatewayCloseCodes; reason: string };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Op 8 Request Guild Members, with Discord's limits: one guild per request, the whole list only
 * with GUILD_MEMBERS, at most 100 members for a prefix query or a list of ids. A guild the
 * session does not receive is ignored, as on Discord.
 */
export function requestGuildMembers(state: SandboxState, app: Application, session: { shard: [number, number]; intents: number }, d: unknown): MembersRequestOutcome {
  if (!isRecord(d)) return { chunks: [], error: { code: GatewayCloseCodes.DecodeError, reason: 'Decode error' } };
  const guildId = Array.isArray(d.guild_id) && d.guild_id.length === 1 ? d.guild_id[0] : d.guild_id;
  if (typeof guildId !== 'string' || !/^\d{1,20}$/.test(guildId)) return { chunks: [], error: { code: GatewayCloseCodes.DecodeError, reason: 'Decode error: one guild_id' } };
  const guild = state.guilds.get(guildId);
  if (!guild || !state.isBotIn(guild, app) || shardOf(guild.id, session.shard[1]) !== session.shard[0]) return { chunks: [] };
  const nonce = typeof d.nonce === 'string' && Buffer.byteLength(d.nonce) <= MAX_NONCE_BYTES ? d.nonce : undefined;
  const members = [...guild.members.values()].sort((a, b) => compareSnowflakes(a.userId, b.userId));
  let found: APIGuildMember[];
  let notFound: string[] | undefined;
  if (d.user_ids !== undefined) {
    const ids = (Array.isArray(d.user_ids) ? d.user_ids : [d.user_ids]).filter((id): id is string => typeof id === 'string').slice(0, MAX_QUERY_RESULTS);
    found = ids.flatMap((id) => {
      const member = guild.members.get(id);
      return member ? [toGuildMember(state, member)] : [];
    });
    notFound = ids.filter((id) => !guild.members.has(id));
  } else {
    const query = typeof d.query === 'string' ? d.query.toLowerCase() : null;
    const limit = typeof d.limit === 'number' && Number.isInteger(d.limit) && d.limit >= 0 ? d.limit : null;
    if (query === null || limit === null) return { chunks: [], error: { code: GatewayCloseCodes.DecodeError, reason: 'Decode error: query and limit, or user_ids' } };
    if (query === '' && (session.intents & GatewayIntentBits.GuildMembers) === 0) {
      return { chunks: [], error: { code: GatewayCloseCodes.DisallowedIntents, reason: 'Requesting every member needs the GUILD_MEMBERS intent' } };
    }
    const matching = members
      .map((m) => toGuildMember(state, m))
      .filter((m) => query === '' || [m.user.username, m.user.global_name, m.nick].some((n) => typeof n === 'string' && n.toLowerCase().startsWith(query)));
    const cap = query === '' ? (limit === 0 ? matching.length : limit) : Math.min(limit === 0 ? MAX_QUERY_RESULTS : limit, MAX_QUERY_RESULTS);
    found = matching.slice(0, cap);
  }
  const count = Math.max(1, Math.ceil(found.length / CHUNK_SIZE));
  const wantsPresences = d.presences === true && (session.intents & GatewayIntentBits.GuildPresences) !== 0;
  return {
    chunks: Array.from({ length: count }, (_, index) => {
      const chunk: GatewayGuildMembersChunkDispatchData = {
        guild_id: guild.id,
        members: found.slice(index * CHUNK_SIZE, (index + 1) * CHUNK_SIZE),
        chunk_index: index,
        chunk_count: count,
      };
      if (notFound && index === 0) chunk.not_found = notFound;
      if (wantsPresences) chunk.presences = [];
      if (nonce !== undefined) chunk.nonce = nonce;
      return chunk;
    }),
  };
}
