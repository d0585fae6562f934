import { REST } from '@discordjs/rest';
import { CompressionMethod, WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import type { SessionInfo } from '@discordjs/ws';
import type { GatewayDispatchPayload } from 'discord-api-types/v10';
import { WebSocket } from 'ws';
import { startSandbox } from './index.ts';
import type { RunningSandbox, StartSandboxOptions } from './index.ts';
import { BOT_TOKEN } from './test-support.ts';

const WAIT_MS = 4_000;

export interface GatewayPayload {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

/** Waits for the first item that matches, among those seen so far and those still to come. */
class Waitable<T> {
  readonly items: T[] = [];
  private waiters: { match: (item: T) => boolean; resolve: (item: T) => void }[] = [];

  push(item: T): void {
    this.items.push(item);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(item)) return true;
      w.resolve(item);
      return false;
    });
  }

  waitFor(match: (item: T) => boolean, what: string, timeoutMs = WAIT_MS): Promise<T> {
    const found = this.items.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (item) => {
          clearTimeout(timer);
          resolve(item);
        },
      });
    });
  }
}

/** A hand-driven gateway client, for protocol details and errors a real library would never provoke. */
export class RawGatewayClient {
  readonly payloads = new Waitable<GatewayPayload>();
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.payloads.push(JSON.parse(data.toString()) as GatewayPayload));
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static open(url: string): Promise<RawGatewayClient> {
    const socket = new WebSocket(url);
    const client = new RawGatewayClient(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
    });
  }

  send(payload: unknown): void {
    this.socket.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }

  identify(fields: { intents: number; token?: string; shard?: unknown; compress?: boolean }): void {
    const { token = BOT_TOKEN, ...rest } = fields;
    this.send({ op: 2, d: { token, properties: { os: 'linux', browser: 'raw-test', device: 'raw-test' }, ...rest } });
  }

  next(match: (p: GatewayPayload) => boolean, what: string): Promise<GatewayPayload> {
    return this.payloads.waitFor(match, what);
  }

  dispatch(t: string, match: (d: never) => boolean = () => true): Promise<GatewayPayload> {
    return this.next((p) => p.op === 0 && p.t === t && match(p.d as never), t);
  }

  dispatches(t: string): GatewayPayload[] {
    return this.payloads.items.filter((p) => p.op === 0 && p.t === t);
  }

  close(): void {
    this.socket.terminate();
  }
}

export interface ManagerOptions {
  intents: number;
  shardCount?: number;
  shardIds?: number[];
  compression?: CompressionMethod | null;
  useIdentifyCompression?: boolean;
}

export interface TestManager {
  manager: WebSocketManager;
  dispatches: Waitable<GatewayDispatchPayload & { shardId: number }>;
  sessions: Map<number, SessionInfo>;
  waitFor<T = unknown>(t: string, match?: (d: T) => boolean): Promise<T>;
  /** Every dispatch of this type so far. */
  all<T = unknown>(t: string, match?: (d: T) => boolean): T[];
  closeCodes: number[];
}

/**
 * The product's own client: @discordjs/ws, with its REST pointed at the sandbox, a session store
 * of its own (the library's default is shared by every manager in the process) and no identify
 * throttle (each test is its own application).
 */
export async function startManager(sandbox: RunningSandbox, options: ManagerOptions): Promise<TestManager> {
  const rest = new REST({ api: `${sandbox.url}/api`, version: '10' }).setToken(BOT_TOKEN);
  const sessions = new Map<number, SessionInfo>();
  const manager = new WebSocketManager({
    token: BOT_TOKEN,
    intents: options.intents,
    rest,
    shardCount: options.shardCount ?? null,
    shardIds: options.shardIds ?? null,
    compression: options.compression ?? null,
    useIdentifyCompression: options.useIdentifyCompression ?? false,
    retrieveSessionInfo: (shardId) => sessions.get(shardId) ?? null,
    updateSessionInfo: (shardId, info) => {
      if (info) sessions.set(shardId, info);
      else sessions.delete(shardId);
    },
    buildIdentifyThrottler: async () => ({ waitForIdentify: async () => undefined }),
  });
  const dispatches = new Waitable<GatewayDispatchPayload & { shardId: number }>();
  const closeCodes: number[] = [];
  manager.on(WebSocketShardEvents.Dispatch, (payload, shardId) => dispatches.push({ ...payload, shardId }));
  manager.on(WebSocketShardEvents.Closed, (code) => closeCodes.push(code));
  await manager.connect();
  return {
    manager,
    dispatches,
    sessions,
    closeCodes,
    waitFor: async <T,>(t: string, match: (d: T) => boolean = () => true) =>
      (await dispatches.waitFor((p) => p.t === t && match(p.d as T), t)).d as T,
    all: <T,>(t: string, match: (d: T) => boolean = () => true) => dispatches.items.filter((p) => p.t === t && match(p.d as T)).map((p) => p.d as T),
  };
}

export async function startGatewaySandbox(options: Partial<StartSandboxOptions> = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, ...options });
}

/** A JSON control or REST call against a running sandbox. */
export async function call(sandbox: RunningSandbox, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json: json as never, headers: response.headers };
}

/** A guild id whose shard under `count` shards is `shard` (the demo guilds all fall on shard 0). */
export function guildIdOnShard(shard: number, count: number, salt = 1): string {
  const base = 309_944_000_000n + BigInt(salt) * BigInt(count) * 7n;
  const high = base - (base % BigInt(count)) + BigInt(shard);
  return ((high << 22n) | 1n).toString();
}

export { CompressionMethod };
