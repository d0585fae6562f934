import type { ConfigurationDocument, EmojiRef, UnsetId, UnsetSetting } from '@ticket/contracts';
import { BadRequestError } from '../../http/errors';
import type { PlatformClient } from '../../platform/discord';
import { GuildAccess } from '../../platform/guild-access';

type Kind = 'postable' | 'category' | 'role' | 'roleOrMember' | 'emoji';

/** One platform id of the file, where it sits and how to take it out. */
interface Reference {
  kind: Kind;
  id: string;
  field: string;
  setting: UnsetSetting;
  subject: string | null;
  panel: string | null;
  unset: () => void;
}

/** Takes the elements in `gone` out of a list, in place. */
function dropFrom<T>(list: T[], gone: Set<T>): void {
  const kept = list.filter((item) => !gone.has(item));
  list.splice(0, list.length, ...kept);
}

/** Every platform id of the document, each with the way to unset it. */
function referencesOf(doc: ConfigurationDocument): { references: Reference[]; finish: () => void } {
  const references: Reference[] = [];
  const finishers: (() => void)[] = [];
  /** A list whose unknown elements are removed together at the end, so indexes stay right while checking. */
  const listOf = <T>(list: T[], idOf: (item: T) => string, base: string, make: (item: T, field: string) => Omit<Reference, 'unset' | 'field' | 'id'>) => {
    const gone = new Set<T>();
    list.forEach((item, i) => references.push({ ...make(item, `${base}.${i}`), id: idOf(item), field: `${base}.${i}`, unset: () => gone.add(item) }));
    finishers.push(() => dropFrom(list, gone));
  };
  const emoji = (holder: { emoji?: EmojiRef | null; emote?: EmojiRef | null }, key: 'emoji' | 'emote', field: string, subject: string | null, panel: string | null) => {
    const ref = holder[key];
    if (ref?.id) references.push({ kind: 'emoji', id: ref.id, field: `${field}.${key}.id`, setting: 'emoji', subject, panel, unset: () => (holder[key] = null) });
  };

  doc.subjects.forEach((s, i) => {
    const at = `subjects.${i}`;
    const subject = s.name;
    const mine = { subject, panel: null };
    const log = s.logging.channelId;
    if (log) references.push({ kind: 'postable', id: log, field: `${at}.logging.channelId`, setting: 'logChannel', ...mine, unset: () => (s.logging.channelId = null) });
    for (const group of ['waitingForStaff', 'waitingForUser'] as const) {
      listOf(s.categories[group], (c) => c.id, `${at}.categories.${group}`, () => ({ kind: 'category', setting: 'ticketCategory', ...mine }));
    }
    listOf(s.staffRoles.value, (id) => id, `${at}.staffRoles.value`, () => ({ kind: 'role', setting: 'staffRole', ...mine }));
    listOf(s.limitations.whitelist.ids, (id) => id, `${at}.limitations.whitelist.ids`, () => ({ kind: 'roleOrMember', setting: 'accessList', ...mine }));
    for (const [key, button] of Object.entries(s.buttons)) emoji(button, 'emote', `${at}.buttons.${key}`, subject, null);
    s.questions.forEach((q, n) => {
      if (q.type === 'Button') q.values.forEach((b, k) => emoji(b, 'emote', `${at}.questions.${n}.values.${k}`, subject, null));
    });
  });
  doc.panels.forEach((p, i) => {
    const at = `panels.${i}`;
    if (p.channelId) references.push({ kind: 'postable', id: p.channelId, field: `${at}.channelId`, setting: 'panelChannel', subject: null, panel: p.name, unset: () => (p.channelId = null) });
    p.subjects.forEach((entry, e) => emoji(entry, 'emoji', `${at}.subjects.${e}`, null, p.name));
  });
  return { references, finish: () => finishers.forEach((f) => f()) };
}

/** Whether the check passes; a refusal of the kind editing gives (400) means no, anything else is a real failure. */
async function passes(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch (error) {
    if (error instanceof BadRequestError) return false;
    throw error;
  }
}

/**
 * Unsets the platform ids of the document that the server does not have, with the same checks as
 * editing by hand (GuildAccess): a log or panel channel the bot can post in, categories, roles,
 * and members where a list takes roles or members. The lists of the server are read once (and
 * once more afresh when an id is missing), so that a file from another server costs a few calls,
 * not one per id. Answers the changed copy and what was unset.
 */
export async function unsetUnknownIds(platform: PlatformClient, serverId: string, input: ConfigurationDocument): Promise<{ doc: ConfigurationDocument; unset: UnsetId[] }> {
  const doc = structuredClone(input);
  const { references, finish } = referencesOf(doc);
  if (references.length === 0) return { doc, unset: [] };
  const guilds = new GuildAccess(platform);

  const listed = async <T extends { id: string | null }>(load: (fresh: boolean) => Promise<T[]>, kinds: Kind[]): Promise<Set<string | null>> => {
    const wanted = references.filter((r) => kinds.includes(r.kind)).map((r) => r.id);
    if (wanted.length === 0) return new Set();
    let ids = new Set<string | null>((await load(false)).map((x) => x.id));
    if (wanted.some((id) => !ids.has(id))) ids = new Set((await load(true)).map((x) => x.id));
    return ids;
  };
  const [channels, roles, emojis] = await Promise.all([
    listed((fresh) => platform.getGuildChannels(serverId, fresh), ['postable', 'category']),
    listed((fresh) => platform.getGuildRoles(serverId, fresh), ['role', 'roleOrMember']),
    listed((fresh) => platform.getGuildEmojis(serverId, fresh), ['emoji']),
  ]);

  const verdicts = new Map<string, Promise<boolean>>();
  const known = (r: Reference): Promise<boolean> => {
    const key = `${r.kind}:${r.id}`;
    let verdict = verdicts.get(key);
    if (!verdict) {
      verdict = (async () => {
        switch (r.kind) {
          case 'postable':
            return channels.has(r.id) && passes(() => guilds.assertPostable(serverId, r.id, r.field));
          case 'category':
            return channels.has(r.id) && passes(() => guilds.assertCategories(serverId, [r.id], r.field));
          case 'role':
            return roles.has(r.id);
          case 'roleOrMember':
            return roles.has(r.id) || passes(() => guilds.assertMember(serverId, r.id, r.field));
          case 'emoji':
            return emojis.has(r.id);
        }
      })();
      verdicts.set(key, verdict);
    }
    return verdict;
  };

  const unset: UnsetId[] = [];
  for (const reference of references) {
    if (await known(reference)) continue;
    reference.unset();
    const { field, id, setting, subject, panel } = reference;
    unset.push({ field, id, setting, subject, panel });
  }
  finish();
  return { doc, unset };
}
