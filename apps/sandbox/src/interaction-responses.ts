import { ApplicationIntegrationType, GatewayDispatchEvents, InteractionResponseType, InteractionType, MessageFlags, PermissionFlagsBits } from 'discord-api-types/v10';
import type { APIMessage, APIMessageComponentInteractionMetadata, APIMessageInteractionMetadata } from 'discord-api-types/v10';
import {
  DiscordApiError,
  alreadyAcknowledged,
  emptyMessage,
  fieldError,
  invalidFormBody,
  unknownChannel,
  unknownMessage,
} from './errors.ts';
import type { Application } from './applications.ts';
import type { FixtureChannel } from './fixtures.ts';
import { Problems, checkBody, isRecord } from './form-validation.ts';
import { botMessage } from './bot-message.ts';
import { applyMessageEdit } from './message-edits.ts';
import { validateCreateMessage, validateEditMessage } from './message-validation.ts';
import type { MessageDraft } from './message-validation.ts';
import { validateModal } from './modal-validation.ts';
import { hasPermission } from './permissions.ts';
import { publishMessage } from './platform-events.ts';
import { discordTimestamp } from './snowflake.ts';
import type { EphemeralMessage, GuildState, InteractionRecord, SandboxState, StoredMessage } from './state.ts';

const KNOWN_RESPONSE_TYPES = Object.values(InteractionResponseType).filter((v): v is number => typeof v === 'number');

/** What Discord lets each interaction be answered with. */
function allowedResponseTypes(record: InteractionRecord): number[] {
  const message = [InteractionResponseType.ChannelMessageWithSource, InteractionResponseType.DeferredChannelMessageWithSource];
  const update = [InteractionResponseType.DeferredMessageUpdate, InteractionResponseType.UpdateMessage];
  if (record.type === InteractionType.MessageComponent) return [...message, ...update, InteractionResponseType.Modal];
  // A modal cannot answer a modal; updating needs the message a component opened the modal from.
  return record.messageId ? [...message, ...update] : message;
}

/** The application the interaction is for: its bot is the one that answers. */
function applicationOf(state: SandboxState, record: InteractionRecord): Application {
  return state.applications.get(record.applicationId) ?? state.application;
}

function channelOf(state: SandboxState, record: InteractionRecord): { guild: GuildState; channel: FixtureChannel } {
  const found = state.findChannel(record.channelId);
  if (!found) throw unknownChannel();
  return found;
}

/** Validators report paths from the body's root; the callback endpoint reports them under `data`. */
function underData<T>(validate: () => T): T {
  try {
    return validate();
  } catch (error) {
    if (error instanceof DiscordApiError && error.errors) throw invalidFormBody({ data: error.errors });
    throw error;
  }
}

function liveMessage(state: SandboxState, messageId: string | null): StoredMessage | EphemeralMessage | null {
  const stored = messageId === null ? null : state.anyMessage(messageId);
  return stored && !stored.deleted ? stored : null;
}

function componentMetadata(state: SandboxState, record: InteractionRecord): APIMessageComponentInteractionMetadata {
  return {
    id: record.id,
    type: InteractionType.MessageComponent,
    user: state.publicUser(record.userId)!,
    authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: record.guildId },
    interacted_message_id: record.messageId ?? '0',
  };
}

function interactionMetadata(state: SandboxState, record: InteractionRecord, followUp: boolean): APIMessageInteractionMetadata {
  const extra = followUp && record.originalMessageId ? { original_response_message_id: record.originalMessageId } : {};
  if (record.type === InteractionType.MessageComponent) return { ...componentMetadata(state, record), ...extra };
  const triggering = record.triggeringInteractionId ? state.interactions.get(record.triggeringInteractionId) : undefined;
  return {
    id: record.id,
    type: InteractionType.ModalSubmit,
    user: state.publicUser(record.userId)!,
    authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: record.guildId },
    triggering_interaction_metadata: componentMetadata(state, triggering ?? record),
    ...extra,
  };
}

/**
 * A message sent through the interaction's webhook: authored by the bot with `webhook_id` and
 * `interaction_metadata`, and not subject to the bot's Send Messages permission. An ephemeral one
 * is kept apart, visible only to the member who interacted.
 */
export function createInteractionMessage(state: SandboxState, record: InteractionRecord, draft: MessageDraft, followUp: boolean): APIMessage {
  const { guild, channel } = channelOf(state, record);
  const app = applicationOf(state, record);
  const message: APIMessage = {
    ...botMessage(state, app, guild, channel, draft),
    webhook_id: app.clientId,
    application_id: app.clientId,
    interaction_metadata: interactionMetadata(state, record, followUp),
  };
  const id = message.id;
  const stored = { message, guildId: guild.id, deleted: false, deletedAt: null, revisions: [] };
  if ((draft.flags & MessageFlags.Ephemeral) !== 0) {
    state.ephemeralMessages.set(id, { ...stored, userId: record.userId, interactionId: record.id });
  } else {
    state.messages.set(id, stored);
    (channel as { last_message_id?: string | null }).last_message_id = id;
    publishMessage(state, GatewayDispatchEvents.MessageCreate, stored);
  }
  return structuredClone(message);
}

/**
 * Applies an initial response, from the endpoint's HTTP answer or the callback route, exactly
 * once. Throws the DiscordApiError the callback route would answer when Discord would refuse it.
 */
export function applyInitialResponse(state: SandboxState, record: InteractionRecord, body: unknown): void {
  if (record.acknowledged) throw alreadyAcknowledged();
  const raw = checkBody(body);
  const type = raw.type;
  if (type === undefined || type === null) throw invalidFormBody(fieldError(['type'], 'BASE_TYPE_REQUIRED', 'This field is required'));
  if (typeof type !== 'number' || !KNOWN_RESPONSE_TYPES.includes(type)) {
    throw invalidFormBody(fieldError(['type'], 'BASE_TYPE_CHOICES', `Value must be one of {${KNOWN_RESPONSE_TYPES.join(', ')}}.`));
  }
  if (!allowedResponseTypes(record).includes(type)) {
    const kind = record.type === InteractionType.MessageComponent ? 'MESSAGE_COMPONENT' : 'MODAL_SUBMIT';
    throw invalidFormBody(fieldError(['type'], 'INTERACTION_RESPONSE_TYPE_INVALID', `Response type ${type} is not valid for a ${kind} interaction`));
  }
  switch (type) {
    case InteractionResponseType.ChannelMessageWithSource: {
      if (raw.data === undefined || raw.data === null) throw invalidFormBody(fieldError(['data'], 'BASE_TYPE_REQUIRED', 'This field is required'));
      const draft = underData(() => validateCreateMessage(raw.data, { interaction: true }));
      record.originalMessageId = createInteractionMessage(state, record, draft, false).id;
      break;
    }
    case InteractionResponseType.DeferredChannelMessageWithSource:
      // Only the ephemeral bit matters: it decides who will see the @original message once it is edited in.
      record.deferredFlags = isRecord(raw.data) && typeof raw.data.flags === 'number' ? raw.data.flags & MessageFlags.Ephemeral : 0;
      break;
    case InteractionResponseType.DeferredMessageUpdate:
      record.originalMessageId = record.messageId;
      break;
    case InteractionResponseType.UpdateMessage: {
      const target = liveMessage(state, record.messageId);
      if (!target) throw unknownMessage();
      const edit = underData(() => validateEditMessage(raw.data ?? {}, target.message.flags ?? 0));
      const { guild, channel } = channelOf(state, record);
      applyMessageEdit(state, guild, target, edit, hasPermission(state.botChannelPermissions(guild, channel, applicationOf(state, record)), PermissionFlagsBits.MentionEveryone));
      record.originalMessageId = record.messageId;
      break;
    }
    case InteractionResponseType.Modal: {
      const problems = new Problems();
      const modal = validateModal(raw.data, problems);
      problems.throwIfAny();
      const open = {
        interactionId: record.id,
        userId: record.userId,
        guildId: record.guildId,
        channelId: record.channelId,
        messageId: record.messageId,
        applicationId: record.applicationId,
        customId: modal!.customId,
        title: modal!.title,
        components: modal!.components,
        openedAt: discordTimestamp(state.now()),
      };
      record.modal = open;
      state.openModals.set(record.userId, open);
      break;
    }
  }
  record.acknowledged = true;
  record.responseType = type;
  state.acknowledgementWaiters.get(record.id)?.();
}

/** A message this interaction's token may reach: `@original`, or one of its follow-ups. */
export function tokenMessage(state: SandboxState, record: InteractionRecord, messageId: string): StoredMessage | EphemeralMessage {
  const id = messageId === '@original' ? record.originalMessageId : record.followUpIds.includes(messageId) ? messageId : null;
  const stored = liveMessage(state, id);
  if (!stored) throw unknownMessage();
  return stored;
}

/**
 * PATCH …/messages/@original or …/messages/{followUpId}. After a deferred (type 5) response the
 * first edit of @original is what brings the message into being, ephemeral if the deferral was.
 */
export function editTokenMessage(state: SandboxState, record: InteractionRecord, messageId: string, body: unknown): APIMessage {
  const deferredOriginal =
    messageId === '@original' && record.responseType === InteractionResponseType.DeferredChannelMessageWithSource && record.originalMessageId === null;
  if (deferredOriginal) {
    const edit = validateEditMessage(body, 0);
    const draft: MessageDraft = {
      content: edit.content ?? '',
      embeds: edit.embeds ?? [],
      components: edit.components ?? [],
      flags: (edit.flags ?? 0) | record.deferredFlags,
      tts: false,
      allowedMentions: edit.allowedMentions ?? null,
      nonce: undefined,
      reference: null,
      hasOtherParts: false,
    };
    if (draft.content.trim() === '' && draft.embeds.length === 0 && draft.components.length === 0) throw emptyMessage();
    const message = createInteractionMessage(state, record, draft, false);
    record.originalMessageId = message.id;
    return message;
  }
  const stored = tokenMessage(state, record, messageId);
  const edit = validateEditMessage(body, stored.message.flags ?? 0);
  const { guild, channel } = channelOf(state, record);
  return applyMessageEdit(state, guild, stored, edit, hasPermission(state.botChannelPermissions(guild, channel, applicationOf(state, record)), PermissionFlagsBits.MentionEveryone));
}

export function createFollowUp(state: SandboxState, record: InteractionRecord, body: unknown): APIMessage {
  const draft = validateCreateMessage(body, { interaction: true });
  const message = createInteractionMessage(state, record, draft, true);
  record.followUpIds.push(message.id);
  return message;
}
