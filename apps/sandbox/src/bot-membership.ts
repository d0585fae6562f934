import { AuditLogEvent, GatewayDispatchEvents } from 'discord-api-types/v10';
import type { Application } from './applications.ts';
import { recordAuditLog } from './audit-log.ts';
import { publishGuildCreate, publishGuildDelete, publishRole } from './platform-events.ts';
import type { GuildState, SandboxState } from './state.ts';

export interface MembershipChange {
  /** The application whose bot joins or leaves; the main one unless given. */
  app?: Application;
  /** The permissions of its managed role when it joins, or its new ones while it stays. */
  permissions?: string;
  /** Who added it, for the audit log. */
  actorId?: string;
}

/**
 * A bot joins (install flow, control route) or leaves (REST, control route) a guild, and its
 * gateway sessions hear it as Discord tells it: GUILD_CREATE with the whole guild, or GUILD_DELETE
 * without `unavailable`. A permission change while staying is an update of its managed role.
 * White-label bots join and leave the same way as the main one, each on its own.
 */
export function setBotMembership(state: SandboxState, guild: GuildState, member: boolean, change: MembershipChange = {}): void {
  const app = change.app ?? state.application;
  const { permissions, actorId } = change;
  const was = state.isBotIn(guild, app);
  state.setBotMember(guild, member, permissions, app);
  if (member && !was) {
    if (actorId) recordAuditLog(state, guild.id, { actionType: AuditLogEvent.BotAdd, userId: actorId, targetId: app.botUserId });
    publishGuildCreate(state, guild, app);
  } else if (!member && was) {
    publishGuildDelete(state, guild.id, app);
  } else if (member && permissions !== undefined) {
    const role = state.botRoles(guild, app)[0];
    if (role) publishRole(state, GatewayDispatchEvents.GuildRoleUpdate, guild, role);
  }
}

export type BotsSnapshot = Map<string, { token: string | null; guildIds: Set<string> }>;

/** Each application's token and the guilds its bot is in, to tell the gateway what a reset changed. */
export function snapshotBots(state: SandboxState): BotsSnapshot {
  return new Map([...state.applications.values()].map((app) => [app.clientId, { token: app.botToken, guildIds: new Set(state.guildIdsOf(app)) }]));
}

/**
 * After a reset: GUILD_CREATE for guilds a bot is back in, GUILD_DELETE for those it no longer
 * is. An application the reset removed (made by a control route), or whose token it changed back,
 * loses its sessions (4004), as their token no longer works.
 */
export function publishMembershipChanges(state: SandboxState, before: BotsSnapshot): void {
  const after = snapshotBots(state);
  for (const [clientId, was] of before) {
    const app = state.applications.get(clientId);
    if (!app || app.botToken !== was.token) {
      state.events.revoked(clientId);
      continue;
    }
    const now = after.get(clientId)!.guildIds;
    for (const id of was.guildIds) if (!now.has(id)) publishGuildDelete(state, id, app);
    for (const id of now) if (!was.guildIds.has(id)) publishGuildCreate(state, state.guilds.get(id)!, app);
  }
}
