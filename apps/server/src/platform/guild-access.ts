import { ChannelType, PermissionFlagsBits, type APIChannel, type APIRole } from 'discord-api-types/v10';
import { BadRequestError } from '../http/errors';
import type { PlatformClient } from './discord';

/** Channel types the bot posts messages in (panels, logs): text and announcement channels. */
export const POSTABLE_CHANNEL_TYPES: ReadonlySet<number> = new Set([ChannelType.GuildText, ChannelType.GuildAnnouncement]);

/** What the bot needs in a channel to post an embed there. */
const POST_PERMISSIONS = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;

/**
 * A member's permissions in a channel, as the platform computes them: the server's base
 * permissions (@everyone and every role held; administrators have all), then the channel's
 * overwrites for @everyone, for the roles held (denies before allows), and for the member.
 */
export function channelPermissions(guildId: string, ownerId: string | undefined, roles: APIRole[], memberId: string, memberRoles: string[], channel: APIChannel): bigint {
  if (ownerId === memberId) return ~0n;
  const held = new Set(memberRoles);
  let base = 0n;
  for (const role of roles) if (role.id === guildId || held.has(role.id)) base |= BigInt(role.permissions);
  if ((base & PermissionFlagsBits.Administrator) !== 0n) return ~0n;
  const overwrites = 'permission_overwrites' in channel ? (channel.permission_overwrites ?? []) : [];
  const everyone = overwrites.find((o) => o.id === guildId);
  if (everyone) base = (base & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.id !== guildId && held.has(o.id)) {
      allow |= BigInt(o.allow);
      deny |= BigInt(o.deny);
    }
  }
  base = (base & ~deny) | allow;
  const own = overwrites.find((o) => o.id === memberId);
  if (own) base = (base & ~BigInt(own.deny)) | BigInt(own.allow);
  return base;
}

/**
 * The one place that checks a platform id from a request against the server it was sent for,
 * before the bot acts on it: a channel, category, role or member of another server (or of none)
 * is refused with a 400 naming the field. Lists come from the platform cache; an id not found
 * there is looked up once more afresh, so something created a moment ago is not refused.
 */
export class GuildAccess {
  constructor(private readonly platform: PlatformClient) {}

  private async channel(serverId: string, channelId: string): Promise<APIChannel | undefined> {
    const cached = (await this.platform.getGuildChannels(serverId)).find((c) => c.id === channelId);
    return cached ?? (await this.platform.getGuildChannels(serverId, true)).find((c) => c.id === channelId);
  }

  /** A text or announcement channel of the server where the bot may post embeds. */
  async assertPostable(serverId: string, channelId: string, field: string, what = 'The selected channel'): Promise<APIChannel> {
    const channel = await this.channel(serverId, channelId);
    if (!channel) throw new BadRequestError(`${what} is not in this server`, field);
    if (!POSTABLE_CHANNEL_TYPES.has(channel.type)) throw new BadRequestError(`${what} must be a text or announcement channel`, field);
    const [guild, roles, botId] = await Promise.all([this.platform.getGuild(serverId), this.platform.getGuildRoles(serverId), this.platform.botUserId(serverId)]);
    const bot = await this.platform.getMember(serverId, botId);
    const permissions = bot ? channelPermissions(serverId, guild?.owner_id, roles, botId, bot.roles, channel) : 0n;
    if ((permissions & POST_PERMISSIONS) !== POST_PERMISSIONS) {
      throw new BadRequestError(`${what} does not let the bot post there (it needs View Channel, Send Messages and Embed Links)`, field);
    }
    return channel;
  }

  /** A channel of the server that is the ticket's own: a text channel, not a category or a thread. */
  async assertTicketChannel(serverId: string, channelId: string, field: string): Promise<void> {
    const channel = await this.channel(serverId, channelId);
    if (!channel || channel.type !== ChannelType.GuildText) throw new BadRequestError(`Channel ${channelId} is not a text channel of this server`, field);
  }

  /** Categories of the server. */
  async assertCategories(serverId: string, ids: string[], field: string): Promise<void> {
    for (const id of ids) {
      const channel = await this.channel(serverId, id);
      if (!channel || channel.type !== ChannelType.GuildCategory) throw new BadRequestError(`${id} is not a category of this server`, field);
    }
  }

  /** Roles of the server (the @everyone role included). */
  async assertRoles(serverId: string, ids: string[], field: string): Promise<void> {
    if (ids.length === 0) return;
    let known = new Set((await this.platform.getGuildRoles(serverId)).map((r) => r.id));
    if (ids.some((id) => !known.has(id))) known = new Set((await this.platform.getGuildRoles(serverId, true)).map((r) => r.id));
    const unknown = ids.find((id) => !known.has(id));
    if (unknown) throw new BadRequestError(`${unknown} is not a role of this server`, field);
  }

  /** A member of the server right now. */
  async assertMember(serverId: string, userId: string, field: string): Promise<void> {
    const member = (await this.platform.getMember(serverId, userId)) ?? (await this.platform.getMember(serverId, userId, true));
    if (!member) throw new BadRequestError(`User ${userId} is not a member of this server`, field);
  }
}
