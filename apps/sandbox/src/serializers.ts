import {
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildMFALevel,
  GuildNSFWLevel,
} from 'discord-api-types/v10';
import type {
  APIChannel,
  APIGuild,
  APIGuildMember,
  APIUser,
  GuildPremiumTier,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  Locale,
  RESTAPIPartialCurrentUserGuild,
} from 'discord-api-types/v10';
import type { FixtureChannel, FixtureUser } from './fixtures.ts';
import type { GuildState, MemberState, SandboxState } from './state.ts';

export function memberCount(guild: GuildState): number {
  return guild.members.size;
}

/** Deterministic so tests can assert it; roughly "40% online" like a typical community. */
export function presenceCount(guild: GuildState): number {
  return Math.ceil(guild.members.size * 0.4);
}

/** The user object a user sees of themselves: private fields, and email only with that scope. */
export function toCurrentUser(user: FixtureUser, includeEmail: boolean): APIUser {
  const self: APIUser = {
    id: user.id,
    username: user.username,
    discriminator: user.discriminator ?? '0',
    global_name: user.global_name,
    avatar: user.avatar,
    banner: user.banner ?? null,
    accent_color: user.accent_color ?? null,
    locale: user.locale,
    mfa_enabled: user.mfa_enabled ?? false,
    premium_type: user.premium_type ?? 0,
    flags: user.public_flags ?? 0,
    public_flags: user.public_flags ?? 0,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
  if (includeEmail) {
    self.email = user.email;
    self.verified = user.verified ?? true;
  }
  return self;
}

export function toGuildMember(state: SandboxState, member: MemberState): APIGuildMember {
  const user = state.publicUser(member.userId);
  if (!user) throw new Error(`member ${member.userId} has no user`);
  return {
    user,
    nick: member.nick,
    avatar: member.avatar,
    banner: null,
    roles: [...member.roles],
    joined_at: member.joinedAt,
    premium_since: member.premiumSince,
    deaf: false,
    mute: false,
    flags: member.flags,
    pending: member.pending,
    communication_disabled_until: member.communicationDisabledUntil,
    avatar_decoration_data: null,
    collectibles: null,
  };
}

export function toChannel(guild: GuildState, channel: FixtureChannel): APIChannel {
  return { ...structuredClone(channel), guild_id: guild.id } as APIChannel;
}

/** Sorted like Discord's client does: by position, then id, categories not special-cased. */
export function sortedChannels(guild: GuildState): FixtureChannel[] {
  return [...guild.channels].sort((a, b) => a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

export function toGuild(guild: GuildState, withCounts: boolean): APIGuild {
  const result: APIGuild = {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    icon_hash: guild.icon,
    splash: guild.splash ?? null,
    discovery_splash: null,
    banner: guild.banner,
    description: guild.description ?? null,
    owner_id: guild.owner_id,
    region: 'deprecated',
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: (guild.verification_level ?? 0) as GuildVerificationLevel,
    default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicit_content_filter: GuildExplicitContentFilter.AllMembers,
    roles: [...guild.roles].sort((a, b) => a.position - b.position).map((r) => structuredClone(r)),
    emojis: guild.emojis.map((e) => structuredClone(e)),
    stickers: [],
    features: [...guild.features],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: guild.system_channel_id ?? null,
    system_channel_flags: 0 as GuildSystemChannelFlags,
    rules_channel_id: guild.rules_channel_id ?? null,
    max_presences: null,
    max_members: 25_000_000,
    vanity_url_code: null,
    premium_tier: (guild.premium_tier ?? 0) as GuildPremiumTier,
    premium_subscription_count: guild.premium_subscription_count ?? 0,
    preferred_locale: (guild.preferred_locale ?? 'en-US') as Locale,
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw_level: GuildNSFWLevel.Default,
    premium_progress_bar_enabled: false,
    hub_type: null,
    safety_alerts_channel_id: null,
    incidents_data: null,
  };
  if (withCounts) {
    result.approximate_member_count = memberCount(guild);
    result.approximate_presence_count = presenceCount(guild);
  }
  return result;
}

export function toCurrentUserGuild(
  state: SandboxState,
  guild: GuildState,
  userId: string,
  withCounts: boolean,
): RESTAPIPartialCurrentUserGuild {
  const result: RESTAPIPartialCurrentUserGuild = {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    banner: guild.banner,
    owner: guild.owner_id === userId,
    permissions: state.memberPermissions(guild, userId).toString(),
    features: [...guild.features],
  };
  if (withCounts) {
    result.approximate_member_count = memberCount(guild);
    result.approximate_presence_count = presenceCount(guild);
  }
  return result;
}
