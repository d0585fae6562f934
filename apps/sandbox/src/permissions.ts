import { OverwriteType, PermissionFlagsBits } from 'discord-api-types/v10';
import type { APIOverwrite, APIRole } from 'discord-api-types/v10';

export const ALL_PERMISSIONS = Object.values(PermissionFlagsBits).reduce((all, bit) => all | bit, 0n);

export interface PermissionSubject {
  ownerId: string;
  everyoneRoleId: string;
  roles: readonly APIRole[];
}

/** Guild-level permissions, following Discord's documented order: owner, @everyone, roles, admin. */
export function basePermissions(guild: PermissionSubject, userId: string, memberRoleIds: readonly string[]): bigint {
  if (userId === guild.ownerId) return ALL_PERMISSIONS;
  const byId = new Map(guild.roles.map((role) => [role.id, role]));
  let permissions = BigInt(byId.get(guild.everyoneRoleId)?.permissions ?? '0');
  for (const roleId of memberRoleIds) {
    const role = byId.get(roleId);
    if (role) permissions |= BigInt(role.permissions);
  }
  if ((permissions & PermissionFlagsBits.Administrator) === PermissionFlagsBits.Administrator) return ALL_PERMISSIONS;
  return permissions;
}

/** Channel permissions: @everyone overwrite, then role overwrites combined, then the member's own. */
export function channelPermissions(
  guild: PermissionSubject,
  userId: string,
  memberRoleIds: readonly string[],
  overwrites: readonly APIOverwrite[],
): bigint {
  const base = basePermissions(guild, userId, memberRoleIds);
  if ((base & PermissionFlagsBits.Administrator) === PermissionFlagsBits.Administrator) return ALL_PERMISSIONS;
  let permissions = base;
  const everyone = overwrites.find((o) => o.id === guild.everyoneRoleId);
  if (everyone) permissions = (permissions & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const overwrite of overwrites) {
    if (overwrite.type === OverwriteType.Role && overwrite.id !== guild.everyoneRoleId && memberRoleIds.includes(overwrite.id)) {
      allow |= BigInt(overwrite.allow);
      deny |= BigInt(overwrite.deny);
    }
  }
  permissions = (permissions & ~deny) | allow;
  const own = overwrites.find((o) => o.type === OverwriteType.Member && o.id === userId);
  if (own) permissions = (permissions & ~BigInt(own.deny)) | BigInt(own.allow);
  return permissions;
}

export function hasPermission(permissions: bigint, bit: bigint): boolean {
  return (permissions & bit) === bit;
}
