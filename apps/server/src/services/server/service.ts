import type {
  Channel,
  CreateServerRequest,
  Emoji,
  PlanType,
  PublicUser,
  Role,
  ServerDetails,
  ServerMember,
  ServerSummary,
  Testimonial,
  UserInfo,
  UsersRequest,
} from '@ticket/contracts';
import type { APIGuild, APIGuildMember, APIRole, APIUser } from 'discord-api-types/v10';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { NotFoundError } from '../../http/errors';
import { assertServerAccess, type AuthResolver, type Caller } from '../../http/route';
import type { PlatformClient } from '../../platform/discord';
import * as repo from './repository';

/** Colour of the member's highest coloured role, as the platform shows their name. */
function memberColor(member: APIGuildMember, roles: APIRole[]): number | null {
  const held = new Set(member.roles);
  const coloured = roles.filter((r) => held.has(r.id) && r.color !== 0).sort((a, b) => b.position - a.position);
  return coloured[0]?.color ?? null;
}

/** The server data the dashboard shows: read from the platform with the bot token, cached. */
export class ServerDataService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly platform: PlatformClient,
    private readonly resolver: AuthResolver,
  ) {}

  private async plan(serverId: string): Promise<PlanType> {
    const row = await repo.findServer(this.db, serverId);
    return (row?.plan as PlanType | undefined) ?? 'free';
  }

  /** The guild, or 404 when the bot is not in it. */
  private async requireGuild(serverId: string, fresh = false): Promise<APIGuild> {
    const guild = await this.platform.getGuild(serverId, fresh);
    if (!guild) throw new NotFoundError('The bot is not in this server');
    return guild;
  }

  async getServersBulk(caller: Caller | null, ids: string[]): Promise<ServerSummary[]> {
    let visible = [...new Set(ids)];
    if (caller?.kind === 'user') visible = await repo.memberServerIds(this.db, caller.userId, visible);
    else if (caller?.kind === 'apiKey') visible = visible.filter((id) => id === caller.serverId);
    const rows = await repo.findServers(this.db, visible);
    return rows.map((row) => ({
      serverId: row.id,
      name: row.name,
      iconUrl: this.platform.iconUrl(row.id, row.icon),
      active: row.active === 1,
      subscription: row.plan as PlanType,
    }));
  }

  async createServer(request: CreateServerRequest): Promise<ServerSummary> {
    await repo.upsertActiveServer(this.db, request);
    return {
      serverId: request.serverId,
      name: request.name,
      iconUrl: this.platform.iconUrl(request.serverId, request.icon),
      active: true,
      subscription: await this.plan(request.serverId),
    };
  }

  // --- What the bot runtime saw on the gateway --------------------------------------------------

  /** The bot joined the server: it is active, with its name and owner as the platform has them now. */
  async botAdded(serverId: string): Promise<void> {
    const guild = await this.platform.getGuild(serverId, true);
    if (guild) await repo.upsertActiveServer(this.db, { serverId, name: guild.name, icon: guild.icon, ownerId: guild.owner_id });
  }

  /** The bot left or was removed: the server stays with its data, no longer active. */
  async botRemoved(serverId: string): Promise<void> {
    await repo.deactivateServer(this.db, serverId);
    await this.platform.getGuild(serverId, true);
  }

  /** Roles changed: what is reused of them (lists, access checks) is read again. */
  async rolesChanged(serverId: string, roleMaxAgeSeconds: number): Promise<void> {
    await Promise.all([this.platform.getGuildRoles(serverId, true), this.platform.guildStanding(serverId, roleMaxAgeSeconds, true)]);
  }

  async channelsChanged(serverId: string): Promise<void> {
    await this.platform.getGuildChannels(serverId, true);
  }

  /** A member's roles changed, or they left: their membership as reused is read again. */
  async memberChanged(serverId: string, userId: string, roleMaxAgeSeconds: number): Promise<void> {
    await Promise.all([this.platform.getMember(serverId, userId, true), this.platform.memberStanding(serverId, userId, roleMaxAgeSeconds, true)]);
  }

  async getServer(serverId: string, fresh: boolean): Promise<ServerDetails> {
    const guild = await this.requireGuild(serverId, fresh);
    await repo.refreshServer(this.db, serverId, { name: guild.name, icon: guild.icon, owner_id: guild.owner_id, active: 1 });
    return {
      serverId,
      name: guild.name,
      iconUrl: this.platform.iconUrl(serverId, guild.icon),
      bannerUrl: this.platform.bannerUrl(serverId, guild.banner),
      active: true,
      subscription: await this.plan(serverId),
      ownerId: guild.owner_id,
      memberCount: guild.approximate_member_count ?? null,
    };
  }

  async getChannels(serverId: string, fresh: boolean): Promise<Channel[]> {
    await this.requireGuild(serverId);
    const channels = await this.platform.getGuildChannels(serverId, fresh);
    return channels
      .map((c) => {
        const channel = c as typeof c & Partial<Record<'guild_id' | 'parent_id' | 'position' | 'nsfw' | 'user_limit' | 'icon_emoji', unknown>>;
        return {
          id: c.id,
          type: c.type,
          flags: c.flags,
          guild_id: (channel.guild_id as string | undefined) ?? serverId,
          name: c.name ?? null,
          parent_id: (channel.parent_id as string | null | undefined) ?? null,
          user_limit: channel.user_limit as number | undefined,
          position: (channel.position as number | undefined) ?? 0,
          nsfw: (channel.nsfw as boolean | undefined) ?? false,
          icon_emoji: (channel.icon_emoji as Channel['icon_emoji']) ?? null,
        };
      })
      .sort((a, b) => a.position - b.position);
  }

  async getEmojis(serverId: string, fresh: boolean): Promise<Emoji[]> {
    await this.requireGuild(serverId);
    const emojis = await this.platform.getGuildEmojis(serverId, fresh);
    return emojis.map((e) => ({
      id: e.id,
      name: e.name,
      require_colons: e.require_colons ?? true,
      managed: e.managed ?? false,
      animated: e.animated ?? false,
      available: e.available ?? true,
    }));
  }

  async getRoles(serverId: string, fresh: boolean): Promise<Role[]> {
    await this.requireGuild(serverId);
    const roles = await this.platform.getGuildRoles(serverId, fresh);
    return roles
      .map((r) => ({
        id: r.id,
        name: r.name,
        permissions: r.permissions,
        position: r.position,
        color: r.color,
        hoist: r.hoist,
        managed: r.managed,
        mentionable: r.mentionable,
        icon: r.icon ?? null,
        unicode_emoji: r.unicode_emoji ?? null,
        flags: r.flags,
      }))
      .sort((a, b) => b.position - a.position);
  }

  async getTestimonials(): Promise<Testimonial[]> {
    const rows = await repo.listTestimonials(this.db);
    return rows.map((r) => ({ testimonial: r.testimonial, author: r.author, server: r.server, serverSize: r.server_size }));
  }

  private toServerMember(serverId: string, member: APIGuildMember, roles: APIRole[]): ServerMember | null {
    const user = member.user;
    if (!user) return null;
    return {
      userId: user.id,
      username: user.username,
      displayName: member.nick ?? user.global_name ?? user.username,
      color: memberColor(member, roles),
      nickname: member.nick ?? null,
      userAvatarUrl: this.platform.avatarUrl(user.id, user.avatar),
      serverAvatarUrl: this.platform.memberAvatarUrl(serverId, user.id, member.avatar),
    };
  }

  async getMembers(serverId: string, ids: string[]): Promise<ServerMember[]> {
    await this.requireGuild(serverId);
    const roles = await this.platform.getGuildRoles(serverId);
    const members = await Promise.all([...new Set(ids)].map((id) => this.platform.getMember(serverId, id)));
    return members.flatMap((m) => {
      const mapped = m ? this.toServerMember(serverId, m, roles) : null;
      return mapped ? [mapped] : [];
    });
  }

  async searchMembers(serverId: string, term: string): Promise<ServerMember[]> {
    await this.requireGuild(serverId);
    const [roles, members] = await Promise.all([this.platform.getGuildRoles(serverId), this.platform.searchMembers(serverId, term, 25)]);
    return members.flatMap((m) => {
      const mapped = this.toServerMember(serverId, m, roles);
      return mapped ? [mapped] : [];
    });
  }

  private requireUser(user: APIUser | null): APIUser {
    if (!user) throw new NotFoundError('No such user');
    return user;
  }

  async getUser(userId: string, serverId: string): Promise<UserInfo> {
    await this.requireGuild(serverId);
    const user = this.requireUser(await this.platform.getUser(userId));
    const member = await this.platform.getMember(serverId, userId);
    const roles = member ? await this.platform.getGuildRoles(serverId) : [];
    return {
      discordId: user.id,
      username: user.username,
      displayName: member?.nick ?? user.global_name ?? user.username,
      avatarUrl: this.platform.avatarUrl(user.id, user.avatar),
      guildMember: member
        ? {
            guildId: serverId,
            nickname: member.nick ?? null,
            avatarUrl: this.platform.memberAvatarUrl(serverId, user.id, member.avatar),
            color: memberColor(member, roles),
          }
        : null,
    };
  }

  /** Public profiles; coloured by role only for callers who are staff of the given server. */
  async getUsers(caller: Caller | null, { ids, serverId }: UsersRequest): Promise<PublicUser[]> {
    if (serverId) await assertServerAccess(caller, serverId, 'staff', true, this.resolver);
    const roles = serverId ? await this.platform.getGuildRoles(serverId) : [];
    const users = await Promise.all(
      [...new Set(ids)].map(async (id) => {
        const user = await this.platform.getUser(id);
        if (!user) return null;
        const member = serverId ? await this.platform.getMember(serverId, id) : null;
        return {
          id: user.id,
          name: member?.nick ?? user.global_name ?? user.username,
          avatarUrl: this.platform.avatarUrl(user.id, user.avatar),
          color: member ? memberColor(member, roles) : null,
        };
      }),
    );
    return users.filter((u): u is PublicUser => u !== null);
  }
}
