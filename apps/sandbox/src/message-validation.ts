import { ButtonStyle, ComponentType, MessageFlags } from 'discord-api-types/v10';
import type { APIEmbed, APIMessageTopLevelComponent } from 'discord-api-types/v10';
import { emptyMessage } from './errors.ts';
import { Problems, checkArray, checkBody, checkString, isRecord } from './form-validation.ts';
import type { Path } from './form-validation.ts';

export interface AllowedMentions {
  parse: ('everyone' | 'roles' | 'users')[];
  users: string[];
  roles: string[];
  repliedUser: boolean;
}

export interface MessageDraft {
  content: string;
  embeds: APIEmbed[];
  components: APIMessageTopLevelComponent[];
  flags: number;
  tts: boolean;
  allowedMentions: AllowedMentions | null;
  nonce: string | number | undefined;
  reference: { messageId: string; channelId: string | undefined; failIfNotExists: boolean } | null;
  /** Stickers, polls or attachments: not stored, but they make a message non-empty like on Discord. */
  hasOtherParts: boolean;
}

export interface MessageEdit {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIMessageTopLevelComponent[];
  flags?: number;
  allowedMentions?: AllowedMentions | null;
}

export const MAX_CONTENT_LENGTH = 2000;
const MAX_EMBEDS = 10;
const MAX_EMBED_TOTAL = 6000;
// Only these can be set by a bot when sending; Discord silently ignores the rest.
const SENDABLE_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications | MessageFlags.IsComponentsV2;
export const EDITABLE_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.IsComponentsV2;
// Interaction responses and follow-ups may also be ephemeral; a channel message never can.
const INTERACTION_FLAGS = SENDABLE_FLAGS | MessageFlags.Ephemeral;

function checkUrl(problems: Problems, value: unknown, path: Path, required = false): void {
  const url = checkString(problems, value, path, 2048, required);
  if (url === undefined) return;
  let ok = false;
  try {
    ok = ['http:', 'https:', 'attachment:'].includes(new URL(url).protocol);
  } catch {
    ok = false;
  }
  if (!ok) problems.add(path, 'URL_TYPE_INVALID_URL', 'Not a well formed URL.');
}

function checkEmbeds(problems: Problems, value: unknown): APIEmbed[] | undefined {
  const list = checkArray(problems, value, ['embeds'], MAX_EMBEDS);
  if (!list) return undefined;
  let total = 0;
  const embeds: APIEmbed[] = [];
  list.forEach((raw, i) => {
    const at = (...rest: Path): Path => ['embeds', i, ...rest];
    if (!isRecord(raw)) {
      problems.add(at(), 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
      return;
    }
    total += (checkString(problems, raw.title, at('title'), 256) ?? '').length;
    total += (checkString(problems, raw.description, at('description'), 4096) ?? '').length;
    if (raw.url !== undefined) checkUrl(problems, raw.url, at('url'));
    if (raw.color !== undefined && raw.color !== null) {
      if (typeof raw.color !== 'number' || !Number.isInteger(raw.color)) {
        problems.add(at('color'), 'NUMBER_TYPE_COERCE', `Value "${String(raw.color)}" is not int.`);
      } else if (raw.color < 0 || raw.color > 0xffffff) {
        problems.add(at('color'), 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 16777215.');
      }
    }
    if (raw.timestamp !== undefined && raw.timestamp !== null) {
      if (typeof raw.timestamp !== 'string' || Number.isNaN(Date.parse(raw.timestamp))) {
        problems.add(at('timestamp'), 'DATE_TYPE_PARSE', `Could not parse ${String(raw.timestamp)}. Should be ISO8601.`);
      }
    }
    if (raw.footer !== undefined) {
      if (!isRecord(raw.footer)) problems.add(at('footer'), 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
      else {
        total += (checkString(problems, raw.footer.text, at('footer', 'text'), 2048, true) ?? '').length;
        if (raw.footer.icon_url !== undefined) checkUrl(problems, raw.footer.icon_url, at('footer', 'icon_url'));
      }
    }
    if (raw.author !== undefined) {
      if (!isRecord(raw.author)) problems.add(at('author'), 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
      else {
        total += (checkString(problems, raw.author.name, at('author', 'name'), 256, true) ?? '').length;
        if (raw.author.url !== undefined) checkUrl(problems, raw.author.url, at('author', 'url'));
        if (raw.author.icon_url !== undefined) checkUrl(problems, raw.author.icon_url, at('author', 'icon_url'));
      }
    }
    for (const media of ['image', 'thumbnail'] as const) {
      const part = raw[media];
      if (part === undefined) continue;
      if (!isRecord(part)) problems.add(at(media), 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
      else checkUrl(problems, part.url, at(media, 'url'), true);
    }
    const fields = checkArray(problems, raw.fields, at('fields'), 25) ?? [];
    fields.forEach((field, j) => {
      if (!isRecord(field)) {
        problems.add(at('fields', j), 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
        return;
      }
      total += (checkString(problems, field.name, at('fields', j, 'name'), 256, true) ?? '').length;
      total += (checkString(problems, field.value, at('fields', j, 'value'), 1024, true) ?? '').length;
    });
    const embed = { type: 'rich', ...structuredClone(raw) } as APIEmbed;
    if (embed.fields) embed.fields = embed.fields.map((f) => ({ ...f, inline: f.inline ?? false }));
    embeds.push(embed);
  });
  if (total > MAX_EMBED_TOTAL) problems.add(['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', `Embed size exceeds maximum size of ${MAX_EMBED_TOTAL}`);
  return embeds;
}

const SELECT_TYPES = new Set<number>([
  ComponentType.StringSelect,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
]);

/**
 * Validates the classic action-row layout closely (what a ticket panel uses) and only the
 * outer shape of Components V2 layouts. Components get sequential numeric ids as Discord assigns.
 */
function checkComponents(problems: Problems, value: unknown, componentsV2: boolean): APIMessageTopLevelComponent[] | undefined {
  const list = checkArray(problems, value, ['components'], componentsV2 ? 40 : 5);
  if (!list) return undefined;
  const customIds = new Set<string>();
  let nextId = 1;
  const assignIds = (node: unknown): void => {
    if (!isRecord(node)) return;
    if (node.id === undefined) node.id = nextId;
    nextId = Math.max(nextId, typeof node.id === 'number' ? node.id : nextId) + 1;
    for (const key of ['components', 'accessory']) {
      const child = node[key];
      if (Array.isArray(child)) child.forEach(assignIds);
      else assignIds(child);
    }
  };
  const checkCustomId = (raw: Record<string, unknown>, path: Path): void => {
    const id = checkString(problems, raw.custom_id, [...path, 'custom_id'], 100, true);
    if (id === undefined) return;
    if (customIds.has(id)) problems.add([...path, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
    customIds.add(id);
  };
  const copy = structuredClone(list);
  copy.forEach((row, i) => {
    const path: Path = ['components', i];
    if (!isRecord(row)) {
      problems.add(path, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
      return;
    }
    if (typeof row.type !== 'number') {
      problems.add([...path, 'type'], 'BASE_TYPE_REQUIRED', 'This field is required');
      return;
    }
    if (!componentsV2 && row.type !== ComponentType.ActionRow) {
      problems.add([...path, 'type'], 'UNION_TYPE_CHOICES', `Value of field "type" must be one of (${ComponentType.ActionRow},).`);
      return;
    }
    if (row.type !== ComponentType.ActionRow) return;
    const children = checkArray(problems, row.components, [...path, 'components'], 5);
    if (!children) {
      problems.add([...path, 'components'], 'BASE_TYPE_REQUIRED', 'This field is required');
      return;
    }
    if (children.length === 0) problems.add([...path, 'components'], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
    const hasSelect = children.some((c) => isRecord(c) && typeof c.type === 'number' && SELECT_TYPES.has(c.type));
    if (hasSelect && children.length > 1) {
      problems.add([...path, 'components'], 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
    }
    children.forEach((child, j) => {
      const at: Path = [...path, 'components', j];
      if (!isRecord(child)) {
        problems.add(at, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
        return;
      }
      if (child.type === ComponentType.Button) {
        const style = child.style;
        if (typeof style !== 'number' || style < ButtonStyle.Primary || style > ButtonStyle.Premium) {
          problems.add([...at, 'style'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2, 3, 4, 5, 6}.');
          return;
        }
        checkString(problems, child.label, [...at, 'label'], 80);
        if (style === ButtonStyle.Link) {
          checkUrl(problems, child.url, [...at, 'url'], true);
          if (child.custom_id !== undefined) problems.add([...at, 'custom_id'], 'BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED', 'A custom id cannot be specified for a link button');
        } else if (style !== ButtonStyle.Premium) {
          checkCustomId(child, at);
          if (child.label === undefined && child.emoji === undefined) {
            problems.add([...at, 'label'], 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED', 'A label or emoji is required');
          }
        }
      } else if (typeof child.type === 'number' && SELECT_TYPES.has(child.type)) {
        checkCustomId(child, at);
        checkString(problems, child.placeholder, [...at, 'placeholder'], 150);
        if (child.type === ComponentType.StringSelect) {
          const options = checkArray(problems, child.options, [...at, 'options'], 25);
          if (!options || options.length === 0) problems.add([...at, 'options'], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
          options?.forEach((option, k) => {
            if (!isRecord(option)) return;
            checkString(problems, option.label, [...at, 'options', k, 'label'], 100, true);
            checkString(problems, option.value, [...at, 'options', k, 'value'], 100, true);
          });
        }
      } else {
        problems.add([...at, 'type'], 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).');
      }
    });
  });
  copy.forEach(assignIds);
  return copy as APIMessageTopLevelComponent[];
}

function checkAllowedMentions(problems: Problems, value: unknown): AllowedMentions | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (!isRecord(value)) {
    problems.add(['allowed_mentions'], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    return undefined;
  }
  const parse = (checkArray(problems, value.parse, ['allowed_mentions', 'parse'], 3) ?? []) as unknown[];
  const valid: AllowedMentions['parse'] = [];
  parse.forEach((p, i) => {
    if (p === 'everyone' || p === 'roles' || p === 'users') valid.push(p);
    else problems.add(['allowed_mentions', 'parse', i], 'BASE_TYPE_CHOICES', 'Value must be one of (\'roles\', \'users\', \'everyone\').');
  });
  const users = (checkArray(problems, value.users, ['allowed_mentions', 'users'], 100) ?? []).map(String);
  const roles = (checkArray(problems, value.roles, ['allowed_mentions', 'roles'], 100) ?? []).map(String);
  if (valid.includes('users') && users.length > 0) {
    problems.add(['allowed_mentions'], 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE', 'parse:["users"] and users: [ids...] are mutually exclusive.');
  }
  if (valid.includes('roles') && roles.length > 0) {
    problems.add(['allowed_mentions'], 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE', 'parse:["roles"] and roles: [ids...] are mutually exclusive.');
  }
  return { parse: valid, users, roles, repliedUser: value.replied_user === true };
}

function checkFlags(problems: Problems, value: unknown, allowed: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    problems.add(['flags'], 'NUMBER_TYPE_COERCE', `Value "${String(value)}" is not int.`);
    return undefined;
  }
  return value & allowed;
}

export function validateCreateMessage(body: unknown, options: { interaction?: boolean } = {}): MessageDraft {
  const raw = checkBody(body);
  const problems = new Problems();
  const content = checkString(problems, raw.content, ['content'], MAX_CONTENT_LENGTH) ?? '';
  const flags = checkFlags(problems, raw.flags, options.interaction ? INTERACTION_FLAGS : SENDABLE_FLAGS) ?? 0;
  const embeds = checkEmbeds(problems, raw.embeds) ?? [];
  const components = checkComponents(problems, raw.components, (flags & MessageFlags.IsComponentsV2) !== 0) ?? [];
  const allowedMentions = checkAllowedMentions(problems, raw.allowed_mentions) ?? null;
  if (raw.tts !== undefined && typeof raw.tts !== 'boolean') problems.add(['tts'], 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
  let reference: MessageDraft['reference'] = null;
  if (raw.message_reference !== undefined && raw.message_reference !== null) {
    const ref = raw.message_reference;
    if (!isRecord(ref) || typeof ref.message_id !== 'string') {
      problems.add(['message_reference', 'message_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
    } else {
      reference = {
        messageId: ref.message_id,
        channelId: typeof ref.channel_id === 'string' ? ref.channel_id : undefined,
        failIfNotExists: ref.fail_if_not_exists !== false,
      };
    }
  }
  if (content !== '' && (flags & MessageFlags.IsComponentsV2) !== 0) {
    problems.add(['content'], 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2', 'The \'content\' field cannot be used when using MessageFlags.IS_COMPONENTS_V2');
  }
  problems.throwIfAny();
  const hasOtherParts = [raw.sticker_ids, raw.attachments, raw.poll].some((p) => (Array.isArray(p) ? p.length > 0 : isRecord(p)));
  if (content.trim() === '' && embeds.length === 0 && components.length === 0 && !hasOtherParts) throw emptyMessage();
  return {
    content,
    embeds,
    components,
    flags,
    tts: raw.tts === true,
    allowedMentions,
    nonce: typeof raw.nonce === 'string' || typeof raw.nonce === 'number' ? raw.nonce : undefined,
    reference,
    hasOtherParts,
  };
}

/** `null` clears a field on edit; the caller checks the merged result is still non-empty. */
export function validateEditMessage(body: unknown, currentFlags: number): MessageEdit {
  const raw = checkBody(body);
  const problems = new Problems();
  const edit: MessageEdit = {};
  if (raw.content === null) edit.content = '';
  else if (raw.content !== undefined) edit.content = checkString(problems, raw.content, ['content'], MAX_CONTENT_LENGTH);
  const flags = checkFlags(problems, raw.flags, EDITABLE_FLAGS);
  if (flags !== undefined) edit.flags = flags;
  if (raw.embeds === null) edit.embeds = [];
  else if (raw.embeds !== undefined) edit.embeds = checkEmbeds(problems, raw.embeds);
  if (raw.components === null) edit.components = [];
  else if (raw.components !== undefined) {
    edit.components = checkComponents(problems, raw.components, ((flags ?? currentFlags) & MessageFlags.IsComponentsV2) !== 0);
  }
  if (raw.allowed_mentions !== undefined) edit.allowedMentions = checkAllowedMentions(problems, raw.allowed_mentions);
  problems.throwIfAny();
  return edit;
}
