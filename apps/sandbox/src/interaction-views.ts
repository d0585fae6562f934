import { InteractionType } from 'discord-api-types/v10';
import type { APIMessage, APIModalInteractionResponseCallbackComponent } from 'discord-api-types/v10';
import type { InteractionRecord, OpenModal, SandboxState } from './state.ts';

export interface ModalView {
  interactionId: string;
  applicationId: string;
  userId: string;
  guildId: string;
  channelId: string;
  customId: string;
  title: string;
  components: APIModalInteractionResponseCallbackComponent[];
  openedAt: string;
  /** Still waiting for the member (not submitted, dismissed or replaced). */
  open: boolean;
}

/** One interaction as GET /_sandbox/interactions lists it: what was sent and what the member saw. */
export interface InteractionView
  extends Pick<
    InteractionRecord,
    | 'id'
    | 'token'
    | 'applicationId'
    | 'type'
    | 'guildId'
    | 'channelId'
    | 'userId'
    | 'messageId'
    | 'customId'
    | 'componentType'
    | 'values'
    | 'fields'
    | 'sentAt'
    | 'status'
    | 'response'
    | 'acknowledged'
    | 'responseType'
    | 'errors'
    | 'warnings'
    | 'payload'
    | 'via'
  > {
  kind: 'MESSAGE_COMPONENT' | 'MODAL_SUBMIT';
  /** The @original response message (channel or ephemeral), once there is one. */
  original: APIMessage | null;
  /** Replies only this member can see, from the original response and follow-ups. */
  ephemeral: APIMessage[];
  /** Every follow-up message, ephemeral or not. */
  followUps: APIMessage[];
  modal: ModalView | null;
}

export function describeModal(state: SandboxState, modal: OpenModal): ModalView {
  return { ...structuredClone(modal), open: state.openModals.get(modal.userId) === modal };
}

function message(state: SandboxState, id: string | null): APIMessage | null {
  const stored = id === null ? null : state.anyMessage(id);
  return stored && !stored.deleted ? structuredClone(stored.message) : null;
}

export function describeInteraction(state: SandboxState, record: InteractionRecord): InteractionView {
  const followUps = record.followUpIds.map((id) => message(state, id)).filter((m): m is APIMessage => m !== null);
  const original = message(state, record.originalMessageId);
  const ephemeral = [original, ...followUps].filter((m): m is APIMessage => m !== null && state.ephemeralMessages.has(m.id));
  return {
    id: record.id,
    token: record.token,
    applicationId: record.applicationId,
    type: record.type,
    kind: record.type === InteractionType.MessageComponent ? 'MESSAGE_COMPONENT' : 'MODAL_SUBMIT',
    guildId: record.guildId,
    channelId: record.channelId,
    userId: record.userId,
    messageId: record.messageId,
    customId: record.customId,
    componentType: record.componentType,
    values: record.values,
    fields: record.fields,
    sentAt: record.sentAt,
    via: record.via,
    status: record.status,
    response: record.response,
    acknowledged: record.acknowledged,
    responseType: record.responseType,
    errors: structuredClone(record.errors),
    warnings: [...record.warnings],
    original,
    ephemeral,
    followUps,
    modal: record.modal ? describeModal(state, record.modal) : null,
    payload: structuredClone(record.payload),
  };
}
