import { ChannelType, GatewayDispatchEvents, MessageType, PermissionFlagsBits } from 'discord-api-types/v10';
import type { APIAttachment, APIMessage, MessageFlags } from 'discord-api-types/v10';
import { attachmentJson } from './cdn.ts';
import { ControlError, controlBody, requireId } from './control-error.ts';
import { memberContext } from './member-context.ts';
import { resolveMentions } from './mentions.ts';
import { MAX_CONTENT_LENGTH } from './message-validation.ts';
import { hasPermission } from './permissions.ts';
import { publishMessage } from './platform-events.ts';
import { discordTimestamp } from './snowflake.ts';
import type { SandboxState, StoredAttachment } from './state.ts';

export interface MemberMessageResult {
  message: APIMessage;
}

const MAX_ATTACHMENTS = 10;
// A bitfield enum with no zero member, yet zero is what a plain member message carries.
const NO_MESSAGE_FLAGS = 0 as MessageFlags;
// Containers and thread-only channels hold no messages of their own.
const NO_MESSAGE_TYPES = new Set<number>([ChannelType.GuildCategory, ChannelType.GuildForum, ChannelType.GuildMedia, ChannelType.GuildDirectory]);

function plainFilename(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= 255 &&
    ![...value].some((c) => c === '/' || c === '\\' || c.charCodeAt(0) < 0x20)
  );
}

function readAttachments(raw: unknown, channelId: string, state: SandboxState): StoredAttachment[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_ATTACHMENTS) throw new ControlError(400, `attachments must be an array of at most ${MAX_ATTACHMENTS}`);
  return raw.map((item: unknown, i) => {
    const a = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    if (!plainFilename(a.filename)) throw new ControlError(400, `attachments[${i}].filename must be a plain file name`);
    const contentType = a.contentType ?? 'application/octet-stream';
    if (typeof contentType !== 'string') throw new ControlError(400, `attachments[${i}].contentType must be a string`);
    if (typeof a.dataBase64 !== 'string') throw new ControlError(400, `attachments[${i}].dataBase64 must be the bytes in base64`);
    return { id: state.nextId(), channelId, filename: a.filename, contentType, data: Buffer.from(a.dataBase64, 'base64') };
  });
}

/**
 * POST /_sandbox/channels/{id}/messages: a member writes in a channel. Stored like any message and
 * dispatched on the gateway (MESSAGE_CREATE), which is how the product's bot runtime learns of it.
 */
export function postMemberMessage(state: SandboxState, channelId: string, input: unknown, baseUrl: string): MemberMessageResult {
  const body = controlBody(input);
  const userId = requireId(body, 'userId');
  const found = state.findChannel(channelId);
  if (!found) throw new ControlError(404, `unknown channel ${channelId}`);
  const user = state.users.get(userId);
  if (!user) throw new ControlError(404, `unknown user ${userId}`);
  if (!found.guild.members.has(userId)) throw new ControlError(403, `Missing Access: ${user.username} is not a member of ${found.guild.name}`);
  let context;
  try {
    context = memberContext(state, found.guild.id, channelId, userId);
  } catch (error) {
    if (error instanceof ControlError && error.status === 403) throw new ControlError(403, `Missing Access: ${error.message}`);
    throw error;
  }
  const { guild, channel, permissions } = context;
  if (NO_MESSAGE_TYPES.has(channel.type)) throw new ControlError(400, `#${channel.name} cannot hold messages (channel type ${channel.type})`);
  if (!hasPermission(permissions, PermissionFlagsBits.SendMessages)) {
    throw new ControlError(403, `Missing Permissions: ${user.username} cannot send messages in #${channel.name}`);
  }
  const content = body.content ?? '';
  if (typeof content !== 'string') throw new ControlError(400, 'content must be a string');
  if (content.length > MAX_CONTENT_LENGTH) throw new ControlError(400, `content must be ${MAX_CONTENT_LENGTH} or fewer characters`);
  const files = readAttachments(body.attachments, channelId, state);
  if (files.length > 0 && !hasPermission(permissions, PermissionFlagsBits.AttachFiles)) {
    throw new ControlError(403, `Missing Permissions: ${user.username} cannot attach files in #${channel.name}`);
  }
  if (content.trim() === '' && files.length === 0) throw new ControlError(400, 'Cannot send an empty message: give content or attachments');

  for (const file of files) state.attachments.set(file.id, file);
  const attachments: APIAttachment[] = files.map((f) => attachmentJson(state, baseUrl, f));
  const mentions = resolveMentions(state, guild, content, null, hasPermission(permissions, PermissionFlagsBits.MentionEveryone));
  const id = state.nextId();
  const message: APIMessage = {
    id,
    type: MessageType.Default,
    channel_id: channel.id,
    author: state.publicUser(userId)!,
    content,
    timestamp: discordTimestamp(state.now()),
    edited_timestamp: null,
    tts: false,
    mention_everyone: mentions.everyone,
    mentions: mentions.users,
    mention_roles: mentions.roles,
    attachments,
    embeds: [],
    components: [],
    pinned: false,
    flags: NO_MESSAGE_FLAGS,
  };
  const stored = { message, guildId: guild.id, deleted: false, deletedAt: null, revisions: [] };
  state.messages.set(id, stored);
  (channel as { last_message_id?: string | null }).last_message_id = id;
  publishMessage(state, GatewayDispatchEvents.MessageCreate, stored);
  return { message: structuredClone(message) };
}
