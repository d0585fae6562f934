import { emptyParam, invalidRequest, missingParam, unknownParam } from './stripe-errors.ts';

export type ParamValue = string | number | boolean | null | ParamValue[] | { [key: string]: ParamValue };
export type ParamRecord = Record<string, ParamValue>;

/** `line_items[0][price]` → ['line_items', '0', 'price']; `expand[]` → ['expand', '']. */
function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const parts = [key.slice(0, open)];
  const rest = key.slice(open);
  for (const match of rest.matchAll(/\[([^\]]*)\]/g)) parts.push(match[1] ?? '');
  return parts;
}

function isIndexed(record: Record<string, ParamValue>): boolean {
  const keys = Object.keys(record);
  return keys.length > 0 && keys.every((k) => /^\d+$/.test(k));
}

/** Objects whose keys are all indexes become arrays, in index order, as Stripe's parser reads `a[0]`, `a[1]`. */
function normalise(value: ParamValue): ParamValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(normalise);
  if (isIndexed(value)) {
    return Object.keys(value)
      .sort((a, b) => Number(a) - Number(b))
      .map((k) => normalise(value[k] ?? null));
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
}

/** Parses application/x-www-form-urlencoded with bracket notation, as the `stripe` SDK and curl send it. */
export function parseStripeForm(raw: string): ParamRecord {
  const root: Record<string, ParamValue> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = splitKey(key);
    let node: Record<string, ParamValue> = root;
    path.forEach((segment, i) => {
      const name = segment === '' ? String(Object.keys(node).length) : segment;
      if (i === path.length - 1) {
        node[name] = value;
        return;
      }
      const next = node[name];
      if (next === null || typeof next !== 'object' || Array.isArray(next)) node[name] = {};
      node = node[name] as Record<string, ParamValue>;
    });
  }
  return normalise(root) as ParamRecord;
}

const asText = (value: ParamValue): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Reads one request's parameters the way Stripe validates them: typed, with Stripe's messages and
 * param names (`line_items[0][price]`), and refusing parameters nobody read, as Stripe refuses
 * unknown ones.
 */
export class Params {
  private readonly used = new Set<string>();
  private readonly children: Params[] = [];

  constructor(
    private readonly values: ParamRecord,
    private readonly prefix = '',
  ) {}

  static from(value: unknown): Params {
    if (value === null || value === undefined || value === '') return new Params({});
    if (typeof value === 'string') return new Params(parseStripeForm(value));
    if (typeof value === 'object' && !Array.isArray(value)) return new Params(value as ParamRecord);
    throw invalidRequest('Invalid request body: expected form-encoded parameters or a JSON object.');
  }

  /** Where this hash sits in the request, e.g. `line_items[0]`; empty at the top. */
  get path(): string {
    return this.prefix;
  }

  name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.values[key] !== undefined;
  }

  /** Marks parameters Stripe accepts that the sandbox does not model, so they pass without effect. */
  ignore(...keys: string[]): this {
    for (const key of keys) this.used.add(key);
    return this;
  }

  private take(key: string): ParamValue | undefined {
    this.used.add(key);
    return this.values[key];
  }

  string(key: string, options: { required?: boolean; allowEmpty?: boolean } = {}): string | undefined {
    const value = this.take(key);
    if (value === undefined || value === null) {
      if (options.required) throw missingParam(this.name(key));
      return undefined;
    }
    if (typeof value === 'object') throw invalidRequest(`Invalid string: ${asText(value)}`, { param: this.name(key) });
    const text = String(value);
    if (text === '' && !options.allowEmpty) throw options.required ? missingParam(this.name(key)) : emptyParam(this.name(key));
    return text;
  }

  requiredString(key: string): string {
    return this.string(key, { required: true }) as string;
  }

  int(key: string, options: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    const value = this.take(key);
    if (value === undefined || value === null || value === '') {
      if (options.required) throw missingParam(this.name(key));
      return undefined;
    }
    const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(number)) throw invalidRequest(`Invalid integer: ${asText(value)}`, { param: this.name(key), code: 'parameter_invalid_integer' });
    if (options.min !== undefined && number < options.min) {
      throw invalidRequest(`This value must be greater than or equal to ${options.min}.`, { param: this.name(key), code: 'parameter_invalid_integer' });
    }
    if (options.max !== undefined && number > options.max) {
      throw invalidRequest(`This value must be less than or equal to ${options.max}.`, { param: this.name(key), code: 'parameter_invalid_integer' });
    }
    return number;
  }

  bool(key: string): boolean | undefined {
    const value = this.take(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    throw invalidRequest(`Invalid boolean: ${asText(value)}`, { param: this.name(key) });
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], options: { required?: boolean } = {}): T | undefined {
    const value = this.string(key, options);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      const list = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')}, or ${allowed[allowed.length - 1]}` : allowed.join('');
      throw invalidRequest(`Invalid ${this.name(key)}: must be one of ${list}`, { param: this.name(key) });
    }
    return value as T;
  }

  url(key: string, options: { required?: boolean } = {}): string | undefined {
    const value = this.string(key, options);
    if (value === undefined) return undefined;
    try {
      const url = new URL(value.replace(/\{CHECKOUT_SESSION_ID\}/g, 'x'));
      if (url.protocol === 'http:' || url.protocol === 'https:') return value;
    } catch {
      // falls through to Stripe's answer below
    }
    throw invalidRequest('Not a valid URL', { param: this.name(key), code: 'url_invalid' });
  }

  /** An array of strings, from `k[]=a&k[]=b`, `k[0]=a` or JSON. */
  strings(key: string): string[] | undefined {
    const value = this.take(key);
    if (value === undefined || value === null || value === '') return undefined;
    const list = Array.isArray(value) ? value : [value];
    return list.map((item, i) => {
      if (typeof item !== 'string' && typeof item !== 'number') throw invalidRequest(`Invalid array`, { param: `${this.name(key)}[${i}]` });
      return String(item);
    });
  }

  /** A nested hash; its own unknown keys are refused by finish() as `parent[key]`. */
  object(key: string): Params | undefined {
    const value = this.take(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) throw invalidRequest(`Invalid object`, { param: this.name(key) });
    const child = new Params(value, this.name(key));
    this.children.push(child);
    return child;
  }

  /** An array of hashes (`items[0][price]`). */
  objects(key: string): Params[] | undefined {
    const value = this.take(key);
    if (value === undefined || value === null || value === '') return undefined;
    const list = Array.isArray(value) ? value : [value];
    return list.map((item, i) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) throw invalidRequest('Invalid hash', { param: `${this.name(key)}[${i}]` });
      const child = new Params(item, `${this.name(key)}[${i}]`);
      this.children.push(child);
      return child;
    });
  }

  /**
   * Metadata as Stripe takes it: `metadata[k]=v` sets, `metadata[k]=` deletes a key and `metadata=`
   * clears all (null). At most 50 keys of 40 characters, values of 500.
   */
  metadata(key = 'metadata'): Record<string, string> | null | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (value === '' || value === null) return null;
    if (typeof value !== 'object') throw invalidRequest('Invalid hash', { param: this.name(key) });
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    if (entries.length > 50) throw invalidRequest('Invalid metadata: metadata cannot have more than 50 keys.', { param: this.name(key) });
    const out: Record<string, string> = {};
    for (const [k, v] of entries) {
      if (k.length > 40) throw invalidRequest(`Invalid metadata: keys must be at most 40 characters.`, { param: `${this.name(key)}[${k}]` });
      if (v !== null && typeof v === 'object') throw invalidRequest('Invalid string', { param: `${this.name(key)}[${k}]` });
      const text = v === null ? '' : String(v);
      if (text.length > 500) throw invalidRequest(`Invalid metadata: values must be at most 500 characters.`, { param: `${this.name(key)}[${k}]` });
      out[k] = text;
    }
    return out;
  }

  expand(): string[] {
    return this.strings('expand') ?? [];
  }

  /** Refuses the first parameter no handler read, here or in a nested hash. */
  finish(): void {
    for (const key of Object.keys(this.values)) if (!this.used.has(key)) throw unknownParam(this.name(key));
    for (const child of this.children) child.finish();
  }
}

/** Applies a metadata change to existing metadata, Stripe's way (an empty value deletes its key). */
export function mergeMetadata(current: Record<string, string>, change: Record<string, string> | null | undefined): Record<string, string> {
  if (change === undefined) return current;
  if (change === null) return {};
  const next = { ...current };
  for (const [k, v] of Object.entries(change)) {
    if (v === '') delete next[k];
    else next[k] = v;
  }
  return next;
}
