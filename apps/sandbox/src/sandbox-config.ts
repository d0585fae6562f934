import type { SandboxState } from './state.ts';

/** Where the product listens, as a developer would set it in the portal or deploy a bot worker. */
export interface BotWorkerConfig {
  /** Base of the product's Ticket API, e.g. `http://localhost:3000/api/support`. */
  apiUrl: string;
  /** Sent verbatim as the `Authorization` header of forwarded member messages. */
  authorization: string;
}

export interface SandboxConfig {
  /** The application's Interactions Endpoint URL; member clicks and modal submits are POSTed here. */
  interactionsUrl: string | null;
  /** When set, member messages in channels the bot created are forwarded as the bot worker would. */
  botWorker: BotWorkerConfig | null;
}

/** A partial change: an omitted key stays as it is, `null` switches the feature off. */
export interface ConfigureOptions {
  interactionsUrl?: string | null;
  botWorker?: BotWorkerConfig | null;
}

const KEYS = new Set(['interactionsUrl', 'botWorker']);

function httpUrl(value: unknown): string | null {
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
  if (unknown.length > 0) return { ok: false, error: `unknown configuration key(s): ${unknown.join(', ')} (known: interactionsUrl, botWorker)` };
  const value: ConfigureOptions = {};
  if (raw.interactionsUrl !== undefined) {
    if (raw.interactionsUrl === null) value.interactionsUrl = null;
    else {
      const url = httpUrl(raw.interactionsUrl);
      if (!url) return { ok: false, error: 'interactionsUrl must be an http(s) URL or null' };
      value.interactionsUrl = url;
    }
  }
  if (raw.botWorker !== undefined) {
    if (raw.botWorker === null) value.botWorker = null;
    else {
      const worker = raw.botWorker as Record<string, unknown>;
      if (typeof worker !== 'object' || Array.isArray(worker)) return { ok: false, error: 'botWorker must be {apiUrl, authorization} or null' };
      const apiUrl = httpUrl(worker.apiUrl);
      if (!apiUrl) return { ok: false, error: 'botWorker.apiUrl must be an http(s) URL' };
      if (typeof worker.authorization !== 'string' || worker.authorization.trim() === '') {
        return { ok: false, error: 'botWorker.authorization must be a non-empty string (the Authorization header to send)' };
      }
      // Stored without a trailing slash so paths can be appended as `${apiUrl}/servers/...`.
      value.botWorker = { apiUrl: apiUrl.replace(/\/+$/, ''), authorization: worker.authorization };
    }
  }
  return { ok: true, value };
}

export function applyConfigureOptions(state: SandboxState, options: ConfigureOptions): void {
  if (options.interactionsUrl !== undefined) state.config.interactionsUrl = options.interactionsUrl;
  if (options.botWorker !== undefined) state.config.botWorker = options.botWorker && { ...options.botWorker };
}

/** The configuration as control routes show it: the Authorization value is a secret of the product, so it is not echoed. */
export function describeConfig(state: SandboxState): { interactionsUrl: string | null; botWorker: { apiUrl: string } | null } {
  const { interactionsUrl, botWorker } = state.config;
  return { interactionsUrl, botWorker: botWorker ? { apiUrl: botWorker.apiUrl } : null };
}
