import { fieldError, invalidFormBody, mergeErrorTrees } from './errors.ts';
import type { FormErrorTree } from './errors.ts';

/**
 * Building blocks for Discord-style body validation, shared by messages and channels: every field
 * problem is collected first, because Discord reports them all in one Invalid Form Body answer.
 */
export type Path = (string | number)[];

export class Problems {
  readonly trees: FormErrorTree[] = [];
  add(path: Path, code: string, message: string): void {
    this.trees.push(fieldError(path, code, message));
  }
  get any(): boolean {
    return this.trees.length > 0;
  }
  throwIfAny(): void {
    if (this.trees.length > 0) throw invalidFormBody(mergeErrorTrees(this.trees));
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function checkBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') return {};
  if (!isRecord(body)) {
    throw invalidFormBody({ _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }] });
  }
  return body;
}

export function checkString(problems: Problems, value: unknown, path: Path, max: number, required = false): string | undefined {
  if (value === undefined || value === null) {
    if (required) problems.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.add(path, 'BASE_TYPE_STRING', `Could not interpret "${String(JSON.stringify(value))}" as string.`);
    return undefined;
  }
  if (required && value.trim() === '') {
    problems.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return undefined;
  }
  if (value.length > max) problems.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  return value;
}

export function checkArray(problems: Problems, value: unknown, path: Path, max: number): unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    problems.add(path, 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType');
    return undefined;
  }
  if (value.length > max) problems.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  return value;
}
