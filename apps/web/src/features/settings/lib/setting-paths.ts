import type { SettingsOperation } from '@ticket/contracts';

/**
 * The client's copy of how the settings service applies an update to a document (see
 * apps/server/src/services/settings/settings-paths.ts): used to show a change before the server
 * confirms it. The server stays the judge; its answer replaces what is shown here.
 */

export function getAt(root: unknown, path: string): unknown {
  let node: unknown = root;
  for (const segment of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/** A copy of root with the value at path replaced; only the objects along the path are copied. */
export function setAt<T>(root: T, path: string, value: unknown): T {
  const [head = '', ...rest] = path.split('.');
  const record = (root && typeof root === 'object' ? root : {}) as Record<string, unknown>;
  return { ...record, [head]: rest.length === 0 ? value : setAt(record[head], rest.join('.'), value) } as T;
}

/** Structural equality of JSON values. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** What identifies a list element: the element itself, or its `filterKey` field. */
export const elementKey = (element: unknown, filterKey: string | undefined): unknown =>
  filterKey && element && typeof element === 'object' ? (element as Record<string, unknown>)[filterKey] : element;

/** add/remove as the server does them: idempotent; with filterKey, add replaces the element with the same key. */
export function changeList(list: unknown[], operation: 'add' | 'remove', element: unknown, filterKey?: string): unknown[] {
  const key = elementKey(element, filterKey);
  const matches = (item: unknown) => sameJson(elementKey(item, filterKey), key);
  if (operation === 'remove') return list.filter((item) => !matches(item));
  const at = list.findIndex(matches);
  if (at === -1) return [...list, element];
  return list.map((item, i) => (i === at ? element : item));
}

const PERMISSION_LIST = /^(permissions\.\w+\.value)\.(allow|deny)$/;

/** A permission is in at most one of allow and deny: whichever list it was just put in wins. */
export function normalizePermissions<T>(root: T, path: string): T {
  const match = PERMISSION_LIST.exec(path);
  if (!match) return root;
  const base = match[1] as string;
  const changed = match[2] as 'allow' | 'deny';
  const other = changed === 'allow' ? 'deny' : 'allow';
  const taken = new Set((getAt(root, `${base}.${changed}`) as string[] | undefined) ?? []);
  const rest = ((getAt(root, `${base}.${other}`) as string[] | undefined) ?? []).filter((p) => !taken.has(p));
  return setAt(root, `${base}.${other}`, rest);
}

/** One update applied to a document, as the server would apply it (without its validation). */
export function applyOperation<T>(
  root: T,
  path: string,
  operation: SettingsOperation,
  value: unknown,
  filterKey?: string,
): T {
  let next: T;
  if (operation === 'set') next = setAt(root, path, value);
  else {
    const current = getAt(root, path);
    next = setAt(root, path, changeList(Array.isArray(current) ? current : [], operation, value, filterKey));
  }
  return normalizePermissions(next, path);
}

/** The groups of a subject that carry `{ value, inherits }` (SPEC §3). */
export const INHERITABLE_GROUPS = [
  'ticketNameFormat',
  'staffRoles',
  'permissions.userPermissions',
  'permissions.staffPermissions',
  'permissions.claimPermissions',
  'messages.initialMessage',
  'messages.closeMessage',
  'messages.messageCommandResponse',
  'automation.autoCloseTime',
] as const;
export type InheritableGroup = (typeof INHERITABLE_GROUPS)[number];

/** The inheritable group a path lies in, if any. */
export const groupOf = (path: string): InheritableGroup | undefined =>
  INHERITABLE_GROUPS.find((group) => path === group || path.startsWith(`${group}.`));
