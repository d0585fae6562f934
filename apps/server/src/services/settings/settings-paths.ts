import { isDeepStrictEqual } from 'node:util';
import type { SettingsOperation } from '@ticket/contracts';
import { BadRequestError } from '../../http/errors';
import { INHERITABLE_GROUPS } from './subject-defaults';

type Json = unknown;

export function getAt(root: Json, path: string): Json {
  let node: Json = root;
  for (const segment of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, Json>)[segment];
  }
  return node;
}

/** Returns a copy of root with the value at path replaced; intermediate objects are copied, not shared. */
export function setAt(root: Json, path: string, value: Json): Json {
  const [head, ...rest] = path.split('.');
  const record = (root && typeof root === 'object' ? root : {}) as Record<string, Json>;
  return { ...record, [head!]: rest.length === 0 ? value : setAt(record[head!], rest.join('.'), value) };
}

const keyOf = (element: Json, filterKey: string | undefined): Json =>
  filterKey && element && typeof element === 'object' ? (element as Record<string, Json>)[filterKey] : element;

/**
 * The new value of a list after add/remove. Both are idempotent: adding what is there changes
 * nothing (with filterKey, an element with the same key is replaced in place), removing what is
 * not there changes nothing.
 */
export function changeList(list: Json[], operation: 'add' | 'remove', element: Json, filterKey?: string): Json[] {
  const key = keyOf(element, filterKey);
  const matches = (item: Json) => isDeepStrictEqual(filterKey ? keyOf(item, filterKey) : item, key);
  if (operation === 'remove') return list.filter((item) => !matches(item));
  const at = list.findIndex(matches);
  if (at === -1) return [...list, element];
  return list.map((item, i) => (i === at ? element : item));
}

/** Applies one update to a plain JSON document; the caller validates the result. */
export function applyOperation(root: Json, path: string, operation: SettingsOperation, value: Json, filterKey?: string): Json {
  if (operation === 'set') return setAt(root, path, value);
  const current = getAt(root, path);
  if (!Array.isArray(current)) throw new BadRequestError(`"${path}" is not a list; use the set operation`, 'body.operation');
  return setAt(root, path, changeList(current, operation, value, filterKey));
}

/** A permission is in at most one of allow and deny: whichever list it was just put in wins. */
export function normalizePermissions(root: Json, path: string): Json {
  const match = /^(permissions\.\w+\.value)\.(allow|deny)$/.exec(path);
  if (!match) return root;
  const [, base, changed] = match as unknown as [string, string, 'allow' | 'deny'];
  const other = changed === 'allow' ? 'deny' : 'allow';
  const taken = new Set(getAt(root, `${base}.${changed}`) as string[]);
  const rest = (getAt(root, `${base}.${other}`) as string[]).filter((p) => !taken.has(p));
  return setAt(root, `${base}.${other}`, rest);
}

/** The inheritable group a path lies in, if any. */
export function groupOf(path: string): string | undefined {
  return INHERITABLE_GROUPS.find((g) => path === g || path.startsWith(`${g}.`));
}

/**
 * Resolves inheritance: every group whose `inherits` is set takes the `value` in effect in the
 * parent (itself resolved). `parentOf` returns the parent's own settings or undefined.
 */
export function resolveInheritance<T extends Json>(own: T, parent: T | undefined): T {
  if (parent === undefined) return own;
  let resolved: Json = own;
  for (const group of INHERITABLE_GROUPS) {
    if (getAt(own, `${group}.inherits`) === true) resolved = setAt(resolved, `${group}.value`, getAt(parent, `${group}.value`));
  }
  return resolved as T;
}
