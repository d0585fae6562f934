import { fieldError, invalidFormBody } from './errors.ts';
import { isSnowflake } from './snowflake.ts';

export type Query = Record<string, string | string[] | undefined>;

/** Repeated query keys arrive as arrays; Discord reads the last one. */
export function queryValue(query: Query, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

export function parseIntQuery(query: Query, name: string, range: { min: number; max: number; fallback: number }): number {
  const raw = queryValue(query, name);
  if (raw === undefined || raw === '') return range.fallback;
  if (!/^-?\d+$/.test(raw)) throw invalidFormBody(fieldError([name], 'NUMBER_TYPE_COERCE', `Value "${raw}" is not int.`));
  const value = Number(raw);
  if (value < range.min) {
    throw invalidFormBody(fieldError([name], 'NUMBER_TYPE_MIN', `int value should be greater than or equal to ${range.min}.`));
  }
  if (value > range.max) {
    throw invalidFormBody(fieldError([name], 'NUMBER_TYPE_MAX', `int value should be less than or equal to ${range.max}.`));
  }
  return value;
}

export function parseSnowflakeQuery(query: Query, name: string): string | undefined {
  const raw = queryValue(query, name);
  if (raw === undefined || raw === '') return undefined;
  if (!isSnowflake(raw)) throw invalidFormBody(fieldError([name], 'NUMBER_TYPE_COERCE', `Value "${raw}" is not snowflake.`));
  return raw;
}

export function parseBooleanQuery(query: Query, name: string): boolean {
  const raw = queryValue(query, name)?.toLowerCase();
  if (raw === undefined || raw === '') return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw invalidFormBody(fieldError([name], 'BASE_TYPE_BOOLEAN', 'Must be either true or false.'));
}

/** Path ids that are not numbers fail form validation before any lookup, as on Discord. */
export function snowflakeParam(value: string, name: string): string {
  if (!isSnowflake(value)) throw invalidFormBody(fieldError([name], 'NUMBER_TYPE_COERCE', `Value "${value}" is not snowflake.`));
  return value;
}
