import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuditLogEvent, ChannelType, GatewayDispatchEvents, OverwriteType, PermissionFlagsBits, RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { APIChannel, APIOverwrite, AuditLogOptionsType, ChannelFlags } from 'discord-api-types/v10';
import { channelForBot } from './api-channels.ts';
import { auditLogReason, recordAuditLog } from './audit-log.ts';
import { requireBot } from './api-auth.ts';
import { snowflakeParam } from './api-query.ts';
import { MAX_GUILD_CHANNELS, checkOverwrite, overwriteTargetExists, validateCreateChannel, validateModifyChannel } from './channel-validation.ts';
import { DiscordApiError, missingAccess, missingPermissions, unknownGuild } from './errors.ts';
import type { Application } from './applications.ts';
import type { FixtureChannel } from './fixtures.ts';
import { Problems, checkBody } from './form-validation.ts';
import { hasPermission } from './permissions.ts';
import { publishChannel } from './platform-events.ts';
import { toChannel } from './serializers.ts';
import type { GuildState, SandboxState } from './state.ts';

type GuildRoute = { Params: { guildId: string }; Body: unknown };
type ChannelRoute<Extra = object> = { Params: { channelId: string } & Extra; Body: unknown };

const ADMIN = PermissionFlagsBits.Administrator;
// A bitfield enum without a zero member, yet zero is what a fresh channel carries.
const NO_CHANNEL_FLAGS = 0 as ChannelFlags;

/**
 * The escalation rule Discord added in January 2021: an overwrite may only allow or deny what the
 * bot itself holds, and Manage Permissions (the Manage Roles bit) only an administrator, or a bot
 * an overwrite in the channel already grants it to, may hand out. Unchanged overwrites are not
 * re-checked, so a bot can rewrite a list that contains other people's grants.
 */
function assertCanGrant(
  held: bigint,
  overwrites: readonly APIOverwrite[],
  previous: readonly APIOverwrite[],
  mayGrantManageRoles: boolean,
): void {
  if (hasPermission(held, ADMIN)) return;
  for (const overwrite of overwrites) {
    const before = previous.find((p) => p.id === overwrite.id && p.type === overwrite.type);
    if (before && BigInt(before.allow) === BigInt(overwrite.allow) && BigInt(before.deny) === BigInt(overwrite.deny)) continue;
    const bits = BigInt(overwrite.allow) | BigInt(overwrite.deny);
    if ((bits & ~held) !== 0n) throw missingPermissions();
    if ((bits & PermissionFlagsBits.ManageRoles) !== 0n && !mayGrantManageRoles) throw missingPermissions();
  }
}

/**
 * Deletes a guild channel as Discord does, whoever asks (the bot over REST, a member by hand):
 * its channels become uncategorised, the audit log says who did it, and the gateway is told.
 */
export function removeChannel(state: SandboxState, guild: GuildState, channel: FixtureChannel, userId: string, reason: string | null): APIChannel {
  const deleted = toChannel(guild, channel);
  guild.channels = guild.channels.filter((c) => c !== channel);
  for (const child of guild.channels) {
    if ('parent_id' in child && child.parent_id === channel.id) {
      (child as { parent_id: string | null }).parent_id = null;
      publishChannel(state, GatewayDispatchEvents.ChannelUpdate, guild, child);
    }
  }
  state.botCreatedChannels.delete(channel.id);
  for (const [memberId, modal] of state.openModals) if (modal.channelId === channel.id) state.openModals.delete(memberId);
  recordAuditLog(state, guild.id, {
    actionType: AuditLogEvent.ChannelDelete,
    userId,
    targetId: channel.id,
    changes: [
      { key: 'name', old_value: channel.name },
      { key: 'type', old_value: channel.type },
      { key: 'permission_overwrites', old_value: structuredClone(channel.permission_overwrites ?? []) },
    ],
    reason,
  });
  publishChannel(state, GatewayDispatchEvents.ChannelDelete, guild, channel);
  return deleted;
}

export function registerChannelManagementRoutes(api: FastifyInstance, state: SandboxState): void {
  const botRoleIds = (guild: GuildState, app: Application): string[] => guild.members.get(app.botUserId)?.roles ?? [];

  /** Whether an overwrite in the channel itself allows the bot Manage Permissions. */
  const botHasManageRolesOverwrite = (guild: GuildState, channel: FixtureChannel, app: Application): boolean => {
    const roles = botRoleIds(guild, app);
    return (channel.permission_overwrites ?? []).some(
      (o) =>
        (BigInt(o.allow) & PermissionFlagsBits.ManageRoles) !== 0n &&
        ((o.type === OverwriteType.Member && o.id === app.botUserId) || (o.type === OverwriteType.Role && roles.includes(o.id))),
    );
  };

  /** For edits Discord counts what the bot holds in the guild or in the channel's category. */
  const heldForEdit = (guild: GuildState, parentId: string | null, app: Application): bigint => {
    const parent = parentId ? guild.channels.find((c) => c.id === parentId) : undefined;
    return state.memberPermissions(guild, app.botUserId) | (parent ? state.botChannelPermissions(guild, parent, app) : 0n);
  };

  const parentOf = (channel: FixtureChannel): string | null => ('parent_id' in channel ? (channel.parent_id ?? null) : null);

  api.post<GuildRoute>('/guilds/:guildId/channels', async (request, reply) => {
    const app = requireBot(state, request);
    const guild = state.guilds.get(snowflakeParam(request.params.guildId, 'guild_id'));
    if (!guild) throw unknownGuild();
    if (!state.isBotIn(guild, app)) throw missingAccess();
    // Creation is judged on guild-level permissions only; a category grant does not count.
    const held = state.memberPermissions(guild, app.botUserId);
    if (!hasPermission(held, PermissionFlagsBits.ManageChannels)) throw missingPermissions();
    const draft = validateCreateChannel(request.body, guild);
    if (guild.channels.length >= MAX_GUILD_CHANNELS) {
      throw new DiscordApiError(400, `Maximum number of guild channels reached (${MAX_GUILD_CHANNELS})`, RESTJSONErrorCodes.MaximumNumberOfGuildChannelsReached);
    }
    if (draft.overwrites) assertCanGrant(held, draft.overwrites, [], false);
    const parent = draft.parentId ? guild.channels.find((c) => c.id === draft.parentId) : undefined;
    // Without explicit overwrites a channel starts synced with its category, as in the client.
    const overwrites = draft.overwrites ?? structuredClone(parent?.permission_overwrites ?? []);
    const id = state.nextId();
    const position = guild.channels.reduce((max, c) => Math.max(max, c.position), -1) + 1;
    const channel = (
      draft.type === ChannelType.GuildCategory
        ? { id, type: draft.type, name: draft.name, position, parent_id: null, permission_overwrites: overwrites, flags: NO_CHANNEL_FLAGS }
        : {
            id,
            type: draft.type,
            name: draft.name,
            position,
            parent_id: parent?.id ?? null,
            topic: draft.topic ?? null,
            nsfw: false,
            rate_limit_per_user: 0,
            last_message_id: null,
            permission_overwrites: overwrites,
            flags: NO_CHANNEL_FLAGS,
          }
    ) as FixtureChannel;
    guild.channels.push(channel);
    state.botCreatedChannels.add(id);
    recordAuditLog(state, guild.id, {
      actionType: AuditLogEvent.ChannelCreate,
      userId: app.botUserId,
      targetId: id,
      changes: [
        { key: 'name', new_value: channel.name },
        { key: 'type', new_value: channel.type },
      ],
      reason: auditLogReason(request),
    });
    publishChannel(state, GatewayDispatchEvents.ChannelCreate, guild, channel);
    return reply.code(201).send(toChannel(guild, channel));
  });

  api.patch<ChannelRoute>('/channels/:channelId', async (request) => {
    const { app, guild, channel, permissions } = channelForBot(state, request);
    if (!hasPermission(permissions, PermissionFlagsBits.ManageChannels)) throw missingPermissions();
    const changes = validateModifyChannel(request.body, guild, channel);
    const parentId = changes.parentId !== undefined ? changes.parentId : parentOf(channel);
    let overwrites = changes.overwrites;
    if (changes.lockPermissions && parentId) overwrites = structuredClone(guild.channels.find((c) => c.id === parentId)?.permission_overwrites ?? []);
    if (overwrites !== undefined) {
      if (!hasPermission(permissions, PermissionFlagsBits.ManageRoles)) throw missingPermissions();
      const held = heldForEdit(guild, parentId, app);
      assertCanGrant(held, overwrites, channel.permission_overwrites ?? [], hasPermission(held, ADMIN) || botHasManageRolesOverwrite(guild, channel, app));
    }
    const target = channel as { name: string; parent_id?: string | null; topic?: string | null; permission_overwrites?: APIOverwrite[] };
    if (changes.name !== undefined) target.name = changes.name;
    if (changes.parentId !== undefined && channel.type !== ChannelType.GuildCategory) target.parent_id = changes.parentId;
    if (changes.topic !== undefined && 'topic' in channel) target.topic = changes.topic;
    if (overwrites !== undefined) target.permission_overwrites = overwrites;
    recordAuditLog(state, guild.id, { actionType: AuditLogEvent.ChannelUpdate, userId: app.botUserId, targetId: channel.id, reason: auditLogReason(request) });
    publishChannel(state, GatewayDispatchEvents.ChannelUpdate, guild, channel);
    return toChannel(guild, channel);
  });

  api.delete<ChannelRoute>('/channels/:channelId', async (request) => {
    const { app, guild, channel, permissions } = channelForBot(state, request);
    if (!hasPermission(permissions, PermissionFlagsBits.ManageChannels)) throw missingPermissions();
    return removeChannel(state, guild, channel, app.botUserId, auditLogReason(request));
  });

  const overwriteRoute = (request: FastifyRequest<ChannelRoute<{ overwriteId: string }>>) => {
    const access = channelForBot(state, request);
    const overwriteId = snowflakeParam(request.params.overwriteId, 'overwrite_id');
    if (!hasPermission(access.permissions, PermissionFlagsBits.ManageRoles)) throw missingPermissions();
    return { ...access, overwriteId };
  };

  api.put<ChannelRoute<{ overwriteId: string }>>('/channels/:channelId/permissions/:overwriteId', async (request, reply) => {
    const { app, guild, channel, overwriteId } = overwriteRoute(request);
    const problems = new Problems();
    const parsed = checkOverwrite(problems, checkBody(request.body), [], overwriteId);
    problems.throwIfAny();
    const overwrite = parsed!;
    if (!overwriteTargetExists(guild, overwrite)) {
      throw overwrite.type === OverwriteType.Role
        ? new DiscordApiError(404, 'Unknown Role', RESTJSONErrorCodes.UnknownRole)
        : new DiscordApiError(404, 'Unknown Member', RESTJSONErrorCodes.UnknownMember);
    }
    const current = channel.permission_overwrites ?? [];
    const held = heldForEdit(guild, parentOf(channel), app);
    assertCanGrant(held, [overwrite], current, hasPermission(held, ADMIN) || botHasManageRolesOverwrite(guild, channel, app));
    channel.permission_overwrites = [...current.filter((o) => o.id !== overwriteId), overwrite];
    const existed = current.some((o) => o.id === overwriteId);
    const actionType = existed ? AuditLogEvent.ChannelOverwriteUpdate : AuditLogEvent.ChannelOverwriteCreate;
    recordAuditLog(state, guild.id, { actionType, userId: app.botUserId, targetId: channel.id, options: { id: overwriteId, type: String(overwrite.type) as AuditLogOptionsType }, reason: auditLogReason(request) });
    publishChannel(state, GatewayDispatchEvents.ChannelUpdate, guild, channel);
    return reply.code(204).send();
  });

  api.delete<ChannelRoute<{ overwriteId: string }>>('/channels/:channelId/permissions/:overwriteId', async (request, reply) => {
    const { app, guild, channel, overwriteId } = overwriteRoute(request);
    const removed = (channel.permission_overwrites ?? []).find((o) => o.id === overwriteId);
    channel.permission_overwrites = (channel.permission_overwrites ?? []).filter((o) => o.id !== overwriteId);
    if (removed) {
      recordAuditLog(state, guild.id, {
        actionType: AuditLogEvent.ChannelOverwriteDelete,
        userId: app.botUserId,
        targetId: channel.id,
        options: { id: overwriteId, type: String(removed.type) as AuditLogOptionsType },
        reason: auditLogReason(request),
      });
      publishChannel(state, GatewayDispatchEvents.ChannelUpdate, guild, channel);
    }
    return reply.code(204).send();
  });
}
