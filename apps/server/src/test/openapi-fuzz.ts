/**
 * Requests with bad input for every operation of an OpenAPI document, as fast-check arbitraries.
 *
 * Each generated request says what it expects:
 * - `reject`: the request breaks the operation's schema (a required field missing, a value of the
 *   wrong type or out of its bounds, a path id that is not one, malformed JSON, a body of another
 *   content type…), so the only right answers are 4xx;
 * - `survive`: the request is valid by the schema but hostile (NUL, lone surrogates, RTL marks, ids
 *   that name nothing, unknown fields, a body where none is read), or the operation has no input
 *   to get wrong: it may succeed, but must never answer 5xx.
 *
 * "Breaks the schema" is decided by `rejects`, a conservative reading of the JSON schema the
 * document declares (the same zod contract the server validates with): it says true only for a
 * value that a keyword it checks refuses, with zod's meaning (lengths in code points, patterns
 * without the `u` flag, query numbers coerced with `Number`). Strings made too long keep a
 * non-blank first and last character, as some contracts trim before they count.
 */
import fc from 'fast-check';

export interface JsonSchema {
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** `METHOD /path/{param}`, as the document spells the path. */
  id: string;
  method: string;
  path: string;
  operationId: string;
  secured: boolean;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The JSON body's schema; null when the operation declares no body. */
  body: JsonSchema | null;
}

interface OpenApiOperation {
  operationId?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export function operationsOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = op.parameters ?? [];
      operations.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? '',
        secured: (op.security ?? []).length > 0,
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// What a schema refuses

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const regexCache = new Map<string, RegExp>();
const regex = (pattern: string): RegExp => {
  let re = regexCache.get(pattern);
  if (!re) regexCache.set(pattern, (re = new RegExp(pattern)));
  return re;
};

function numberRejects(s: JsonSchema, n: number): boolean {
  if (!Number.isFinite(n)) return true;
  if (s.type === 'integer' && !Number.isSafeInteger(n)) return true;
  if (s.minimum !== undefined && (n < s.minimum || (s.exclusiveMinimum === true && n === s.minimum))) return true;
  if (s.maximum !== undefined && (n > s.maximum || (s.exclusiveMaximum === true && n === s.maximum))) return true;
  if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum) return true;
  if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum) return true;
  return false;
}

/** Length as zod and JSON Schema count it: in code points (a lone surrogate is one). */
const codePoints = (v: string) => Array.from(v).length;

function stringRejects(s: JsonSchema, v: string): boolean {
  if (s.minLength !== undefined && codePoints(v) < s.minLength) return true;
  if (s.maxLength !== undefined && codePoints(v) > s.maxLength) return true;
  if (s.pattern !== undefined && !regex(s.pattern).test(v)) return true;
  return false;
}

function branches(s: JsonSchema): JsonSchema[] | null {
  const list = s.anyOf ?? s.oneOf;
  if (!list) return null;
  // A `nullable` beside the branches applies to each of them.
  return list.map((b) => (s.nullable ? { ...b, nullable: true } : b));
}

/** True only when the schema certainly refuses the JSON value. */
export function rejects(s: JsonSchema, v: unknown): boolean {
  const alternatives = branches(s);
  if (alternatives) return alternatives.every((b) => rejects(b, v));
  if (s.allOf?.some((b) => rejects(b, v))) return true;
  if (v === null) return !(s.nullable || s.type === 'null' || s.type === undefined || s.enum?.includes(null));
  if (s.enum && !s.enum.includes(v)) return true;
  if (s.const !== undefined && s.const !== v) return true;
  switch (s.type) {
    case 'string':
      return typeof v !== 'string' || stringRejects(s, v);
    case 'integer':
    case 'number':
      return typeof v !== 'number' || numberRejects(s, v);
    case 'boolean':
      return typeof v !== 'boolean';
    case 'array':
      if (!Array.isArray(v)) return true;
      if (s.minItems !== undefined && v.length < s.minItems) return true;
      if (s.maxItems !== undefined && v.length > s.maxItems) return true;
      return s.items !== undefined && v.some((item) => rejects(s.items!, item));
    case 'object': {
      if (!isPlainObject(v)) return true;
      if ((s.required ?? []).some((key) => !Object.hasOwn(v, key) || v[key] === undefined)) return true;
      for (const [key, value] of Object.entries(v)) {
        const property = s.properties?.[key];
        if (property) {
          if (value !== undefined && rejects(property, value)) return true;
        } else if (s.additionalProperties === false) return true;
      }
      return false;
    }
    default:
      return false;
  }
}

/**
 * The same for a query value, which arrives as text (or as a list when the key is repeated):
 * zod coerces numbers with `Number`, and a boolean branch never takes a string.
 */
export function queryRejects(s: JsonSchema, v: string | string[]): boolean {
  const alternatives = branches(s);
  if (alternatives) return alternatives.every((b) => queryRejects(b, v));
  if (Array.isArray(v)) return s.type !== 'array';
  if (s.enum && !s.enum.includes(v)) return true;
  switch (s.type) {
    case 'integer':
    case 'number':
      return numberRejects(s, Number(v));
    case 'boolean':
      return true;
    case 'string':
      return stringRejects(s, v);
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Hostile values

const HUGE = 100_000;

/** Strings that have broken parsers, databases, logs and terminals before. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(8),
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDFFF',
  '\u202E',
  '\u200F\u200E\u061C',
  '\u202Egnp.exe',
  '\uFEFF',
  '\u200B',
  '\u0085\u2028\u2029',
  '\r\n\r\n',
  '\t\v\f\b',
  '\u001B[31mred\u001B[0m',
  '😀',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  'Z̸̢̛͎̦̟a̷̱̹̓l̷̛̯g̸͙̃o̵̩̅',
  'İıß',
  '١٢٣٤',
  '１２３',
  '../',
  '../../../../etc/passwd',
  '..\\..\\windows',
  '%00',
  '%',
  '%ZZ',
  '%2e%2e%2f',
  '\\',
  '"',
  "'",
  '`',
  "'; DROP TABLE tickets; --",
  '" OR "1"="1',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '-0',
  '0',
  '1e309',
  '1.5',
  '0x1F',
  '99999999999999999999999',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
];

const NASTY_CHARS = ['\u0000', '\u0001', '\u001F', '\u007F', '\uD800', '\uDFFF', '\u202E', '\u200F', '\uFEFF', '😀', 'é', 'ß', '"', '\\', '/', '%', '\n', 'a', 'Z', '0', ' '];

/** Any code point, lone surrogates and control characters included. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...NASTY_CHARS), minLength: 1, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
);

/**
 * A string of exactly `length` code points: hostile characters in filler, starting and ending with
 * `x` (so trimming does not shorten it).
 */
function stringOfLength(length: number): fc.Arbitrary<string> {
  return fc.constantFrom(...NASTY_CHARS).map((c) => {
    if (length < 3) return 'x'.repeat(length);
    const middle = Math.min(length - 2, 16);
    return `x${c.repeat(middle)}${'x'.repeat(length - middle - 1)}`;
  });
}

/** Fits a string within the bounds (padding with `a`, cutting the end), in code points. */
function fitLength(s: JsonSchema, v: string): string {
  let out = Array.from(v);
  if (s.maxLength !== undefined && out.length > s.maxLength) out = out.slice(0, s.maxLength);
  if (s.minLength !== undefined && out.length < s.minLength) out = [...out, ...'a'.repeat(s.minLength - out.length)];
  return out.join('');
}

const WRONG_TYPED: unknown[] = [
  0,
  -1,
  1.5,
  -0.0001,
  1e308,
  -1e308,
  2 ** 53 + 2,
  1e21,
  true,
  false,
  null,
  {},
  { a: 1 },
  { $ne: null },
  [],
  [1, 'x'],
  [[[[[[[[[[]]]]]]]]]],
  '',
  'NaN',
  'Infinity',
  '-1',
  'true',
  'null',
  '{}',
  '[]',
  '\u0000',
];

/** Values the schema refuses for their type (or bounds); null when it takes anything. */
function wrongTyped(s: JsonSchema): fc.Arbitrary<unknown> | null {
  const candidates = [...WRONG_TYPED, ...NASTY_STRINGS].filter((v) => rejects(s, v));
  return candidates.length > 0 ? fc.constantFrom(...candidates) : null;
}

/** Not a free-text string: its bounds are a pattern, an enum or a format. */
const isFreeText = (s: JsonSchema) => s.type === 'string' && !s.pattern && !s.enum && !s.format && s.const === undefined;

// ---------------------------------------------------------------------------------------------
// Valid values (the base a request's one fault is put into)

export interface Hints {
  /** A valid platform id for a field or parameter of that name (e.g. the demo server for `serverId`). */
  snowflake(name: string): fc.Arbitrary<string>;
  /** A valid id for an opaque (product-minted) id of that name: a seeded record's, or one that names nothing. */
  opaqueId(name: string): fc.Arbitrary<string>;
  /** Dotted paths of the properties the document's answers have (settings are changed by such a `path`). */
  dottedPaths?: string[];
}

/** Every dotted property path of the document's success answers, e.g. `permissions.staffPermissions.value.allow`. */
export function dottedPaths(doc: { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> }>> }): string[] {
  const out = new Set<string>();
  const walk = (s: JsonSchema | undefined, prefix: string, depth: number) => {
    if (!s || depth > 8) return;
    for (const branch of s.anyOf ?? s.oneOf ?? []) walk(branch, prefix, depth);
    if (s.items) walk(s.items, prefix, depth);
    for (const [key, child] of Object.entries(s.properties ?? {})) {
      const path = prefix ? `${prefix}.${key}` : key;
      out.add(path);
      walk(child, path, depth + 1);
    }
  };
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) walk(op.responses?.['200']?.content?.['application/json']?.schema, '', 0);
  }
  return [...out].sort();
}

const SNOWFLAKE_PATTERN = '^\\d{1,20}$';

function validString(s: JsonSchema, name: string, hints: Hints): fc.Arbitrary<string> {
  if (s.enum) return fc.constantFrom(...s.enum.filter((v): v is string => typeof v === 'string'));
  if (s.pattern === SNOWFLAKE_PATTERN) return hints.snowflake(name);
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'date') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (s.format === 'date-time') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === 'uri' || s.format === 'url') return fc.constantFrom('http://localhost:3000/callback', 'https://example.com/a.png');
  if (s.format === 'email') return fc.constant('someone@example.com');
  if (s.pattern) {
    const matching = fc.stringMatching(regex(s.pattern)).filter((v) => !stringRejects(s, v));
    const known = name === 'path' ? (hints.dottedPaths ?? []).filter((v) => !stringRejects(s, v)) : [];
    return known.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: matching }) : matching;
  }
  if (s.maxLength !== undefined && s.maxLength <= 64 && (s.minLength ?? 0) <= 1 && /id$/i.test(name)) return hints.opaqueId(name);
  const min = s.minLength ?? 0;
  const max = Math.max(min, Math.min(s.maxLength ?? 40, min + 40));
  return fc.string({ minLength: min, maxLength: max });
}

export function validValue(s: JsonSchema, hints: Hints, name = '', depth = 0): fc.Arbitrary<unknown> {
  const alternatives = branches(s);
  if (alternatives) return fc.oneof(...alternatives.map((b) => validValue(b, hints, name, depth)));
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  switch (s.type) {
    case 'string':
      return validString(s, name, hints);
    case 'integer': {
      const min = Math.max(s.minimum ?? -1000, -1_000_000) + (s.exclusiveMinimum === true ? 1 : 0);
      const max = Math.min(s.maximum ?? 1000, 1_000_000) - (s.exclusiveMaximum === true ? 1 : 0);
      return fc.integer({ min, max: Math.max(min, max) });
    }
    case 'number': {
      const min = Math.max(s.minimum ?? -1000, -1_000_000);
      const max = Math.min(s.maximum ?? 1000, 1_000_000);
      return fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = depth > 4 ? minLength : Math.min(s.maxItems ?? 3, minLength + 2);
      return fc.array(s.items ? validValue(s.items, hints, name, depth + 1) : fc.constant('x'), { minLength, maxLength });
    }
    case 'object': {
      const required = s.required ?? [];
      const properties = Object.entries(s.properties ?? {}).filter(([key]) => depth < 5 || required.includes(key));
      const model = Object.fromEntries(properties.map(([key, p]) => [key, validValue(p, hints, key, depth + 1)]));
      return fc.record(model, { requiredKeys: required.filter((key) => key in model) });
    }
    default:
      return fc.constantFrom('x', 1, true);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON text that JSON.stringify cannot write

/** A value written into the body as this JSON text (numbers past a double, nesting too deep to stringify). */
export class RawJson {
  constructor(readonly text: string) {}
}

const DEEP = 20_000;
/** Arrays nested deeper than JSON.stringify (recursive) can write back; JSON.parse reads them. */
const deepJson = () => new RawJson(`${'['.repeat(DEEP)}${']'.repeat(DEEP)}`);
const RAW_NUMBERS = ['1e400', '-1e400', `1${'0'.repeat(400)}`, `0.${'0'.repeat(400)}1`, '-0', '1E+2', '123456789012345678901234567890'];

/** The value the server's JSON.parse makes of the body (for `rejects`). */
function materialize(v: unknown): unknown {
  if (v instanceof RawJson) return v.text.startsWith('[') ? [] : JSON.parse(v.text);
  if (Array.isArray(v)) return v.map(materialize);
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, materialize(item)]));
  return v;
}

/** JSON.stringify, with each RawJson written as its text. */
function stringify(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof RawJson)) return v;
    raws.push(v.text);
    return `\u0000raw${raws.length - 1}\u0000`;
  });
  return raws.length === 0 ? text : text.replace(/"\\u0000raw(\d+)\\u0000"/g, (_m, i: string) => raws[Number(i)]!);
}

// ---------------------------------------------------------------------------------------------
// Faults put into a valid body

type Path = (string | number)[];
interface Site {
  path: Path;
  schema: JsonSchema;
  value: unknown;
  required: boolean;
}

/** The branch of a union the value took, so its properties can be reached. */
function resolve(s: JsonSchema, v: unknown): JsonSchema {
  const alternatives = branches(s);
  if (!alternatives) return s;
  return alternatives.find((b) => !rejects(b, v)) ?? s;
}

function sitesOf(schema: JsonSchema, value: unknown, path: Path = [], required = true): Site[] {
  const s = resolve(schema, value);
  const out: Site[] = [{ path, schema: s, value, required }];
  if (isPlainObject(value) && s.properties) {
    for (const [key, child] of Object.entries(value)) {
      const property = s.properties[key];
      if (property && child !== undefined) out.push(...sitesOf(property, child, [...path, key], (s.required ?? []).includes(key)));
    }
  }
  if (Array.isArray(value) && s.items) value.slice(0, 3).forEach((item, i) => out.push(...sitesOf(s.items!, item, [...path, i], false)));
  return out;
}

const REMOVE = Symbol('remove');
type Fault = { value: unknown; what: string };

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value === REMOVE ? undefined : value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[head as number] = setAt(copy[head as number], rest, value);
    return copy;
  }
  const copy = { ...(root as Record<string, unknown>) };
  const next = setAt(copy[head as string], rest, value);
  if (next === undefined && rest.length === 0) delete copy[head as string];
  else copy[head as string] = next;
  return copy;
}

const where = (path: Path) => ['body', ...path].join('.');

/** Ways to break the value at one site; empty when nothing there can be broken. */
function faultsAt(site: Site): fc.Arbitrary<Fault>[] {
  const { schema: s, path, value } = site;
  const at = where(path);
  const out: fc.Arbitrary<Fault>[] = [];
  if (path.length > 0 && site.required) out.push(fc.constant({ value: REMOVE, what: `${at}: required, left out` }));
  if (path.length === 0) out.push(fc.constant({ value: REMOVE, what: 'body: required, none sent' }));
  const typed = wrongTyped(s);
  if (typed) out.push(typed.map((v) => ({ value: v, what: `${at}: wrong type` })));
  if (s.type === 'string') {
    if (s.maxLength !== undefined) {
      out.push(
        fc
          .oneof(fc.integer({ min: s.maxLength + 1, max: s.maxLength + 64 }), fc.constant(HUGE))
          .chain(stringOfLength)
          .map((v) => ({ value: v, what: `${at}: ${codePoints(v)} characters, over maxLength ${s.maxLength}` })),
      );
    }
    if ((s.minLength ?? 0) > 0) out.push(fc.constant({ value: '', what: `${at}: empty, under minLength ${s.minLength}` }));
    if (s.pattern || s.enum) out.push(nastyString.filter((v) => rejects(s, v)).map((v) => ({ value: v, what: `${at}: does not match ${s.pattern ?? 'the enum'}` })));
  }
  if (s.type === 'integer' || s.type === 'number') {
    const numbers = [-1, -(2 ** 31), -1e308, 1e308, 2 ** 53, 2 ** 64, 0.5, 1.0000001, -0.5, Number.MAX_VALUE];
    if (s.minimum !== undefined) numbers.push(s.minimum - 1, s.minimum - 0.5);
    if (s.maximum !== undefined) numbers.push(s.maximum + 1);
    out.push(fc.constantFrom(...numbers).map((v) => ({ value: v, what: `${at}: ${v} out of its bounds` })));
    out.push(fc.constantFrom(...RAW_NUMBERS).map((text) => ({ value: new RawJson(text), what: `${at}: ${short(text, 20)} in the JSON text` })));
  }
  if (s.type === 'array' && Array.isArray(value)) {
    if (s.maxItems !== undefined) {
      const filler = value[0] ?? 'x';
      out.push(fc.constant({ value: Array.from({ length: s.maxItems + 1 }, () => filler), what: `${at}: ${s.maxItems + 1} items, over maxItems` }));
    }
    if ((s.minItems ?? 0) > 0) out.push(fc.constant({ value: [], what: `${at}: no items, under minItems ${s.minItems}` }));
    const item = s.items ? wrongTyped(s.items) : null;
    if (item) out.push(item.map((v) => ({ value: [...value, v], what: `${at}: an item of the wrong type` })));
  }
  return out;
}

/** Free-text sites that can take a hostile but valid string. */
function textSites(schema: JsonSchema, value: unknown): Site[] {
  return sitesOf(schema, value).filter((site) => isFreeText(site.schema) && typeof site.value === 'string');
}

// ---------------------------------------------------------------------------------------------
// Requests

export type Credential = 'operator' | 'user' | 'none';

export interface FuzzRequest {
  expect: 'reject' | 'survive';
  /** What is wrong (or hostile) about it. */
  what: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  credential: Credential;
}

type Body = { kind: 'none' } | { kind: 'json'; value: unknown; contentType?: string; prefix?: string; extra?: [string, unknown][] } | { kind: 'raw'; text: string; contentType?: string };

interface Draft {
  expect: 'reject' | 'survive';
  what: string;
  path: Record<string, { value: string; raw?: boolean }>;
  query: [string, string][];
  body: Body;
  /** Query text appended as it is (unencoded junk). */
  rawQuery?: string;
}

/** Percent-encodes UTF-8 bytes (lone surrogates become U+FFFD, as a browser sends them). */
export function pct(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const MALFORMED_JSON = [
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  '{a:1}',
  '[1,2',
  'undefined',
  'NaN',
  '\u0000',
  '{"a":"\\uZZZZ"}',
  '{"a":"\\x41"}',
  '{"a":01}',
  '{"a":.5}',
  '{"a":+1}',
  '/* c */ {}',
  '{"a":1}{"b":2}',
  '\u00ff\u00fe{',
  '['.repeat(10_000),
];

const OTHER_CONTENT_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----fuzz',
  'multipart/form-data',
  'application/xml',
  'text/html',
  'application/octet-stream',
  'image/png',
  'application/vnd.api+json',
  'application/json-patch+json',
  '*/*',
  'garbage',
  ';;;',
];

const EXTRA_KEYS = ['extra', '__proto__', 'constructor', 'prototype', '', '\u0000', '😀', 'a'.repeat(300), 'id', '$where', 'serverId', 'isAdmin'];

/** Unknown fields: the schemas strip them (no `additionalProperties: false`), so alone they break nothing. */
const extraFields = fc.array(fc.tuple(fc.constantFrom(...EXTRA_KEYS), fc.oneof(nastyString, fc.constantFrom<unknown>(null, 1, true, { polluted: true }, []))), {
  minLength: 1,
  maxLength: 3,
});

/** Unknown query keys: ignored by every route. */
const extraQuery = fc.array(fc.tuple(fc.constantFrom('extra', '__proto__', 'constructor', 'x[y]', 'a.b', '', '\u0000', '😀'), nastyString), { maxLength: 2 });

const RAW_QUERY_JUNK = ['&&&', '=&=', '%', '%ZZ=%ZZ', '&__proto__[polluted]=1', '&a=1&a=2&a=3', '#frag', '&;=;'];

/** Sent unencoded: dot segments are resolved by the URL parser (the request may land elsewhere), bad escapes refused. */
const RAW_TRAVERSALS = ['..', '.', '../..', '..%2F..', '%2e%2e', '..;', '.%00', '%ZZ', '%C0%AF', '%E0%A4%A', '%'];

/** The value a router hands over for a path segment sent as it is; null when it is no valid escape. */
function decodedSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** Replaces path parameters, for the ones sent unencoded too. */
function buildUrl(op: Operation, draft: Draft): string {
  let path = op.path;
  for (const [name, { value, raw }] of Object.entries(draft.path)) path = path.replace(`{${name}}`, raw ? value : pct(value));
  const query = draft.query.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&');
  const tail = [query, draft.rawQuery ?? ''].filter(Boolean).join('&');
  return tail ? `${path}?${tail}` : path;
}

function payloadOf(body: Body): { payload?: string; contentType?: string } {
  if (body.kind === 'none') return {};
  if (body.kind === 'raw') return { payload: body.text, ...(body.contentType !== undefined ? { contentType: body.contentType } : {}) };
  let text = body.value === undefined ? '' : stringify(body.value);
  if (body.extra?.length && isPlainObject(body.value)) {
    // Written into the text, so that `__proto__` arrives as an own key (a literal would set the prototype).
    const extra = body.extra.map(([k, v]) => `${JSON.stringify(k)}:${stringify(v)}`).join(',');
    text = text === '{}' ? `{${extra}}` : `{${extra},${text.slice(1)}`;
  }
  return { payload: (body.prefix ?? '') + text, contentType: body.contentType ?? 'application/json' };
}

const short = (s: string, max = 300) => (s.length > max ? `${JSON.stringify(s.slice(0, max))}…(${s.length} chars)` : JSON.stringify(s));

/** How a counterexample is printed: a request one can replay. */
export function describeRequest(request: FuzzRequest): string {
  const headers = Object.entries(request.headers)
    .filter(([k]) => k !== 'authorization')
    .map(([k, v]) => `${k}: ${short(v, 80)}`);
  return [
    `[${request.expect}] ${request.what}`,
    `${request.method} ${short(request.url, 400)} as ${request.credential}`,
    ...headers,
    ...(request.payload !== undefined ? [`body: ${short(request.payload, 600)}`] : []),
  ].join('\n  ');
}

interface Options {
  hints: Hints;
  /** Credentials to send, picked at random: any valid one reaches validation (authorization comes after it). */
  credentials: Credential[];
  /** Every operation of the document: a request whose dot segments move it onto another one is not sent. */
  operations: Operation[];
  bodyLimit: number;
}

/** A documented path as a pattern of the paths it serves (Fastify serves a prefix's `/` route with and without the slash). */
const templateRegex = (path: string) =>
  new RegExp(`^${path.replace(/\/$/, '').replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]*')}/?$`);

/** Where a URL lands once the URL parser resolved its dot segments. */
function landing(url: string, method: string, own: Operation, operations: Operation[]): 'own' | 'other' | 'nowhere' {
  const pathname = new URL(url, 'http://localhost').pathname;
  if (templateRegex(own.path).test(pathname)) return 'own';
  return operations.some((o) => o !== own && o.method === method && templateRegex(o.path).test(pathname)) ? 'other' : 'nowhere';
}

/** Valid path and query values, and a valid body, for the operation. */
function baseDraft(op: Operation, hints: Hints): fc.Arbitrary<Draft> {
  const path = fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, validString(p.schema, p.name, hints).map((value) => ({ value }))])));
  const query = fc.tuple(
    ...op.queryParams.map((p) =>
      p.required ? validQuery(p, hints).map((v) => [[p.name, v]] as [string, string][]) : fc.option(validQuery(p, hints).map((v) => [[p.name, v]] as [string, string][]), { nil: [], freq: 2 }),
    ),
  );
  const body: fc.Arbitrary<Body> = op.body ? validValue(op.body, hints).map((value) => ({ kind: 'json', value })) : fc.constant({ kind: 'none' });
  return fc.record({ path, query, body }).map(({ path, query, body }) => {
    // A body field named like a path parameter (`ticketId` beside `/tickets/{ticketId}`) repeats it.
    if (body.kind === 'json' && isPlainObject(body.value)) {
      const value = { ...body.value };
      for (const [name, { value: id }] of Object.entries(path)) if (name in value) value[name] = id;
      body = { ...body, value };
    }
    return { expect: 'reject' as const, what: '', path, query: query.flat(), body };
  });
}

function validQuery(p: Parameter, hints: Hints): fc.Arbitrary<string> {
  const s = p.schema;
  const alternatives = branches(s);
  if (alternatives) {
    const text = alternatives.find((b) => b.type === 'string');
    return text ? validQuery({ ...p, schema: text }, hints) : fc.constant('1');
  }
  if (s.type === 'integer' || s.type === 'number') return validValue(s, hints, p.name).map(String);
  if (s.type === 'boolean') return fc.constantFrom('true', 'false');
  return validString(s, p.name, hints);
}

/** Faults of path parameters: values that are no id of that kind. */
function pathFaults(op: Operation): fc.Arbitrary<(d: Draft) => Draft>[] {
  return op.pathParams.flatMap((p) => {
    const s = p.schema;
    // Values the schema refuses (hostile values it takes go to hostileParams), and a few sent unencoded.
    const refused = [...NASTY_STRINGS, '-1300000000000000001', '1e21', '123456789012345678901'].filter((v) => stringRejects(s, v));
    const tooLong = Math.max(s.maxLength ?? 64, 64) + 1;
    const arms: fc.WeightedArbitrary<{ value: string; raw: boolean }>[] = [
      { weight: 1, arbitrary: fc.integer({ min: tooLong, max: 5000 }).chain(stringOfLength).map((value) => ({ value, raw: false })) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_TRAVERSALS).map((value) => ({ value, raw: true })) },
    ];
    if (refused.length > 0) arms.push({ weight: 3, arbitrary: fc.constantFrom(...refused).map((value) => ({ value, raw: false })) });
    if (s.pattern) arms.push({ weight: 2, arbitrary: nastyString.filter((v) => stringRejects(s, v)).map((value) => ({ value, raw: false })) });
    const bad = fc.oneof(...arms);
    return [
      bad.map((v) => (d: Draft): Draft => {
        // A value sent unencoded may move the request to another path (404), or arrive as it is.
        const decoded = v.raw ? decodedSegment(v.value) : v.value;
        const invalid = decoded === null || stringRejects(s, decoded);
        return {
          ...d,
          expect: invalid ? d.expect : 'survive',
          what: `path ${p.name}=${short(v.value, 60)}${v.raw ? ' (unencoded)' : ''}: ${invalid ? 'not a valid id' : 'names nothing'}`,
          path: { ...d.path, [p.name]: v },
        };
      }),
    ];
  });
}

/** Faults of query parameters: left out when required, of the wrong kind, or repeated. */
function queryFaults(op: Operation): fc.Arbitrary<(d: Draft) => Draft>[] {
  const without = (d: Draft, name: string) => d.query.filter(([k]) => k !== name);
  return op.queryParams.flatMap((p) => {
    const out: fc.Arbitrary<(d: Draft) => Draft>[] = [];
    if (p.required) out.push(fc.constant((d: Draft): Draft => ({ ...d, what: `query ${p.name}: required, left out`, query: without(d, p.name) })));
    const candidates = fc.oneof(
      nastyString,
      fc.constantFrom('abc', 'NaN', '-1', '0', '1.5', '1e309', 'Infinity', '-Infinity', '', ' ', '99999999999999999999999', '1001', '-0', 'true1', 'TRUE', 'yes', '2024-02-30', '2024-13-01', '20240101', '2024-1-1'),
      fc.integer({ min: 65, max: 3000 }).chain(stringOfLength),
    );
    // Only where something can be wrong (a bound, a pattern, a type): else the filter would never pass.
    const s = p.schema;
    const bounded = branches(s) || s.enum || s.pattern || s.maxLength !== undefined || (s.minLength ?? 0) > 0 || (s.type !== undefined && s.type !== 'string');
    if (bounded) {
      out.push(
        candidates
          .filter((v) => queryRejects(s, v))
          .map((v) => (d: Draft): Draft => ({ ...d, what: `query ${p.name}=${short(v, 60)}: invalid`, query: [...without(d, p.name), [p.name, v]] })),
      );
    }
    out.push(
      fc
        .tuple(validQuery(p, { snowflake: () => fc.constant('1'), opaqueId: () => fc.constant('x') }), nastyString)
        .map(([a, b]) => (d: Draft): Draft => ({ ...d, what: `query ${p.name} given twice`, query: [...without(d, p.name), [p.name, a], [p.name, b]] })),
    );
    return out;
  });
}

/** Faults of the body: one site of a valid body broken, or the envelope (JSON, content type, size). */
function bodyFaults(op: Operation, bodyLimit: number): fc.Arbitrary<(d: Draft) => Draft>[] {
  const schema = op.body;
  if (!schema) return [];
  return [
    // Envelope faults, whatever the base.
    fc.constantFrom(...MALFORMED_JSON).map((text) => (d: Draft): Draft => ({ ...d, what: 'body: malformed JSON', body: { kind: 'raw', text, contentType: 'application/json' } })),
    fc.nat().map((cut) => (d: Draft): Draft => {
      const text = JSON.stringify((d.body as { value: unknown }).value ?? {});
      return { ...d, what: 'body: JSON cut short', body: { kind: 'raw', text: text.slice(0, cut % Math.max(1, text.length)), contentType: 'application/json' } };
    }),
    fc.constant((d: Draft): Draft => ({ ...d, what: 'body: JSON with trailing garbage', body: { kind: 'raw', text: `${JSON.stringify((d.body as { value: unknown }).value ?? {})}x`, contentType: 'application/json' } })),
    fc.constantFrom(...OTHER_CONTENT_TYPES).map((contentType) => (d: Draft): Draft => ({
      ...d,
      what: `body: sent as ${contentType}`,
      body: { kind: 'raw', text: contentType.includes('form-urlencoded') ? 'a=1&b=%ZZ&__proto__=x' : contentType.startsWith('multipart') ? '------fuzz\r\ngarbage\r\n' : JSON.stringify((d.body as { value: unknown }).value ?? {}), contentType },
    })),
    fc.constant((d: Draft): Draft => ({ ...d, what: 'body: JSON text without a content type', body: { kind: 'raw', text: JSON.stringify((d.body as { value: unknown }).value ?? {}) } })),
    fc.constant((d: Draft): Draft => ({ ...d, what: `body: over the ${bodyLimit}-byte limit`, body: { kind: 'raw', text: `{"x":"${'a'.repeat(bodyLimit + 16)}"}`, contentType: 'application/json' } })),
  ];
}

/** One fault put into the base body at a site of it, chosen from the body fast-check generated. */
function structuralBodyFault(op: Operation, base: Draft): fc.Arbitrary<Draft> | null {
  if (!op.body || base.body.kind !== 'json') return null;
  const schema = op.body;
  const value = base.body.value;
  const faults = sitesOf(schema, value).flatMap((site) => faultsAt(site).map((fault) => ({ site, fault })));
  if (faults.length === 0) return null;
  return fc
    .integer({ min: 0, max: faults.length - 1 })
    .chain((i) => faults[i]!.fault.map((fault) => ({ path: faults[i]!.site.path, fault })))
    .map(({ path, fault }) => ({ ...base, what: fault.what, body: { kind: 'json' as const, value: setAt(value, path, fault.value) } }))
    .filter((d) => d.body.kind === 'json' && (d.body.value === undefined || rejects(schema, materialize(d.body.value))));
}

/** A hostile but valid body: free text replaced, unknown fields, a byte-order mark. */
function hostileBody(op: Operation, base: Draft): fc.Arbitrary<Draft> | null {
  if (!op.body || base.body.kind !== 'json') return null;
  const value = base.body.value;
  const texts = textSites(op.body, value);
  const options: fc.Arbitrary<Draft>[] = [
    extraFields.map((extra) => ({ ...base, expect: 'survive' as const, what: `body: unknown fields ${extra.map(([k]) => short(k, 20)).join(', ')}`, body: { kind: 'json' as const, value, extra } })),
    fc.constantFrom('\uFEFF', ' \n\t').map((prefix) => ({ ...base, expect: 'survive' as const, what: `body: JSON after ${short(prefix)}`, body: { kind: 'json' as const, value, prefix } })),
  ];
  options.push(fc.constant({ ...base, expect: 'survive' as const, what: `body: an unknown field nested ${DEEP} deep`, body: { kind: 'json' as const, value, extra: [['deep', deepJson()]] } }));
  const anything = sitesOf(op.body, value).filter((site) => site.path.length > 0 && !rejects(site.schema, []) && !rejects(site.schema, {}) && !rejects(site.schema, 'x'));
  if (anything.length > 0) {
    options.push(
      fc.integer({ min: 0, max: anything.length - 1 }).map((i) => {
        const site = anything[i]!;
        return { ...base, expect: 'survive' as const, what: `${where(site.path)}: any value, nested ${DEEP} deep`, body: { kind: 'json' as const, value: setAt(value, site.path, deepJson()) } };
      }),
    );
  }
  const unbounded = texts.filter((site) => site.schema.maxLength === undefined);
  if (unbounded.length > 0) {
    // No bound declared: 100k characters must be refused or stored, never crash.
    options.push(
      fc.tuple(fc.integer({ min: 0, max: unbounded.length - 1 }), stringOfLength(HUGE)).map(([i, text]) => {
        const site = unbounded[i]!;
        return { ...base, expect: 'survive' as const, what: `${where(site.path)}: ${HUGE} characters (no maxLength)`, body: { kind: 'json' as const, value: setAt(value, site.path, text) } };
      }),
    );
  }
  if (texts.length > 0) {
    options.push(
      fc.tuple(fc.integer({ min: 0, max: texts.length - 1 }), nastyString).map(([i, text]) => {
        const site = texts[i]!;
        const fitted = fitLength(site.schema, text);
        return { ...base, expect: 'survive' as const, what: `${where(site.path)}=${short(fitted, 60)}: hostile text`, body: { kind: 'json' as const, value: setAt(value, site.path, fitted) } };
      }),
    );
  }
  return fc.oneof(...options);
}

/** Hostile but valid opaque ids and free-text query values. */
function hostileParams(op: Operation, base: Draft): fc.Arbitrary<Draft> | null {
  const options: fc.Arbitrary<Draft>[] = [];
  for (const p of op.pathParams) {
    if (!isFreeText(p.schema)) continue;
    options.push(
      nastyString
        .map((v) => fitLength(p.schema, v))
        .map((value) => ({
          ...base,
          expect: 'survive' as const,
          what: `path ${p.name}=${short(value, 60)}: names nothing`,
          path: { ...base.path, [p.name]: { value } },
          // A body field that repeats the parameter repeats the new value too.
          body: base.body.kind === 'json' && isPlainObject(base.body.value) && p.name in base.body.value ? { ...base.body, value: { ...base.body.value, [p.name]: value } } : base.body,
        })),
    );
  }
  for (const p of op.queryParams) {
    if (!isFreeText(p.schema)) continue;
    options.push(
      nastyString
        .map((v) => fitLength(p.schema, v))
        .map((value) => ({ ...base, expect: 'survive' as const, what: `query ${p.name}=${short(value, 60)}: hostile text`, query: [...base.query.filter(([k]) => k !== p.name), [p.name, value]] })),
    );
  }
  return options.length > 0 ? fc.oneof(...options) : null;
}

/** A body where the operation reads none (or noise only): it must be ignored or refused, never crash. */
const noiseBody: fc.Arbitrary<Body> = fc.oneof(
  fc.constant<Body>({ kind: 'none' }),
  fc.constantFrom(...MALFORMED_JSON).map((text): Body => ({ kind: 'raw', text, contentType: 'application/json' })),
  fc.constantFrom(...OTHER_CONTENT_TYPES).map((contentType): Body => ({ kind: 'raw', text: contentType.startsWith('multipart') ? '------fuzz\r\nContent-Disposition: form-data; name="file"\r\n\r\ngarbage' : 'garbage \u0000', contentType })),
  extraFields.map((extra): Body => ({ kind: 'json', value: {}, extra })),
);

/** The value once in `every` draws, else null. */
const sometimes = <T>(every: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: every - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

/**
 * Every request for one operation: a valid base with one fault (`reject`), or hostile but valid
 * input (`survive`, about one in six where the operation has such input), and noise around it
 * (unknown query keys and fields, which the schemas strip).
 */
export function requestArbitrary(op: Operation, options: Options): fc.Arbitrary<FuzzRequest> {
  const faults = [...pathFaults(op), ...queryFaults(op), ...bodyFaults(op, options.bodyLimit)];
  const base = baseDraft(op, options.hints);
  const hasBody = op.body !== null;

  const drafts = base.chain((b) => {
    const rejecting: fc.Arbitrary<Draft>[] = [];
    if (faults.length > 0) rejecting.push(fc.oneof(...faults).map((apply) => apply(b)));
    const structural = structuralBodyFault(op, b);
    if (structural) rejecting.push(structural);
    const surviving = [hostileBody(op, b), hostileParams(op, b)].filter((a): a is fc.Arbitrary<Draft> => a !== null);
    if (rejecting.length === 0) {
      // Nothing declared to get wrong: noise only (unknown query keys, a body where none is read).
      return noiseBody.map((body) => ({ ...b, expect: 'survive' as const, what: 'no input declared: noise only', body }));
    }
    return fc.oneof(
      { weight: 10, arbitrary: fc.oneof(...rejecting) },
      ...(surviving.length > 0 ? [{ weight: 2, arbitrary: fc.oneof(...surviving) }] : []),
    );
  });

  return fc
    .record({
      draft: drafts,
      extraQuery,
      extraFields: sometimes(3, extraFields),
      rawQuery: sometimes(6, fc.constantFrom(...RAW_QUERY_JUNK)),
      credential: fc.constantFrom(...options.credentials),
      // Where no body is declared, sometimes send one anyway (ignored, or refused when it is not even JSON).
      strayBody: hasBody ? fc.constant(null) : sometimes(4, noiseBody),
    })
    .map(({ draft, extraQuery, extraFields, rawQuery, credential, strayBody }): FuzzRequest | null => {
      let body = draft.body;
      // Unknown fields beside a fault: they change nothing about it (every object strips them).
      if (extraFields && body.kind === 'json' && isPlainObject(body.value) && !body.extra) body = { ...body, extra: extraFields };
      if (strayBody) body = strayBody;
      // Unknown query keys (and junk) are ignored; not added where they would repeat a declared key.
      const declared = new Set(op.queryParams.map((p) => p.name));
      const query = [...draft.query, ...extraQuery.filter(([k]) => !declared.has(k))];
      const full: Draft = { ...draft, body, query, ...(rawQuery ? { rawQuery } : {}) };
      const { payload, contentType } = payloadOf(full.body);
      const url = buildUrl(op, full);
      const sentRaw = Object.values(full.path).some((p) => p.raw);
      const lands = sentRaw ? landing(url, op.method, op, options.operations) : 'own';
      if (lands === 'other') return null;
      const request: FuzzRequest = {
        // Resolved onto no route at all: 404.
        expect: lands === 'nowhere' ? 'reject' : full.expect,
        what: lands === 'nowhere' ? `${full.what}; resolves to no route` : full.what,
        method: op.method,
        url,
        headers: contentType !== undefined ? { 'content-type': contentType } : {},
        ...(payload !== undefined ? { payload } : {}),
        credential,
      };
      return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) }) as FuzzRequest;
    })
    .filter((request): request is FuzzRequest => request !== null);
}
