import { ChannelType, OverwriteType } from 'discord-api-types/v10';
import type { APIOverwrite } from 'discord-api-types/v10';
import type { FixtureChannel } from './fixtures.ts';
import { Problems, checkArray, checkBody, checkString, isRecord } from './form-validation.ts';
import type { Path } from './form-validation.ts';
import { isSnowflake } from './snowflake.ts';
import type { GuildState } from './state.ts';

/** Documented platform limits; the 50 per category is what ticket bots run into first. */
export const MAX_CATEGORY_CHANNELS = 50;
export const MAX_GUILD_CHANNELS = 500;
const MAX_NAME = 100;
const MAX_TOPIC = 1024;
const MAX_OVERWRITES = 100;

/** The channel kinds a ticket bot creates: text, category and announcement (news). */
export const CREATABLE_TYPES: readonly number[] = [ChannelType.GuildText, ChannelType.GuildCategory, ChannelType.GuildAnnouncement];
const TEXT_TYPES = new Set<number>([ChannelType.GuildText, ChannelType.GuildAnnouncement]);

export interface ChannelChanges {
  name?: string;
  /** null moves the channel out of its category. */
  parentId?: string | null;
  topic?: string | null;
  overwrites?: APIOverwrite[];
  /** PATCH only: copy the (new) category's overwrites, like the client's "Sync Now". */
  lockPermissions?: boolean;
}

export interface ChannelDraft extends ChannelChanges {
  name: string;
  type: ChannelType.GuildText | ChannelType.GuildCategory | ChannelType.GuildAnnouncement;
}

/**
 * Text and announcement channel names are rewritten the way Discord does it: lowercased, runs of
 * whitespace become one dash, and anything but letters, digits, dashes and underscores goes.
 * Categories keep their names as typed.
 */
export function normaliseChannelName(name: string, type: number): string {
  if (!TEXT_TYPES.has(type)) return name.trim();
  return name
    .trim()
    .toLowerCase()
    .replace(/\s+/gu, '-')
    .replace(/[^\p{L}\p{N}_-]/gu, '');
}

function checkName(problems: Problems, value: unknown, type: number, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  const raw = checkString(problems, value, ['name'], Number.MAX_SAFE_INTEGER, true);
  if (raw === undefined) return undefined;
  const name = normaliseChannelName(raw, type);
  // The length rule applies to what would be stored, so a name of only symbols fails like an empty one.
  if (raw.length > MAX_NAME || name.length < 1 || name.length > MAX_NAME) {
    problems.add(['name'], 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_NAME} in length.`);
    return undefined;
  }
  return name;
}

function checkParent(problems: Problems, guild: GuildState, value: unknown, type: number, movingId: string | null): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const path: Path = ['parent_id'];
  if (!isSnowflake(value)) {
    problems.add(path, 'NUMBER_TYPE_COERCE', `Value "${String(value)}" is not snowflake.`);
    return undefined;
  }
  const parent = guild.channels.find((c) => c.id === value);
  if (!parent) {
    problems.add(path, 'CHANNEL_PARENT_INVALID', 'Category does not exist');
    return undefined;
  }
  if (parent.type !== ChannelType.GuildCategory || type === ChannelType.GuildCategory) {
    problems.add(path, 'CHANNEL_PARENT_INVALID_TYPE', 'Not a category');
    return undefined;
  }
  const children = guild.channels.filter((c) => c.id !== movingId && 'parent_id' in c && c.parent_id === parent.id).length;
  if (children >= MAX_CATEGORY_CHANNELS) {
    problems.add(path, 'CHANNEL_PARENT_MAX_CHANNELS', `Maximum number of channels in category reached (${MAX_CATEGORY_CHANNELS})`);
    return undefined;
  }
  return parent.id;
}

function checkTopic(problems: Problems, value: unknown, type: number): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  // Categories have no topic; Discord ignores the field for them rather than failing.
  if (!TEXT_TYPES.has(type)) return undefined;
  return checkString(problems, value, ['topic'], MAX_TOPIC);
}

function checkBitfield(problems: Problems, value: unknown, path: Path): string {
  if (value === undefined || value === null) return '0';
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return BigInt(value).toString();
  problems.add(path, 'NUMBER_TYPE_COERCE', `Value "${String(value)}" is not int.`);
  return '0';
}

/** One overwrite's shape, shared with PUT /channels/{id}/permissions/{id} (where the id comes from the path). */
export function checkOverwrite(problems: Problems, raw: unknown, path: Path, fixedId?: string): APIOverwrite | null {
  if (!isRecord(raw)) {
    problems.add(path, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    return null;
  }
  const id = fixedId ?? raw.id;
  let ok = true;
  if (id === undefined || id === null) {
    problems.add([...path, 'id'], 'BASE_TYPE_REQUIRED', 'This field is required');
    ok = false;
  } else if (!isSnowflake(id)) {
    problems.add([...path, 'id'], 'NUMBER_TYPE_COERCE', `Value "${String(id)}" is not snowflake.`);
    ok = false;
  }
  const type = raw.type;
  if (type === undefined || type === null) {
    problems.add([...path, 'type'], 'BASE_TYPE_REQUIRED', 'This field is required');
    ok = false;
  } else if (type !== OverwriteType.Role && type !== OverwriteType.Member) {
    problems.add([...path, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of {0, 1}.');
    ok = false;
  }
  const allow = checkBitfield(problems, raw.allow, [...path, 'allow']);
  const deny = checkBitfield(problems, raw.deny, [...path, 'deny']);
  return ok ? { id: id as string, type: type as OverwriteType, allow, deny } : null;
}

/** An overwrite must target something in the guild: a role for type 0, a member for type 1. */
export function overwriteTargetExists(guild: GuildState, overwrite: APIOverwrite): boolean {
  return overwrite.type === OverwriteType.Role ? guild.roles.some((r) => r.id === overwrite.id) : guild.members.has(overwrite.id);
}

function checkOverwrites(problems: Problems, guild: GuildState, value: unknown): APIOverwrite[] | undefined {
  if (value === null) return [];
  const list = checkArray(problems, value, ['permission_overwrites'], MAX_OVERWRITES);
  if (!list) return undefined;
  // A later entry for the same target replaces an earlier one, as a map keyed by id would.
  const byId = new Map<string, APIOverwrite>();
  list.forEach((raw, i) => {
    const overwrite = checkOverwrite(problems, raw, ['permission_overwrites', i]);
    if (!overwrite) return;
    // The leaf codes for a missing target are the sandbox's own; Discord does not document them.
    if (!overwriteTargetExists(guild, overwrite)) {
      const role = overwrite.type === OverwriteType.Role;
      problems.add(['permission_overwrites', i, 'id'], role ? 'UNKNOWN_ROLE' : 'UNKNOWN_MEMBER', role ? 'Unknown Role' : 'Unknown Member');
      return;
    }
    byId.set(overwrite.id, overwrite);
  });
  return [...byId.values()];
}

export function validateCreateChannel(body: unknown, guild: GuildState): ChannelDraft {
  const raw = checkBody(body);
  const problems = new Problems();
  const rawType = raw.type ?? ChannelType.GuildText;
  let type: ChannelDraft['type'] = ChannelType.GuildText;
  if (typeof rawType !== 'number' || !CREATABLE_TYPES.includes(rawType)) {
    problems.add(['type'], 'BASE_TYPE_CHOICES', `Value must be one of {${CREATABLE_TYPES.join(', ')}}.`);
  } else {
    type = rawType as ChannelDraft['type'];
  }
  const name = checkName(problems, raw.name, type, true);
  const parentId = checkParent(problems, guild, raw.parent_id, type, null);
  const topic = checkTopic(problems, raw.topic, type);
  const overwrites = checkOverwrites(problems, guild, raw.permission_overwrites);
  problems.throwIfAny();
  return { name: name!, type, parentId, topic, overwrites };
}

/** PATCH /channels/{id}: only the fields present change; `null` clears parent and topic. */
export function validateModifyChannel(body: unknown, guild: GuildState, channel: FixtureChannel): ChannelChanges {
  const raw = checkBody(body);
  const problems = new Problems();
  const changes: ChannelChanges = {};
  const name = checkName(problems, raw.name, channel.type, false);
  if (name !== undefined) changes.name = name;
  const parentId = checkParent(problems, guild, raw.parent_id, channel.type, channel.id);
  if (parentId !== undefined) changes.parentId = parentId;
  const topic = checkTopic(problems, raw.topic, channel.type);
  if (topic !== undefined) changes.topic = topic;
  const overwrites = checkOverwrites(problems, guild, raw.permission_overwrites);
  if (overwrites !== undefined) changes.overwrites = overwrites;
  if (raw.lock_permissions !== undefined && raw.lock_permissions !== null) {
    if (typeof raw.lock_permissions !== 'boolean') problems.add(['lock_permissions'], 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
    else changes.lockPermissions = raw.lock_permissions;
  }
  problems.throwIfAny();
  return changes;
}
