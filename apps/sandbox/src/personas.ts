import { PermissionFlagsBits } from 'discord-api-types/v10';
import { hasPermission } from './permissions.ts';
import type { GuildState, SandboxState } from './state.ts';

export type GuildStanding = 'owner' | 'admin' | 'manager' | 'staff' | 'member';

/**
 * The role a person plays in a guild, in the terms a dashboard cares about. "Staff" is read from
 * role names because staff roles carry no distinguishing permission bit.
 */
export function standingIn(state: SandboxState, guild: GuildState, userId: string): GuildStanding | null {
  const member = guild.members.get(userId);
  if (!member) return null;
  if (guild.owner_id === userId) return 'owner';
  const permissions = state.memberPermissions(guild, userId);
  const roles = guild.roles.filter((r) => member.roles.includes(r.id));
  if (roles.some((r) => hasPermission(BigInt(r.permissions), PermissionFlagsBits.Administrator))) return 'admin';
  if (hasPermission(permissions, PermissionFlagsBits.ManageGuild)) return 'manager';
  if (roles.some((r) => /staff|support/i.test(r.name))) return 'staff';
  return 'member';
}

const PHRASES: Record<GuildStanding, string> = {
  owner: 'Owner of',
  admin: 'Admin in',
  manager: 'Manager in',
  staff: 'Staff in',
  member: 'Member of',
};

/** e.g. "Owner of Pixel Forge, Member of Night Owls", for the consent page and the index. */
export function describeUser(state: SandboxState, userId: string): string {
  const parts = state
    .guildsOf(userId)
    .map((guild) => {
      const standing = standingIn(state, guild, userId);
      return standing ? `${PHRASES[standing]} ${guild.name}` : null;
    })
    .filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(', ') : 'Not in any server';
}
