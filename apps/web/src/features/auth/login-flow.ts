import type { LoginConfig } from '@ticket/contracts';
import { safeNext } from './login-path';

// Where sign-in leads, which every signed-in screen needs, is a module of its own; the rest comes
// with the sign-in and callback screens.
export { loginPath, safeNext } from './login-path';

const PENDING_KEY = 'login';

/** What the browser keeps between leaving for the platform's sign-in and coming back to /callback. */
interface PendingLogin {
  state: string;
  next: string;
}

export type LoginErrorCode = 'access_denied' | 'invalid_token' | 'missing_code' | 'failed' | 'unknown';

export type CallbackResult =
  | { ok: true; code: string; next: string }
  | { ok: false; error: LoginErrorCode; next: string; detail?: string };

export const callbackUrl = (): string => `${window.location.origin}/callback`;

function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Remembers a fresh state and where to go afterwards, and returns the platform's authorize URL. */
export function prepareLogin(config: LoginConfig, next: string, storage: Storage = sessionStorage): string {
  const pending: PendingLogin = { state: randomState(), next: safeNext(next) };
  storage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL(config.authorizeUrl);
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('response_type', config.responseType);
  url.searchParams.set('scope', config.scope);
  url.searchParams.set('redirect_uri', callbackUrl());
  url.searchParams.set('prompt', config.prompt);
  url.searchParams.set('state', pending.state);
  return url.toString();
}

export function startLogin(config: LoginConfig, next: string): void {
  window.location.assign(prepareLogin(config, next));
}

function takePending(storage: Storage): PendingLogin | undefined {
  const raw = storage.getItem(PENDING_KEY);
  // A state is good for one answer only.
  storage.removeItem(PENDING_KEY);
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<PendingLogin>;
    return typeof value.state === 'string' ? { state: value.state, next: safeNext(value.next) } : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the platform's answer on /callback: an error, a state that is not ours, or a code to exchange. */
export function readCallback(search: URLSearchParams, storage: Storage = sessionStorage): CallbackResult {
  const pending = takePending(storage);
  const next = pending?.next ?? '/';
  const error = search.get('error');
  if (error) return { ok: false, error: error === 'access_denied' ? 'access_denied' : 'unknown', detail: error, next };
  const state = search.get('state');
  if (!pending || !state || state !== pending.state) return { ok: false, error: 'invalid_token', next };
  const code = search.get('code');
  if (!code) return { ok: false, error: 'missing_code', next };
  return { ok: true, code, next };
}
