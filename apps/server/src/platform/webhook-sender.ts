import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { AddressRefused, assertPublicHost, bareHost, isPublicAddress, publicOnlyLookup } from './public-address';

/** Where webhook endpoints may be: what the configuration allows beyond public https URLs. */
export interface EndpointPolicy {
  allowPrivate: boolean;
  allowHttp: boolean;
}

/** What one attempt came to: an HTTP status, or why there was none (or why it does not count). */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`, keyed with the secret as UTF-8 text. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * Why the URL may not be an endpoint under this policy, or null when it may: https only (http
 * when allowed), no credentials, and a host that is not, and does not resolve to, a reserved
 * address (unless private addresses are allowed).
 */
export async function endpointUrlProblem(url: string, policy: EndpointPolicy): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Must be an https:// URL';
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && policy.allowHttp)) return 'Must be an https:// URL';
  if (parsed.username || parsed.password) return 'Must not contain a user name or password';
  if (policy.allowPrivate) return null;
  try {
    await assertPublicHost(parsed.hostname);
  } catch (error) {
    if (error instanceof AddressRefused) return error.message;
    throw error;
  }
  return null;
}

const USER_AGENT = 'TicketDashboard-Webhooks/1.0';

/** A connection error in words for the dashboard; never the request (which holds the signature). */
function describe(error: unknown, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return `No answer within ${timeoutMs / 1000} s`;
  if (error instanceof AddressRefused) return error.message;
  const e = error as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The host could not be resolved';
    case 'ECONNREFUSED':
      return 'The connection was refused';
    case 'ECONNRESET':
      return 'The connection was reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'The host is unreachable';
    default:
      if (e.code && /CERT|SSL|TLS/.test(e.code)) return `The TLS connection failed (${e.code})`;
      return (e.message || 'The request failed').slice(0, 200);
  }
}

/** Why a URL may not be posted to under this policy before any connection is made, or null. */
function refusedBeforeConnecting(parsed: URL, options: EndpointPolicy): string | null {
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && options.allowHttp)) return 'The URL must use https';
  // A literal address is connected to without a lookup, so it is judged here.
  const host = bareHost(parsed.hostname);
  if (!options.allowPrivate && isIP(host) && !isPublicAddress(host)) return `${host} is a private, loopback, link-local or otherwise reserved address`;
  return null;
}

/**
 * Posts one signed delivery. Redirects are not followed (a 3xx is a failed attempt); the attempt
 * ends after `timeoutMs` whatever it is doing (resolving, connecting, waiting for the answer).
 * Unless private addresses are allowed, the address connected to is checked at connect time.
 */
export async function postWebhook(url: string, body: string, headers: Record<string, string>, options: EndpointPolicy & { timeoutMs: number }): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const refused = parsed ? refusedBeforeConnecting(parsed, options) : 'The URL is not valid';
  if (!parsed || refused) return { statusCode: null, error: refused, durationMs: elapsed() };

  return new Promise((resolve) => {
    let settled = false;
    let statusCode: number | null = null;
    let timedOut = false;
    const controller = new AbortController();
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const answered = () => {
      if (statusCode === null) return;
      const ok = statusCode >= 200 && statusCode < 300;
      const redirect = statusCode >= 300 && statusCode < 400;
      finish({ statusCode, error: ok ? null : redirect ? 'The endpoint answered with a redirect, which is not followed' : null });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      // Headers already in: the endpoint answered, however slowly its body comes.
      if (statusCode !== null) answered();
      else finish({ statusCode: null, error: describe(null, options.timeoutMs, true) });
    }, options.timeoutMs);

    const request = (parsed.protocol === 'https:' ? https : http).request(parsed, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': USER_AGENT },
      // A connection of its own each time: a pooled socket would skip the lookup that checks the address.
      agent: false,
      signal: controller.signal,
      ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
    });
    request.on('response', (response) => {
      statusCode = response.statusCode ?? null;
      // The answer's body is not kept: read and dropped, so the connection can end.
      response.on('data', () => undefined);
      response.on('end', answered);
      response.on('close', answered);
      response.on('error', answered);
    });
    request.on('error', (error) => {
      if (statusCode !== null) answered();
      else finish({ statusCode: null, error: describe(error, options.timeoutMs, timedOut) });
    });
    request.end(body);
  });
}
