import { GatewayCloseCodes } from 'discord-api-types/v10';
import type { GatewayIdentifyProperties } from 'discord-api-types/v10';
import { enabledPrivilegedIntents } from './applications.ts';
import type { Application } from './applications.ts';
import { ALL_INTENTS, PRIVILEGED_INTENTS } from './gateway-payloads.ts';
import type { SandboxState } from './state.ts';

export interface IdentifyRequest {
  /** The application whose bot the token is. */
  app: Application;
  /** As asked for; [0, 1] when the client sent no `shard`. */
  shard: [number, number];
  shardGiven: boolean;
  intents: number;
  largeThreshold: number;
  properties: GatewayIdentifyProperties;
  /** Payload compression (not transport compression). */
  compress: boolean;
}

export type IdentifyCheck = { ok: true; value: IdentifyRequest } | { ok: false; code: GatewayCloseCodes; reason: string };

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The application whose current bot token this is; Discord takes the token bare, and tolerates the REST-style `Bot ` prefix. */
export function applicationOfToken(state: SandboxState, token: string): Application | null {
  return state.applicationByToken(token.replace(/^Bot\s+/i, ''));
}

/** IDENTIFY's `d`, checked in Discord's order, each failure with the close code Discord uses. */
export function checkIdentify(state: SandboxState, d: unknown): IdentifyCheck {
  if (!isRecord(d) || typeof d.token !== 'string' || !isRecord(d.properties)) {
    return { ok: false, code: GatewayCloseCodes.DecodeError, reason: 'Decode error: identify needs token and properties' };
  }
  const app = applicationOfToken(state, d.token);
  if (!app) return { ok: false, code: GatewayCloseCodes.AuthenticationFailed, reason: 'Authentication failed' };
  let shard: [number, number] = [0, 1];
  const shardGiven = d.shard !== undefined && d.shard !== null;
  if (shardGiven) {
    const raw = d.shard;
    const valid = Array.isArray(raw) && raw.length === 2 && raw.every((n) => Number.isInteger(n)) && raw[1] >= 1 && raw[0] >= 0 && raw[0] < raw[1];
    if (!valid) return { ok: false, code: GatewayCloseCodes.InvalidShard, reason: 'Invalid shard' };
    shard = [raw[0] as number, raw[1] as number];
  }
  const intents = d.intents;
  if (typeof intents !== 'number' || !Number.isInteger(intents) || intents < 0 || (intents & ~ALL_INTENTS) !== 0) {
    return { ok: false, code: GatewayCloseCodes.InvalidIntents, reason: 'Invalid intent(s)' };
  }
  if ((intents & PRIVILEGED_INTENTS & ~enabledPrivilegedIntents(app)) !== 0) {
    return { ok: false, code: GatewayCloseCodes.DisallowedIntents, reason: 'Disallowed intent(s)' };
  }
  const threshold = d.large_threshold;
  const properties = d.properties;
  return {
    ok: true,
    value: {
      app,
      shard,
      shardGiven,
      intents,
      largeThreshold: typeof threshold === 'number' && Number.isInteger(threshold) ? Math.min(250, Math.max(50, threshold)) : 50,
      properties: { os: String(properties.os ?? ''), browser: String(properties.browser ?? ''), device: String(properties.device ?? '') },
      compress: d.compress === true,
    },
  };
}
