import { PermissionFlagsBits } from 'discord-api-types/v10';
import { ControlError } from './control-error.ts';
import type { FixtureChannel, FixtureUser } from './fixtures.ts';
import { hasPermission } from './permissions.ts';
import type { EphemeralMessage, GuildState, SandboxState, StoredMessage } from './state.ts';

export interface MemberContext {
  guild: GuildState;
  channel: FixtureChannel;
  user: FixtureUser;
  /** The member's permissions in the channel, overwrites included. */
  permissions: bigint;
}

/**
 * What every member action checks first, with messages that say which part is wrong: the guild,
 * the channel in it, the person, their membership, and that they can see the channel.
 */
export function memberContext(state: SandboxState, guildId: string, channelId: string, userId: string): MemberContext {
  const guild = state.guilds.get(guildId);
  if (!guild) throw new ControlError(404, `unknown guild ${guildId}`);
  const channel = guild.channels.find((c) => c.id === channelId);
  if (!channel) throw new ControlError(404, `unknown channel ${channelId} in ${guild.name}`);
  const user = state.users.get(userId);
  if (!user) throw new ControlError(404, `unknown user ${userId}`);
  if (!guild.members.has(userId)) throw new ControlError(404, `${user.username} (${userId}) is not a member of ${guild.name}`);
  const permissions = state.memberChannelPermissions(guild, channel, userId);
  if (!hasPermission(permissions, PermissionFlagsBits.ViewChannel)) {
    throw new ControlError(403, `${user.username} cannot see #${channel.name} (no View Channel permission)`);
  }
  return { guild, channel, user, permissions };
}

/** A message as one member sees the channel: posted there, or ephemeral and meant for them. */
export function visibleMessage(state: SandboxState, channelId: string, userId: string, messageId: string): StoredMessage | EphemeralMessage | null {
  const posted = state.messages.get(messageId);
  if (posted && !posted.deleted && posted.message.channel_id === channelId) return posted;
  const ephemeral = state.ephemeralMessages.get(messageId);
  if (ephemeral && !ephemeral.deleted && ephemeral.userId === userId && ephemeral.message.channel_id === channelId) return ephemeral;
  return null;
}
