import { ApplicationFlags, GatewayIntentBits } from 'discord-api-types/v10';
import type {
  APIGuildMemberNoUser,
  APIMessage,
  APIUser,
  ChannelType,
  GatewayGuildCreateDispatchData,
  GatewayMessageCreateDispatchData,
  GatewayReadyDispatchData,
  TextChannelType,
} from 'discord-api-types/v10';
import { enabledPrivilegedIntents } from './applications.ts';
import type { Application } from './applications.ts';
import { sortedChannels, toGuild, toGuildMember } from './serializers.ts';
import { compareSnowflakes, discordTimestamp } from './snowflake.ts';
import type { GuildState, MemberState, SandboxState } from './state.ts';

export const PRIVILEGED_INTENTS = GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildPresences | GatewayIntentBits.MessageContent;

/** Every intent bit Discord knows; anything else in IDENTIFY is an invalid intent (4013). */
export const ALL_INTENTS = Object.values(GatewayIntentBits)
  .filter((v): v is number => typeof v === 'number')
  .reduce((all, bit) => all | bit, 0);

/** An unverified application with an intent switched on carries its "limited" flag, as in the portal. */
export function applicationFlags(app: Application): ApplicationFlags {
  const enabled = enabledPrivilegedIntents(app);
  let flags = 0;
  if (enabled & GatewayIntentBits.GuildPresences) flags |= ApplicationFlags.GatewayPresenceLimited;
  if (enabled & GatewayIntentBits.GuildMembers) flags |= ApplicationFlags.GatewayGuildMembersLimited;
  if (enabled & GatewayIntentBits.MessageContent) flags |= ApplicationFlags.GatewayMessageContentLimited;
  return flags as ApplicationFlags;
}

/** The shard a guild's events go to, by Discord's formula. */
export function shardOf(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

export function memberWithoutUser(state: SandboxState, member: MemberState): APIGuildMemberNoUser {
  const { user: _user, ...rest } = toGuildMember(state, member);
  return rest;
}

/**
 * A message as MESSAGE_CREATE and MESSAGE_UPDATE carry it: with `guild_id`, the author's partial
 * member (not for webhook and interaction messages) and each mentioned member.
 */
export function gatewayMessage(state: SandboxState, guild: GuildState | null, message: APIMessage, channelType?: ChannelType): GatewayMessageCreateDispatchData {
  const data = structuredClone(message) as GatewayMessageCreateDispatchData;
  if (guild) {
    data.guild_id = guild.id;
    const author = guild.members.get(message.author.id);
    if (author && !message.webhook_id) data.member = memberWithoutUser(state, author);
    data.mentions = message.mentions.map((user) => {
      const member = guild.members.get(user.id);
      return member ? { ...user, member: memberWithoutUser(state, member) } : user;
    });
  }
  if (channelType !== undefined) data.channel_type = channelType as TextChannelType;
  return data;
}

/**
 * GUILD_CREATE as a session with every intent and a large threshold above the member count sees
 * it; the gateway trims members per session. Presences are not modelled: nobody is reported online.
 */
export function gatewayGuild(state: SandboxState, guild: GuildState, app: Application): GatewayGuildCreateDispatchData {
  const bot = guild.members.get(app.botUserId);
  const members = [...guild.members.values()].sort((a, b) => compareSnowflakes(a.userId, b.userId));
  return {
    ...toGuild(guild, false),
    joined_at: bot?.joinedAt ?? discordTimestamp(state.now()),
    large: false,
    unavailable: false,
    member_count: guild.members.size,
    voice_states: [],
    members: members.map((m) => toGuildMember(state, m)),
    // Channels in GUILD_CREATE carry no guild_id, unlike the REST ones.
    channels: sortedChannels(guild).map((c) => structuredClone(c)) as GatewayGuildCreateDispatchData['channels'],
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

/** The bot user as it sees itself in READY. */
export function readyUser(state: SandboxState, app: Application): APIUser {
  return { ...state.botUser(app), verified: true, mfa_enabled: false, email: null };
}

export function readyPayload(
  state: SandboxState,
  app: Application,
  session: { id: string; shard: [number, number] | null; resumeUrl: string },
  guildIds: string[],
): GatewayReadyDispatchData {
  const flags = applicationFlags(app);
  const ready: GatewayReadyDispatchData = {
    v: 10,
    user: readyUser(state, app),
    guilds: guildIds.map((id) => ({ id, unavailable: true })),
    session_id: session.id,
    resume_gateway_url: session.resumeUrl,
    application: { id: app.clientId, flags, flags_new: String(flags) },
  };
  if (session.shard) ready.shard = session.shard;
  return ready;
}
