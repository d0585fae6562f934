import { GatewayDispatchEvents } from 'discord-api-types/v10';
import type { APIMessage } from 'discord-api-types/v10';
import { emptyMessage } from './errors.ts';
import { resolveMentions } from './mentions.ts';
import { EDITABLE_FLAGS } from './message-validation.ts';
import type { MessageEdit } from './message-validation.ts';
import { publishMessage, publishMessageDelete } from './platform-events.ts';
import { discordTimestamp } from './snowflake.ts';
import type { GuildState, SandboxState, StoredMessage } from './state.ts';

/**
 * Applies a validated edit the way every edit path does (bot PATCH, UPDATE_MESSAGE responses,
 * webhook edits, a member's own edit): the previous version goes to `revisions` so tests can see
 * what members saw, and a channel message's edit is a MESSAGE_UPDATE on the gateway.
 */
export function applyMessageEdit(
  state: SandboxState,
  guild: GuildState,
  stored: StoredMessage,
  edit: MessageEdit,
  canMentionEveryone: boolean,
): APIMessage {
  const current = stored.message;
  const next = {
    content: edit.content ?? current.content,
    embeds: edit.embeds ?? current.embeds,
    components: edit.components ?? current.components ?? [],
    // Bits an edit cannot set (Ephemeral, Suppress Notifications, …) stay as they were.
    flags: edit.flags === undefined ? (current.flags ?? 0) : ((current.flags ?? 0) & ~EDITABLE_FLAGS) | edit.flags,
  };
  if (next.content.trim() === '' && next.embeds.length === 0 && next.components.length === 0) throw emptyMessage();
  const now = state.now();
  stored.revisions.push({
    content: current.content,
    embeds: structuredClone(current.embeds),
    components: structuredClone(current.components),
    flags: current.flags ?? 0,
    replacedAt: discordTimestamp(now),
  });
  Object.assign(current, next, { edited_timestamp: discordTimestamp(now) });
  if (edit.content !== undefined || edit.allowedMentions !== undefined) {
    const mentions = resolveMentions(state, guild, current.content, edit.allowedMentions ?? null, canMentionEveryone);
    current.mentions = mentions.users;
    current.mention_roles = mentions.roles;
    current.mention_everyone = mentions.everyone;
  }
  publishMessage(state, GatewayDispatchEvents.MessageUpdate, stored);
  return structuredClone(current);
}

/** Every delete path (bot, member, webhook): kept with `deleted` for tests, gone for everyone else. */
export function markMessageDeleted(state: SandboxState, stored: StoredMessage): void {
  stored.deleted = true;
  stored.deletedAt = discordTimestamp(state.now());
  state.reactions.delete(stored.message.id);
  publishMessageDelete(state, stored);
}
