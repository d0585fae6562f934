import type { APIUser } from 'discord-api-types/v10';
import type { AllowedMentions } from './message-validation.ts';
import type { GuildState, SandboxState } from './state.ts';

/**
 * Mirrors what a member would be pinged by: allowed_mentions filters, non-mentionable roles need
 * the bot's Mention Everyone permission, and @everyone/@here need it too.
 */
export function resolveMentions(
  state: SandboxState,
  guild: GuildState,
  content: string,
  allowed: AllowedMentions | null,
  canMentionEveryone: boolean,
): { users: APIUser[]; roles: string[]; everyone: boolean } {
  const userIds = new Set([...content.matchAll(/<@!?(\d{17,20})>/g)].map((m) => m[1]!));
  const roleIds = new Set([...content.matchAll(/<@&(\d{17,20})>/g)].map((m) => m[1]!));
  const users = [...userIds]
    .filter((id) => !allowed || allowed.parse.includes('users') || allowed.users.includes(id))
    .map((id) => state.publicUser(id))
    .filter((u): u is APIUser => u !== null);
  const roles = [...roleIds].filter((id) => {
    const role = guild.roles.find((r) => r.id === id);
    if (!role || id === guild.id) return false;
    if (allowed && !allowed.parse.includes('roles') && !allowed.roles.includes(id)) return false;
    return role.mentionable || canMentionEveryone;
  });
  const everyone = /@(everyone|here)\b/.test(content) && canMentionEveryone && (!allowed || allowed.parse.includes('everyone'));
  return { users, roles, everyone };
}
