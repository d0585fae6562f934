import { GatewayDispatchEvents, PermissionFlagsBits, ReactionType } from 'discord-api-types/v10';
import type {
  APIMessage,
  APIReaction,
  GatewayMessageReactionAddDispatchData,
  GatewayMessageReactionRemoveAllDispatchData,
  GatewayMessageReactionRemoveDispatchData,
  GatewayMessageReactionRemoveEmojiDispatchData,
} from 'discord-api-types/v10';
import { ControlError, controlBody, requireId } from './control-error.ts';
import { memberMessage } from './member-message-actions.ts';
import { hasPermission } from './permissions.ts';
import { toGuildMember } from './serializers.ts';
import type { GuildState, ReactionEntry, SandboxState, StoredMessage } from './state.ts';

export type ReactionEmoji = ReactionEntry['emoji'];

const CUSTOM_EMOJI = /^<?(a)?:?([\w~-]{1,32}):(\d{17,20})>?$/;

/**
 * A reaction emoji as Discord's paths and the client write it: a Unicode emoji, or a custom one as
 * `name:id` (or `<:name:id>`), which must belong to the guild. Null when it is neither.
 */
export function parseEmoji(guild: GuildState, raw: string): ReactionEmoji | null {
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const custom = CUSTOM_EMOJI.exec(text);
  if (custom) {
    const emoji = guild.emojis.find((e) => e.id === custom[3]);
    return emoji ? { id: emoji.id, name: emoji.name, animated: emoji.animated ?? false } : null;
  }
  // A Unicode emoji has no letters, digits, spaces or colons; anything else is not one.
  if (text === '' || text.length > 32 || /[\p{L}\p{N}\s:]/u.test(text.replace(/\uFE0F|\u200D/g, ''))) return null;
  return { id: null, name: text };
}

const sameEmoji = (a: ReactionEmoji, b: ReactionEmoji): boolean => (a.id !== null ? a.id === b.id : b.id === null && a.name === b.name);

/** `message.reactions` as Discord serialises it, from who reacted. */
function syncReactions(state: SandboxState, stored: StoredMessage): void {
  const entries = state.reactions.get(stored.message.id) ?? [];
  if (entries.length === 0) {
    state.reactions.delete(stored.message.id);
    delete stored.message.reactions;
    return;
  }
  stored.message.reactions = entries.map(
    (e): APIReaction => ({
      count: e.userIds.length,
      count_details: { burst: 0, normal: e.userIds.length },
      me: e.userIds.includes(state.botUserId),
      me_burst: false,
      emoji: structuredClone(e.emoji),
      burst_colors: [],
    }),
  );
}

/**
 * The message as one bot reads it over REST: `reactions[].me` says whether that bot reacted (the
 * stored copy says it for the main bot).
 */
export function messageSeenBy(state: SandboxState, message: APIMessage, botUserId: string): APIMessage {
  const copy = structuredClone(message);
  if (botUserId === state.botUserId || !copy.reactions) return copy;
  const entries = state.reactions.get(message.id) ?? [];
  for (const reaction of copy.reactions) {
    const entry = entries.find((e) => sameEmoji(e.emoji, reaction.emoji as ReactionEmoji));
    reaction.me = entry?.userIds.includes(botUserId) ?? false;
  }
  return copy;
}

function base(stored: StoredMessage) {
  return { channel_id: stored.message.channel_id, message_id: stored.message.id, guild_id: stored.guildId };
}

export function reactionUsers(state: SandboxState, stored: StoredMessage, emoji: ReactionEmoji): string[] {
  return [...((state.reactions.get(stored.message.id) ?? []).find((e) => sameEmoji(e.emoji, emoji))?.userIds ?? [])];
}

/** Whether this emoji is already on the message (adding to it needs no Add Reactions). */
export function hasReaction(state: SandboxState, stored: StoredMessage, emoji: ReactionEmoji): boolean {
  return reactionUsers(state, stored, emoji).length > 0;
}

/** Adds one user's reaction; false if they had already reacted with it (nothing is dispatched). */
export function addReaction(state: SandboxState, guild: GuildState, stored: StoredMessage, userId: string, emoji: ReactionEmoji): boolean {
  const entries = state.reactions.get(stored.message.id) ?? [];
  let entry = entries.find((e) => sameEmoji(e.emoji, emoji));
  if (entry?.userIds.includes(userId)) return false;
  if (!entry) {
    entry = { emoji: structuredClone(emoji), userIds: [] };
    entries.push(entry);
  }
  entry.userIds.push(userId);
  state.reactions.set(stored.message.id, entries);
  syncReactions(state, stored);
  const member = guild.members.get(userId);
  const d: GatewayMessageReactionAddDispatchData = {
    ...base(stored),
    user_id: userId,
    emoji: structuredClone(emoji),
    message_author_id: stored.message.author.id,
    burst: false,
    burst_colors: [],
    type: ReactionType.Normal,
  };
  if (member) d.member = toGuildMember(state, member);
  state.events.publish({ t: GatewayDispatchEvents.MessageReactionAdd, d, guildId: stored.guildId, channelId: stored.message.channel_id });
  return true;
}

export function removeReaction(state: SandboxState, stored: StoredMessage, userId: string, emoji: ReactionEmoji): boolean {
  const entries = state.reactions.get(stored.message.id) ?? [];
  const entry = entries.find((e) => sameEmoji(e.emoji, emoji));
  if (!entry?.userIds.includes(userId)) return false;
  entry.userIds = entry.userIds.filter((id) => id !== userId);
  state.reactions.set(
    stored.message.id,
    entries.filter((e) => e.userIds.length > 0),
  );
  syncReactions(state, stored);
  const d: GatewayMessageReactionRemoveDispatchData = { ...base(stored), user_id: userId, emoji: structuredClone(emoji), burst: false, type: ReactionType.Normal };
  state.events.publish({ t: GatewayDispatchEvents.MessageReactionRemove, d, guildId: stored.guildId, channelId: stored.message.channel_id });
  return true;
}

export function removeAllReactions(state: SandboxState, stored: StoredMessage): void {
  state.reactions.delete(stored.message.id);
  syncReactions(state, stored);
  const d: GatewayMessageReactionRemoveAllDispatchData = base(stored);
  state.events.publish({ t: GatewayDispatchEvents.MessageReactionRemoveAll, d, guildId: stored.guildId, channelId: stored.message.channel_id });
}

export function removeEmojiReactions(state: SandboxState, stored: StoredMessage, emoji: ReactionEmoji): void {
  const entries = state.reactions.get(stored.message.id) ?? [];
  state.reactions.set(
    stored.message.id,
    entries.filter((e) => !sameEmoji(e.emoji, emoji)),
  );
  syncReactions(state, stored);
  const d: GatewayMessageReactionRemoveEmojiDispatchData = { ...base(stored), emoji: structuredClone(emoji) };
  state.events.publish({ t: GatewayDispatchEvents.MessageReactionRemoveEmoji, d, guildId: stored.guildId, channelId: stored.message.channel_id });
}

// ---- what members do, from control routes and the channel page ----------------------------

function memberEmoji(guild: GuildState, raw: unknown): ReactionEmoji {
  if (typeof raw !== 'string' || raw === '') throw new ControlError(400, 'emoji must be a Unicode emoji or name:id of one of the server\'s emojis');
  const emoji = parseEmoji(guild, raw);
  if (!emoji) throw new ControlError(400, `"${raw}" is not a Unicode emoji or one of ${guild.name}'s emojis (name:id)`);
  return emoji;
}

/** A member reacts: needs Read Message History, and Add Reactions for an emoji not yet on the message. */
export function memberReact(state: SandboxState, channelId: string, messageId: string, input: unknown): { added: boolean } {
  const body = controlBody(input);
  const userId = requireId(body, 'userId');
  const { guild, channel, user, permissions, stored } = memberMessage(state, channelId, messageId, userId);
  const emoji = memberEmoji(guild, body.emoji);
  if (!hasPermission(permissions, PermissionFlagsBits.ReadMessageHistory)) throw new ControlError(403, `Missing Permissions: ${user.username} cannot read the history of #${channel.name}`);
  if (!hasReaction(state, stored, emoji) && !hasPermission(permissions, PermissionFlagsBits.AddReactions)) {
    throw new ControlError(403, `Missing Permissions: ${user.username} cannot add new reactions in #${channel.name}`);
  }
  return { added: addReaction(state, guild, stored, userId, emoji) };
}

/**
 * A member takes a reaction away: their own, or with Manage Messages someone else's
 * (`targetUserId`), every reaction with one emoji (`all: true` with `emoji`), or all of them
 * (`all: true` alone).
 */
export function memberRemoveReactions(state: SandboxState, channelId: string, messageId: string, input: unknown): { removed: boolean } {
  const body = controlBody(input);
  const userId = requireId(body, 'userId');
  const { guild, channel, user, permissions, stored } = memberMessage(state, channelId, messageId, userId);
  const moderate = () => {
    if (!hasPermission(permissions, PermissionFlagsBits.ManageMessages)) {
      throw new ControlError(403, `Missing Permissions: ${user.username} cannot remove others' reactions in #${channel.name}`);
    }
  };
  if (body.all === true) {
    moderate();
    if (body.emoji === undefined) removeAllReactions(state, stored);
    else removeEmojiReactions(state, stored, memberEmoji(guild, body.emoji));
    return { removed: true };
  }
  const emoji = memberEmoji(guild, body.emoji);
  const target = body.targetUserId === undefined ? userId : requireId(body, 'targetUserId');
  if (target !== userId) moderate();
  return { removed: removeReaction(state, stored, target, emoji) };
}
