import { ComponentType, InteractionType } from 'discord-api-types/v10';
import type { APIMessage, APIMessageComponentGuildInteraction, APIModalSubmitGuildInteraction } from 'discord-api-types/v10';
import type { Application } from './applications.ts';
import { ControlError, controlBody, requireId, requireText } from './control-error.ts';
import { deliverInteraction, deliverOverGateway } from './interaction-delivery.ts';
import { INTERACTION_TOKEN_TTL_MS, componentInteraction, interactionToken, modalSubmitInteraction } from './interaction-payloads.ts';
import { describeInteraction } from './interaction-views.ts';
import type { InteractionView } from './interaction-views.ts';
import { memberContext, visibleMessage } from './member-context.ts';
import { modalTextInputs } from './modal-validation.ts';
import { discordTimestamp } from './snowflake.ts';
import type { InteractionRecord, OpenModal, SandboxState } from './state.ts';

export interface MemberActionResult {
  /** The endpoint's HTTP status and its body, as received. */
  status: number | null;
  response: unknown;
  interaction: InteractionView;
}

const DEFAULT_LOCALE = 'en-US';
const MAX_TEXT_INPUT = 4000;

interface ClickableComponent {
  type: number;
  custom_id?: string;
  label?: string;
  disabled?: boolean;
  options?: { label: string; value: string }[];
  min_values?: number;
  max_values?: number;
}

/** Every component with a custom_id, in reading order, whatever the layout (action rows or Components V2). */
function clickables(components: unknown, found: ClickableComponent[] = []): ClickableComponent[] {
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (typeof record.custom_id === 'string') found.push(record as unknown as ClickableComponent);
    if (Array.isArray(record.components)) record.components.forEach(visit);
    if (record.accessory) visit(record.accessory);
  };
  if (Array.isArray(components)) components.forEach(visit);
  return found;
}

function optionalLocale(body: Record<string, unknown>): string {
  if (body.locale === undefined) return DEFAULT_LOCALE;
  if (typeof body.locale !== 'string' || body.locale === '') throw new ControlError(400, 'locale must be a locale string such as "en-US"');
  return body.locale;
}

type Delivery = { via: 'endpoint'; url: string } | { via: 'gateway' };

/** The endpoint URL when the application has one; otherwise the gateway, if a session of that application receives the guild. */
function deliveryFor(state: SandboxState, app: Application, guildId: string): Delivery {
  const url = state.interactionsUrlOf(app);
  if (url) return { via: 'endpoint', url };
  if (state.events.reaches(guildId, app.clientId)) return { via: 'gateway' };
  const where = app.whiteLabel
    ? `PATCH /_sandbox/applications/${app.clientId} {interactionsUrl}, or PUT /_sandbox/config`
    : 'PUT /_sandbox/config or the interactionsUrl option';
  throw new ControlError(
    409,
    `no interactions endpoint is configured for ${app.name} (set interactionsUrl with ${where}) and no gateway session of it receives this guild's events`,
  );
}

/** The application a message's components belong to: the one whose bot posted it (the main one for anything else). */
function applicationOfMessage(state: SandboxState, message: APIMessage): Application {
  return state.applicationByBotUser(message.author.id) ?? state.application;
}

function deliver(state: SandboxState, record: InteractionRecord, delivery: Delivery): Promise<void> {
  return delivery.via === 'endpoint' ? deliverInteraction(state, record, delivery.url) : deliverOverGateway(state, record);
}

function newRecord(
  state: SandboxState,
  fields: Pick<InteractionRecord, 'id' | 'token' | 'applicationId' | 'type' | 'guildId' | 'channelId' | 'userId' | 'messageId' | 'customId' | 'componentType' | 'values' | 'fields' | 'triggeringInteractionId' | 'via'> & {
    payload: APIMessageComponentGuildInteraction | APIModalSubmitGuildInteraction;
  },
): InteractionRecord {
  const now = state.now();
  const record: InteractionRecord = {
    ...fields,
    sentAt: discordTimestamp(now),
    expiresAt: now + INTERACTION_TOKEN_TTL_MS,
    status: null,
    response: null,
    acknowledged: false,
    responseType: null,
    deferredFlags: 0,
    originalMessageId: null,
    followUpIds: [],
    errors: [],
    warnings: [],
    modal: null,
  };
  state.interactions.set(record.id, record);
  state.interactionTokens.set(record.token, record.id);
  return record;
}

function checkSelectValues(component: ClickableComponent, values: string[] | undefined): string[] {
  const options = component.options ?? [];
  const offered = options.map((o) => o.value);
  if (values === undefined) throw new ControlError(400, `values is required for select "${component.custom_id}" (options: ${offered.join(', ')})`);
  const unknown = values.filter((v) => !offered.includes(v));
  if (unknown.length > 0) {
    throw new ControlError(400, `${unknown.map((v) => `"${v}"`).join(', ')} not among the options of select "${component.custom_id}" (options: ${offered.join(', ')})`);
  }
  if (new Set(values).size !== values.length) throw new ControlError(400, 'values must not repeat an option');
  const min = component.min_values ?? 1;
  const max = component.max_values ?? 1;
  if (values.length < min || values.length > max) {
    throw new ControlError(400, `select "${component.custom_id}" takes ${min === max ? min : `${min} to ${max}`} value(s), got ${values.length}`);
  }
  return values;
}

/** POST /_sandbox/interactions/component: a member clicks a button or picks from a string select. */
export async function clickComponent(state: SandboxState, input: unknown): Promise<MemberActionResult> {
  const body = controlBody(input);
  const guildId = requireId(body, 'guildId');
  const channelId = requireId(body, 'channelId');
  const messageId = requireId(body, 'messageId');
  const userId = requireId(body, 'userId');
  const customId = requireText(body, 'customId');
  const locale = optionalLocale(body);
  if (body.values !== undefined && (!Array.isArray(body.values) || body.values.some((v) => typeof v !== 'string'))) {
    throw new ControlError(400, 'values must be an array of strings');
  }
  const values = body.values as string[] | undefined;
  const { guild, channel, user } = memberContext(state, guildId, channelId, userId);
  const stored = visibleMessage(state, channelId, userId, messageId);
  if (!stored) throw new ControlError(404, `no message ${messageId} that ${user.username} can see in #${channel.name}`);
  const components = clickables(stored.message.components);
  const component = components.find((c) => c.custom_id === customId);
  if (!component) {
    const ids = components.map((c) => c.custom_id).join(', ') || 'none';
    throw new ControlError(400, `message ${messageId} has no component with custom_id "${customId}" (custom_ids: ${ids})`);
  }
  if (component.disabled) throw new ControlError(400, `component "${customId}" is disabled`);
  let componentType: ComponentType.Button | ComponentType.StringSelect;
  let chosen: string[] = [];
  if (component.type === ComponentType.Button) {
    if (values !== undefined && values.length > 0) throw new ControlError(400, `"${customId}" is a button; values are only for select menus`);
    componentType = ComponentType.Button;
  } else if (component.type === ComponentType.StringSelect) {
    chosen = checkSelectValues(component, values);
    componentType = ComponentType.StringSelect;
  } else {
    throw new ControlError(400, `component "${customId}" has type ${component.type}; the sandbox can press buttons and pick from string selects`);
  }
  const app = applicationOfMessage(state, stored.message);
  const delivery = deliveryFor(state, app, guildId);
  // Acting anywhere else dismisses an open modal, as it does in the client.
  state.openModals.delete(userId);
  const id = state.nextId();
  const token = interactionToken(id);
  const payload = componentInteraction(state, { app, id, token, guild, channel, userId, locale, message: stored.message, customId, componentType, values: chosen });
  const record = newRecord(state, {
    id,
    token,
    applicationId: app.clientId,
    type: InteractionType.MessageComponent,
    guildId,
    channelId,
    userId,
    messageId,
    customId,
    componentType,
    values: componentType === ComponentType.StringSelect ? chosen : null,
    fields: null,
    triggeringInteractionId: null,
    via: delivery.via,
    payload,
  });
  await deliver(state, record, delivery);
  return { status: record.status, response: record.response, interaction: describeInteraction(state, record) };
}

/** Checks submitted values against the modal's text inputs and names every problem at once. */
function checkModalFields(modal: OpenModal, fields: Record<string, string>): Map<string, string> {
  const inputs = modalTextInputs(modal.components);
  const problems: string[] = [];
  const known = new Set(inputs.map((i) => i.input.custom_id));
  for (const key of Object.keys(fields)) if (!known.has(key)) problems.push(`unknown field "${key}"`);
  const values = new Map<string, string>();
  for (const { input, label } of inputs) {
    // An untouched input submits its pre-filled value, as the client does.
    const value = fields[input.custom_id] ?? input.value ?? '';
    values.set(input.custom_id, value);
    const name = `"${label}" (${input.custom_id})`;
    const length = Array.from(value).length;
    if (value === '') {
      if (input.required !== false) problems.push(`${name} is required`);
      continue;
    }
    if (input.min_length !== undefined && length < input.min_length) problems.push(`${name} needs at least ${input.min_length} characters, got ${length}`);
    const max = input.max_length ?? MAX_TEXT_INPUT;
    if (length > max) problems.push(`${name} allows at most ${max} characters, got ${length}`);
  }
  if (problems.length > 0) {
    const listed = inputs.map((i) => `${i.input.custom_id} (${i.input.required === false ? 'optional' : 'required'})`).join(', ');
    throw new ControlError(400, `modal "${modal.title}" cannot be submitted: ${problems.join('; ')}. Its text inputs: ${listed}`);
  }
  return values;
}

/** POST /_sandbox/interactions/modal: a member submits the modal the endpoint opened for them. */
export async function submitModal(state: SandboxState, input: unknown): Promise<MemberActionResult> {
  const body = controlBody(input);
  const guildId = requireId(body, 'guildId');
  const channelId = requireId(body, 'channelId');
  const userId = requireId(body, 'userId');
  const customId = requireText(body, 'customId');
  const locale = optionalLocale(body);
  const rawFields = body.fields ?? {};
  if (typeof rawFields !== 'object' || rawFields === null || Array.isArray(rawFields) || Object.values(rawFields).some((v) => typeof v !== 'string')) {
    throw new ControlError(400, 'fields must be an object of text input custom_id → string value');
  }
  const { guild, channel, user } = memberContext(state, guildId, channelId, userId);
  const modal = state.openModals.get(userId);
  if (!modal) throw new ControlError(400, `${user.username} has no open modal; one opens when the endpoint answers an interaction with type 9 (MODAL)`);
  if (modal.customId !== customId) throw new ControlError(400, `the modal open for ${user.username} is "${modal.customId}", not "${customId}"`);
  if (modal.guildId !== guildId || modal.channelId !== channelId) {
    throw new ControlError(400, `modal "${customId}" was opened in channel ${modal.channelId} of guild ${modal.guildId}`);
  }
  const values = checkModalFields(modal, rawFields as Record<string, string>);
  const app = state.applications.get(modal.applicationId) ?? state.application;
  const delivery = deliveryFor(state, app, guildId);
  const source = modal.messageId ? visibleMessage(state, channelId, userId, modal.messageId) : null;
  const message: APIMessage | null = source?.message ?? null;
  const id = state.nextId();
  const token = interactionToken(id);
  const payload = modalSubmitInteraction(state, { app, id, token, guild, channel, userId, locale, modal, values, message });
  const record = newRecord(state, {
    id,
    token,
    applicationId: app.clientId,
    type: InteractionType.ModalSubmit,
    guildId,
    channelId,
    userId,
    messageId: message ? message.id : null,
    customId,
    componentType: null,
    values: null,
    fields: Object.fromEntries(values),
    triggeringInteractionId: modal.interactionId,
    via: delivery.via,
    payload,
  });
  await deliver(state, record, delivery);
  // A refused submit leaves the modal open with an error, as the client does; an accepted one closes it.
  if (record.acknowledged && state.openModals.get(userId) === modal) state.openModals.delete(userId);
  return { status: record.status, response: record.response, interaction: describeInteraction(state, record) };
}

/** The member presses Cancel: the modal closes and nothing is sent, as on Discord. */
export function dismissModal(state: SandboxState, userId: string): boolean {
  return state.openModals.delete(userId);
}
