import { AuditLogEvent, GatewayDispatchEvents } from 'discord-api-types/v10';
import { recordAuditLog } from './audit-log.ts';
import { publishGuildCreate, publishGuildDelete, publishRole } from './platform-events.ts';
import type { GuildState, SandboxState } from './state.ts';

/**
 * The bot joins (install flow, control route) or leaves (REST, control route) a guild, and the
 * gateway hears it as Discord tells it: GUILD_CREATE with the whole guild, or GUILD_DELETE
 * without `unavailable`. A permission change while staying is an update of its managed role.
 */
export function setBotMembership(state: SandboxState, guild: GuildState, member: boolean, permissions?: string, actorId?: string): void {
  const was = state.isBotIn(guild);
  state.setBotMember(guild, member, permissions);
  if (member && !was) {
    if (actorId) recordAuditLog(state, guild.id, { actionType: AuditLogEvent.BotAdd, userId: actorId, targetId: state.botUserId });
    publishGuildCreate(state, guild);
  } else if (!member && was) {
    publishGuildDelete(state, guild.id);
  } else if (member && permissions !== undefined) {
    const role = guild.roles.find((r) => r.managed && r.tags?.bot_id === state.botUserId);
    if (role) publishRole(state, GatewayDispatchEvents.GuildRoleUpdate, guild, role);
  }
}

/** The guilds the bot is in, to tell the gateway what a reset changed. */
export function botGuildIds(state: SandboxState): Set<string> {
  return new Set([...state.guilds.values()].filter((g) => state.isBotIn(g)).map((g) => g.id));
}

/** After a reset: GUILD_CREATE for guilds the bot is back in, GUILD_DELETE for those it no longer is. */
export function publishMembershipChanges(state: SandboxState, before: Set<string>): void {
  const after = botGuildIds(state);
  for (const id of before) if (!after.has(id)) publishGuildDelete(state, id);
  for (const id of after) if (!before.has(id)) publishGuildCreate(state, state.guilds.get(id)!);
}
