import { signInteraction } from './application-key.ts';
import { ControlError } from './control-error.ts';
import { DiscordApiError, invalidJson } from './errors.ts';
import { applyInitialResponse } from './interaction-responses.ts';
import { publishInteraction } from './platform-events.ts';
import type { InteractionRecord, SandboxState } from './state.ts';

/** Discord shows "This interaction failed" after 3 s; the sandbox waits longer and says so instead. */
const DISCORD_DEADLINE_MS = 3_000;
const DELIVERY_TIMEOUT_MS = 10_000;
// What Discord's interaction deliveries identify as; some endpoints log or check it.
const USER_AGENT = 'Discord-Interactions/1.0 (+https://discord.com)';

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** "ECONNREFUSED" reads better than fetch's generic "fetch failed". */
export function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * POSTs the interaction to the endpoint signed as Discord signs it (Ed25519 over timestamp + raw
 * body), records the answer, and applies it when it is a valid initial response. An answer
 * Discord would refuse is recorded in `errors` rather than thrown: the endpoint's status is still
 * what the caller gets. Only an unreachable endpoint is a failure of the request itself (502).
 */
export async function deliverInteraction(state: SandboxState, record: InteractionRecord, url: string): Promise<void> {
  // Signed with the key of the application it is for, whichever bot that is.
  const key = (state.applications.get(record.applicationId) ?? state.application).key;
  const body = JSON.stringify(record.payload);
  const timestamp = String(Math.floor(state.now() / 1000));
  const started = performance.now();
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'x-signature-ed25519': signInteraction(key, timestamp, body),
        'x-signature-timestamp': timestamp,
      },
      body,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    const reason = describeFetchError(error, DELIVERY_TIMEOUT_MS);
    record.errors.push({ message: `The interactions endpoint could not be reached: ${reason}`, code: 0 });
    throw new ControlError(502, `could not reach the interactions endpoint ${url}: ${reason}`);
  }
  const elapsed = Math.round(performance.now() - started);
  record.status = response.status;
  record.response = parseBody(text);
  if (elapsed > DISCORD_DEADLINE_MS) {
    record.warnings.push(`The endpoint answered after ${elapsed} ms; Discord gives up after 3 s and the member sees "This interaction failed"`);
  }
  // Answered through the callback route while this request was open: the HTTP body no longer counts.
  if (record.acknowledged) return;
  if (response.status < 200 || response.status > 299) {
    record.errors.push({ message: `The interactions endpoint answered ${response.status}; the member sees "This interaction failed"`, code: 0 });
    return;
  }
  if (typeof record.response !== 'object' || record.response === null || Array.isArray(record.response)) {
    record.errors.push(invalidJson().toJSON());
    return;
  }
  try {
    applyInitialResponse(state, record, record.response);
  } catch (error) {
    if (!(error instanceof DiscordApiError)) throw error;
    record.errors.push(error.toJSON());
  }
}

function waitForAcknowledgement(state: SandboxState, interactionId: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      state.acknowledgementWaiters.delete(interactionId);
      resolve(false);
    }, timeoutMs);
    state.acknowledgementWaiters.set(interactionId, () => {
      clearTimeout(timer);
      state.acknowledgementWaiters.delete(interactionId);
      resolve(true);
    });
  });
}

/**
 * For an application without an interactions endpoint URL: the interaction goes out as
 * INTERACTION_CREATE on the gateway, and the application answers through the callback route.
 * Waits for that answer (up to 10 s, with Discord's 3 s deadline noted as a warning) so the
 * member's view shows the outcome, as the client would.
 */
export async function deliverOverGateway(state: SandboxState, record: InteractionRecord): Promise<void> {
  const started = performance.now();
  const acknowledged = waitForAcknowledgement(state, record.id, DELIVERY_TIMEOUT_MS);
  if (publishInteraction(state, record) === 0) {
    state.acknowledgementWaiters.get(record.id)?.();
    record.errors.push({ message: 'No gateway session receives this guild\'s events; the member sees "This interaction failed"', code: 0 });
    throw new ControlError(409, 'no interactions endpoint is configured and no gateway session receives this guild\'s events');
  }
  const answered = await acknowledged;
  const elapsed = Math.round(performance.now() - started);
  if (!answered) {
    record.errors.push({ message: `The application did not answer the INTERACTION_CREATE within ${DELIVERY_TIMEOUT_MS / 1000} s; the member sees "This interaction failed"`, code: 0 });
  } else if (elapsed > DISCORD_DEADLINE_MS) {
    record.warnings.push(`The application answered after ${elapsed} ms; Discord gives up after 3 s and the member sees "This interaction failed"`);
  }
}
