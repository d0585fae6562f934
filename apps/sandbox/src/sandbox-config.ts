import type { SandboxState } from './state.ts';

export interface SandboxConfig {
  /** The application's Interactions Endpoint URL; member clicks and modal submits are POSTed here. */
  interactionsUrl: string | null;
}

/** A partial change: an omitted key stays as it is, `null` switches the feature off. */
export interface ConfigureOptions {
  interactionsUrl?: string | null;
}

const KEYS = new Set(['interactionsUrl']);

/** The value when it is an http(s) URL, else null. */
export function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}

/** Validates a configure() argument or a PUT /_sandbox/config body; unknown keys are refused so typos surface. */
export function checkConfigureOptions(input: unknown): { ok: true; value: ConfigureOptions } | { ok: false; error: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, error: 'the configuration must be a JSON object' };
  const raw = input as Record<string, unknown>;
  const unknown = Object.keys(raw).filter((k) => !KEYS.has(k));
  if (unknown.length > 0) return { ok: false, error: `unknown configuration key(s): ${unknown.join(', ')} (known: interactionsUrl)` };
  const value: ConfigureOptions = {};
  if (raw.interactionsUrl !== undefined) {
    if (raw.interactionsUrl === null) value.interactionsUrl = null;
    else {
      const url = httpUrl(raw.interactionsUrl);
      if (!url) return { ok: false, error: 'interactionsUrl must be an http(s) URL or null' };
      value.interactionsUrl = url;
    }
  }
  return { ok: true, value };
}

export function applyConfigureOptions(state: SandboxState, options: ConfigureOptions): void {
  if (options.interactionsUrl !== undefined) state.config.interactionsUrl = options.interactionsUrl;
}

/** The configuration as control routes show it. */
export function describeConfig(state: SandboxState): { interactionsUrl: string | null } {
  return { interactionsUrl: state.config.interactionsUrl };
}
