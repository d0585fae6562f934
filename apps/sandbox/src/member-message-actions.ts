import { AuditLogEvent, PermissionFlagsBits } from 'discord-api-types/v10';
import type { APIMessage } from 'discord-api-types/v10';
import { recordAuditLog } from './audit-log.ts';
import { ControlError, controlBody, requireId } from './control-error.ts';
import { memberContext } from './member-context.ts';
import type { MemberContext } from './member-context.ts';
import { applyMessageEdit, markMessageDeleted } from './message-edits.ts';
import { MAX_CONTENT_LENGTH } from './message-validation.ts';
import { hasPermission } from './permissions.ts';
import type { SandboxState, StoredMessage } from './state.ts';

export interface MemberMessageContext extends MemberContext {
  stored: StoredMessage;
}

/** A message in a channel as the member sees it: the channel must exist and be visible to them. */
export function memberMessage(state: SandboxState, channelId: string, messageId: string, userId: string): MemberMessageContext {
  const found = state.findChannel(channelId);
  if (!found) throw new ControlError(404, `unknown channel ${channelId}`);
  const context = memberContext(state, found.guild.id, channelId, userId);
  const stored = state.messages.get(messageId);
  if (!stored || stored.deleted || stored.message.channel_id !== channelId) throw new ControlError(404, `no message ${messageId} in #${context.channel.name}`);
  return { ...context, stored };
}

/** A member edits their own message (PATCH /_sandbox/channels/{id}/messages/{id}); the gateway gets MESSAGE_UPDATE. */
export function editMemberMessage(state: SandboxState, channelId: string, messageId: string, input: unknown): APIMessage {
  const body = controlBody(input);
  const userId = requireId(body, 'userId');
  const { guild, user, permissions, stored } = memberMessage(state, channelId, messageId, userId);
  if (stored.message.author.id !== userId) throw new ControlError(403, `${user.username} can only edit their own messages`);
  const content = body.content;
  if (typeof content !== 'string' || content.trim() === '') throw new ControlError(400, 'content must be a non-empty string (delete the message to remove it)');
  if (content.length > MAX_CONTENT_LENGTH) throw new ControlError(400, `content must be ${MAX_CONTENT_LENGTH} or fewer characters`);
  return applyMessageEdit(state, guild, stored, { content }, hasPermission(permissions, PermissionFlagsBits.MentionEveryone));
}

/**
 * A member deletes a message (DELETE /_sandbox/channels/{id}/messages/{id}): their own, or anyone's
 * with Manage Messages, which the audit log records as Discord does (MESSAGE_DELETE, 72).
 */
export function deleteMemberMessage(state: SandboxState, channelId: string, messageId: string, input: unknown): void {
  const body = controlBody(input);
  const userId = requireId(body, 'userId');
  const { guild, channel, user, permissions, stored } = memberMessage(state, channelId, messageId, userId);
  const own = stored.message.author.id === userId;
  if (!own && !hasPermission(permissions, PermissionFlagsBits.ManageMessages)) {
    throw new ControlError(403, `Missing Permissions: ${user.username} cannot delete others' messages in #${channel.name}`);
  }
  markMessageDeleted(state, stored);
  if (!own) {
    recordAuditLog(state, guild.id, {
      actionType: AuditLogEvent.MessageDelete,
      userId,
      targetId: stored.message.author.id,
      options: { channel_id: channel.id, count: '1' },
    });
  }
}
