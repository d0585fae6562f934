import { MessageType, PermissionFlagsBits } from 'discord-api-types/v10';
import type { APIMessage } from 'discord-api-types/v10';
import type { Application } from './applications.ts';
import type { FixtureChannel } from './fixtures.ts';
import { resolveMentions } from './mentions.ts';
import type { MessageDraft } from './message-validation.ts';
import { hasPermission } from './permissions.ts';
import { discordTimestamp } from './snowflake.ts';
import type { GuildState, SandboxState } from './state.ts';

/**
 * A message a bot sends in a channel, from a validated draft: authored by that bot, stamped now,
 * with the mentions the bot's permissions allow. Where it is kept (the channel, or one member's
 * ephemeral view) is the caller's choice.
 */
export function botMessage(
  state: SandboxState,
  app: Application,
  guild: GuildState,
  channel: FixtureChannel,
  draft: MessageDraft,
  type: MessageType = MessageType.Default,
): APIMessage {
  const canMentionEveryone = hasPermission(state.botChannelPermissions(guild, channel, app), PermissionFlagsBits.MentionEveryone);
  const mentions = resolveMentions(state, guild, draft.content, draft.allowedMentions, canMentionEveryone);
  return {
    id: state.nextId(),
    type,
    channel_id: channel.id,
    author: state.botUser(app),
    content: draft.content,
    timestamp: discordTimestamp(state.now()),
    edited_timestamp: null,
    tts: draft.tts,
    mention_everyone: mentions.everyone,
    mentions: mentions.users,
    mention_roles: mentions.roles,
    attachments: [],
    embeds: draft.embeds,
    components: draft.components,
    pinned: false,
    flags: draft.flags,
  };
}
