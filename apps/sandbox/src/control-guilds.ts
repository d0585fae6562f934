import type { FastifyInstance } from 'fastify';
import { AuditLogEvent, ChannelType, GatewayDispatchEvents, PermissionFlagsBits } from 'discord-api-types/v10';
import type { APIAuditLogChange, APIRole, ChannelFlags, RoleFlags } from 'discord-api-types/v10';
import { recordAuditLog } from './audit-log.ts';
import { setBotMembership } from './bot-membership.ts';
import { ControlError, controlBody } from './control-error.ts';
import { answer } from './control-interactions.ts';
import { privilegedIntentSwitches } from './applications.ts';
import type { FixtureChannel, PrivilegedIntentSettings } from './fixtures.ts';
import { publishRole, publishRoleDelete } from './platform-events.ts';
import { discordTimestamp, isSnowflake } from './snowflake.ts';
import type { GuildState, SandboxState } from './state.ts';

type Body = Record<string, unknown>;
type GuildRoute = { Params: { guildId: string }; Body: unknown };
type RoleRoute = { Params: { guildId: string; roleId: string }; Body: unknown };

// What a new server's @everyone may do in the client's defaults.
const DEFAULT_EVERYONE = (
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.AddReactions |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.UseExternalEmojis |
  PermissionFlagsBits.CreateInstantInvite |
  PermissionFlagsBits.ChangeNickname |
  PermissionFlagsBits.Connect |
  PermissionFlagsBits.Speak
).toString();
const NO_ROLE_FLAGS = 0 as RoleFlags;
const NO_CHANNEL_FLAGS = 0 as ChannelFlags;
const INTENT_KEYS: (keyof PrivilegedIntentSettings)[] = ['guildMembers', 'guildPresences', 'messageContent'];

/** A control body's `privilegedIntents`: booleans for some of the portal's three switches. */
export function privilegedIntentsOf(value: unknown): Partial<PrivilegedIntentSettings> {
  const intents = controlBody(value);
  const bad = Object.entries(intents).filter(([k, v]) => !INTENT_KEYS.includes(k as keyof PrivilegedIntentSettings) || typeof v !== 'boolean');
  if (bad.length > 0) throw new ControlError(400, `privilegedIntents takes booleans for ${INTENT_KEYS.join(', ')}`);
  return intents as Partial<PrivilegedIntentSettings>;
}

function guildOf(state: SandboxState, guildId: string): GuildState {
  const guild = state.guilds.get(guildId);
  if (!guild) throw new ControlError(404, `unknown guild ${guildId}`);
  return guild;
}

/** Who the audit log says did it: `actorId` when given (a member), else the owner. */
function actorOf(guild: GuildState, body: Body): string {
  const actorId = body.actorId ?? guild.owner_id;
  if (typeof actorId !== 'string' || !guild.members.has(actorId)) throw new ControlError(400, 'actorId must be a member of the guild');
  return actorId;
}

function roleFields(body: Body, role: Partial<APIRole>): Partial<APIRole> {
  const changes: Partial<APIRole> = {};
  if (body.name !== undefined) {
    if (typeof body.name !== 'string' || body.name.trim() === '' || body.name.length > 100) throw new ControlError(400, 'name must be 1 to 100 characters');
    changes.name = body.name;
  }
  if (body.permissions !== undefined) {
    if (typeof body.permissions !== 'string' || !/^\d+$/.test(body.permissions)) throw new ControlError(400, 'permissions must be a decimal string');
    changes.permissions = body.permissions;
  }
  if (body.color !== undefined) {
    if (typeof body.color !== 'number' || !Number.isInteger(body.color) || body.color < 0 || body.color > 0xffffff) throw new ControlError(400, 'color must be an RGB integer');
    changes.color = body.color;
    changes.colors = { primary_color: body.color, secondary_color: null, tertiary_color: null };
  }
  for (const key of ['hoist', 'mentionable'] as const) {
    if (body[key] === undefined) continue;
    if (typeof body[key] !== 'boolean') throw new ControlError(400, `${key} must be a boolean`);
    changes[key] = body[key];
  }
  if (role.managed && changes.name !== undefined) throw new ControlError(400, 'a managed role cannot be renamed');
  return changes;
}

function auditChanges(before: Partial<APIRole>, after: Partial<APIRole>): APIAuditLogChange[] {
  return (Object.keys(after) as (keyof APIRole)[])
    .filter((key) => key !== 'colors' && JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => ({ key, old_value: before[key], new_value: after[key] }) as APIAuditLogChange);
}

/**
 * Changes to guilds as their owners and admins make them in the client: new guilds (to spread
 * guilds over shards), roles, and the application's privileged intents in the developer portal.
 */
export function registerGuildControlRoutes(app: FastifyInstance, state: SandboxState, prefix: string): void {
  app.post<{ Body: unknown }>(`${prefix}/guilds`, async (request, reply) =>
    answer(reply, 201, async () => {
      const body = controlBody(request.body);
      if (body.id !== undefined && (!isSnowflake(body.id) || String(body.id).length < 17)) throw new ControlError(400, 'id must be a 17-20 digit snowflake');
      const id = (body.id as string | undefined) ?? state.nextId();
      if (state.guilds.has(id)) throw new ControlError(409, `guild ${id} already exists`);
      if (typeof body.name !== 'string' || body.name.trim().length < 2 || body.name.length > 100) throw new ControlError(400, 'name must be 2 to 100 characters');
      const ownerId = body.ownerId;
      if (typeof ownerId !== 'string' || !state.users.has(ownerId)) throw new ControlError(404, `unknown owner ${String(ownerId)}`);
      const memberIds = body.memberIds ?? [];
      if (!Array.isArray(memberIds) || memberIds.some((m) => typeof m !== 'string' || !state.users.has(m))) throw new ControlError(400, 'memberIds must be ids of known users');
      if (body.botMember !== undefined && typeof body.botMember !== 'boolean') throw new ControlError(400, 'botMember must be a boolean');
      const categoryId = state.nextId();
      const channels: FixtureChannel[] = [
        { id: categoryId, type: ChannelType.GuildCategory, name: 'Text Channels', position: 0, parent_id: null, permission_overwrites: [], flags: NO_CHANNEL_FLAGS },
        {
          id: state.nextId(),
          type: ChannelType.GuildText,
          name: 'general',
          position: 0,
          parent_id: categoryId,
          topic: null,
          nsfw: false,
          rate_limit_per_user: 0,
          last_message_id: null,
          permission_overwrites: [],
          flags: NO_CHANNEL_FLAGS,
        },
      ];
      const everyone: APIRole = {
        id,
        name: '@everyone',
        color: 0,
        colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
        hoist: false,
        icon: null,
        unicode_emoji: null,
        position: 0,
        permissions: DEFAULT_EVERYONE,
        managed: false,
        mentionable: false,
        flags: NO_ROLE_FLAGS,
      };
      const guild: GuildState = { id, name: body.name, icon: null, banner: null, owner_id: ownerId, features: [], roles: [everyone], channels, emojis: [], members: new Map() };
      const joinedAt = discordTimestamp(state.now());
      for (const userId of new Set([ownerId, ...(memberIds as string[])])) {
        guild.members.set(userId, { userId, roles: [], nick: null, avatar: null, joinedAt, premiumSince: null, pending: false, communicationDisabledUntil: null, flags: 0 });
      }
      state.guilds.set(id, guild);
      if (body.botMember !== false) setBotMembership(state, guild, true, { actorId: ownerId });
      return { id, name: guild.name, ownerId, botMember: state.isBotIn(guild), channels: channels.map((c) => ({ id: c.id, name: c.name, type: c.type })) };
    }),
  );

  app.post<GuildRoute>(`${prefix}/guilds/:guildId/roles`, async (request, reply) =>
    answer(reply, 201, async () => {
      const guild = guildOf(state, request.params.guildId);
      const body = controlBody(request.body);
      const actorId = actorOf(guild, body);
      if (body.name === undefined) throw new ControlError(400, 'name is required');
      const fields = roleFields(body, {});
      const role: APIRole = {
        id: state.nextId(),
        name: fields.name!,
        color: 0,
        colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
        hoist: false,
        icon: null,
        unicode_emoji: null,
        position: guild.roles.reduce((max, r) => Math.max(max, r.position), 0) + 1,
        permissions: '0',
        managed: false,
        mentionable: false,
        flags: NO_ROLE_FLAGS,
        ...fields,
      };
      guild.roles.push(role);
      recordAuditLog(state, guild.id, { actionType: AuditLogEvent.RoleCreate, userId: actorId, targetId: role.id, changes: auditChanges({}, fields) });
      publishRole(state, GatewayDispatchEvents.GuildRoleCreate, guild, role);
      return structuredClone(role);
    }),
  );

  app.patch<RoleRoute>(`${prefix}/guilds/:guildId/roles/:roleId`, async (request, reply) =>
    answer(reply, 200, async () => {
      const guild = guildOf(state, request.params.guildId);
      const role = guild.roles.find((r) => r.id === request.params.roleId);
      if (!role) throw new ControlError(404, `unknown role ${request.params.roleId} in ${guild.name}`);
      const body = controlBody(request.body);
      const actorId = actorOf(guild, body);
      const fields = roleFields(body, role);
      const before = structuredClone(role);
      Object.assign(role, fields);
      recordAuditLog(state, guild.id, { actionType: AuditLogEvent.RoleUpdate, userId: actorId, targetId: role.id, changes: auditChanges(before, fields) });
      publishRole(state, GatewayDispatchEvents.GuildRoleUpdate, guild, role);
      return structuredClone(role);
    }),
  );

  app.delete<RoleRoute>(`${prefix}/guilds/:guildId/roles/:roleId`, async (request, reply) =>
    answer(reply, 200, async () => {
      const guild = guildOf(state, request.params.guildId);
      const { roleId } = request.params;
      const role = guild.roles.find((r) => r.id === roleId);
      if (!role) throw new ControlError(404, `unknown role ${roleId} in ${guild.name}`);
      if (roleId === guild.id || role.managed) throw new ControlError(400, '@everyone and managed roles cannot be deleted');
      const actorId = actorOf(guild, controlBody(request.body));
      guild.roles = guild.roles.filter((r) => r !== role);
      for (const member of guild.members.values()) member.roles = member.roles.filter((r) => r !== roleId);
      for (const channel of guild.channels) {
        if (channel.permission_overwrites) channel.permission_overwrites = channel.permission_overwrites.filter((o) => o.id !== roleId);
      }
      recordAuditLog(state, guild.id, { actionType: AuditLogEvent.RoleDelete, userId: actorId, targetId: roleId, changes: [{ key: 'name', old_value: role.name }] });
      publishRoleDelete(state, guild, roleId);
      return { deleted: roleId };
    }),
  );

  const describeApplication = () => ({ id: state.application.clientId, privilegedIntents: privilegedIntentSwitches(state.application) });

  app.get(`${prefix}/application`, async () => describeApplication());

  /** The portal's privileged intent switches; sessions already connected keep what they identified with. */
  app.patch<{ Body: unknown }>(`${prefix}/application`, async (request, reply) =>
    answer(reply, 200, async () => {
      const body = controlBody(request.body);
      const unknown = Object.keys(body).filter((k) => k !== 'privilegedIntents');
      if (unknown.length > 0) throw new ControlError(400, `unknown key(s): ${unknown.join(', ')} (known: privilegedIntents)`);
      state.application.privilegedIntents = { ...state.application.privilegedIntents, ...privilegedIntentsOf(body.privilegedIntents) };
      return describeApplication();
    }),
  );
}
