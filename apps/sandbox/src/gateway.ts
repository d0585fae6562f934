import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayCloseCodes, GatewayDispatchEvents, GatewayIntentBits, GatewayOpcodes } from 'discord-api-types/v10';
import type { APIGatewayBotInfo, GatewayIdentifyProperties } from 'discord-api-types/v10';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { clearTimers, newConnection, rawBytes, sendText } from './gateway-connection.ts';
import type { Connection } from './gateway-connection.ts';
import { botMaySee, dataFor, intentAllows } from './gateway-filters.ts';
import type { Application } from './applications.ts';
import { applicationOfToken, checkIdentify, isRecord } from './gateway-identify.ts';
import { gatewayGuild, readyPayload, shardOf } from './gateway-payloads.ts';
import { requestGuildMembers } from './gateway-members.ts';
import type { PlatformEvent, PlatformEventSink } from './platform-events.ts';
import type { SandboxState } from './state.ts';

export interface GatewayOptions {
  /** What HELLO asks for; Discord's is about 41 s. */
  heartbeatIntervalMs?: number;
  /** How long after HELLO or the last heartbeat a silent connection is closed (4009); 1.5 × the interval by default. */
  heartbeatTimeoutMs?: number;
  /** How long, on the sandbox clock, a disconnected session can still be resumed. */
  resumeWindowMs?: number;
}

export const GATEWAY_PATH = '/gateway';
export const GATEWAY_VERSION = 10;

const DEFAULT_HEARTBEAT_INTERVAL_MS = 41_250;
const DEFAULT_RESUME_WINDOW_MS = 3 * 60_000;
const MAX_PAYLOAD_BYTES = 4096;
const SEND_LIMIT = 120;
const SEND_WINDOW_MS = 60_000;
/** Dispatches kept per session for replay; a resume from before the oldest one is refused. */
const REPLAY_LIMIT = 10_000;
const GUILDS_PER_SHARD = 2500;
const SESSION_START_TOTAL = 1000;
const SESSION_START_WINDOW_MS = 24 * 60 * 60_000;
/** After asking for a reconnect (op 7), Discord closes the connection itself a few seconds later. */
const RECONNECT_GRACE_MS = 5_000;

export interface GatewaySession {
  id: string;
  /** The application whose bot identified. */
  applicationId: string;
  /** As identified; sessions without `shard` are [0, 1]. */
  shard: [number, number];
  shardGiven: boolean;
  intents: number;
  largeThreshold: number;
  properties: GatewayIdentifyProperties;
  seq: number;
  replay: { s: number; text: string }[];
  connection: Connection | null;
  /** Sandbox clock; null while connected. */
  disconnectedAt: number | null;
  createdAt: number;
  resumeUrl: string;
  resumes: number;
}

/** One session as GET /_sandbox/gateway/sessions lists it. */
export interface SessionView {
  id: string;
  applicationId: string;
  shard: [number, number];
  intents: number;
  seq: number;
  connected: boolean;
  disconnectedAt: number | null;
  resumes: number;
  properties: GatewayIdentifyProperties;
}

type Payload = { op: number; d?: unknown };

/**
 * Discord's gateway, version 10, JSON encoding, optionally zlib-stream transport compression: one
 * WebSocket server on the sandbox's HTTP server at /gateway. Sessions outlive their connections
 * for a resume window and keep every dispatch for replay; events reach a session only for its
 * shard's guilds, its intents and what its bot may see.
 */
export class Gateway implements PlatformEventSink {
  readonly heartbeatIntervalMs: number;
  readonly heartbeatTimeoutMs: number;
  readonly resumeWindowMs: number;
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  private readonly sessions = new Map<string, GatewaySession>();
  private readonly connections = new Set<Connection>();
  /** Sandbox-clock times of recent IDENTIFYs by application, for each bot's session start limit. */
  private identifies = new Map<string, number[]>();

  constructor(
    private readonly state: SandboxState,
    options: GatewayOptions = {},
  ) {
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? Math.round(this.heartbeatIntervalMs * 1.5);
    this.resumeWindowMs = options.resumeWindowMs ?? DEFAULT_RESUME_WINDOW_MS;
  }

  /** Takes over WebSocket upgrades on the HTTP server; other paths get a 404. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://sandbox');
      if (url.pathname !== GATEWAY_PATH && url.pathname !== `${GATEWAY_PATH}/`) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      this.server.handleUpgrade(request, socket, head, (ws) => this.open(ws, request, url));
    });
  }

  /** Ends every connection without a goodbye, as a crashed gateway would; sessions stay resumable. */
  shutdown(): void {
    for (const connection of this.connections) {
      clearTimers(connection);
      connection.socket.terminate();
    }
    this.connections.clear();
    this.server.close();
  }

  /** The application's IDENTIFYs within the session start window, oldest first. */
  private recentIdentifies(app: Application): number[] {
    const now = this.state.now();
    const recent = (this.identifies.get(app.clientId) ?? []).filter((at) => at > now - SESSION_START_WINDOW_MS);
    this.identifies.set(app.clientId, recent);
    return recent;
  }

  /** GET /gateway/bot's answer for the application's bot, with the WebSocket URL the client should use. */
  botInfo(baseUrl: string, app: Application): APIGatewayBotInfo {
    const now = this.state.now();
    const identifies = this.recentIdentifies(app);
    const guilds = this.state.guildIdsOf(app).length;
    const oldest = identifies[0];
    return {
      url: baseUrl,
      shards: Math.max(1, Math.ceil(guilds / 1000)),
      session_start_limit: {
        total: SESSION_START_TOTAL,
        remaining: Math.max(0, SESSION_START_TOTAL - identifies.length),
        reset_after: oldest === undefined ? SESSION_START_WINDOW_MS : oldest + SESSION_START_WINDOW_MS - now,
        max_concurrency: 1,
      },
    };
  }

  // ---- PlatformEventSink ------------------------------------------------------------------

  publish(event: PlatformEvent): number {
    let reached = 0;
    for (const session of this.liveSessions()) {
      const app = this.state.applications.get(session.applicationId);
      if (!app || !botMaySee(this.state, app, event)) continue;
      if (!this.routes(session, event.guildId) || !intentAllows(app, session, event)) continue;
      this.dispatch(session, event.t, dataFor(app, session, event));
      reached += 1;
    }
    return reached;
  }

  reaches(guildId: string | null, applicationId: string): boolean {
    return this.liveSessions().some((session) => session.applicationId === applicationId && this.routes(session, guildId));
  }

  /**
   * The application's token no longer works (revoked, reset, or the application is gone): its
   * connections close with 4004 Authentication failed, as Discord closes them, and its sessions
   * cannot be resumed.
   */
  revoked(applicationId: string): void {
    for (const session of this.liveSessions()) {
      if (session.applicationId !== applicationId) continue;
      this.sessions.delete(session.id);
      if (session.connection) this.close(session.connection, GatewayCloseCodes.AuthenticationFailed, 'Authentication failed');
    }
  }

  // ---- control --------------------------------------------------------------------------

  listSessions(): SessionView[] {
    return this.liveSessions().map((s) => ({
      id: s.id,
      applicationId: s.applicationId,
      shard: [...s.shard],
      intents: s.intents,
      seq: s.seq,
      connected: s.connection !== null,
      disconnectedAt: s.disconnectedAt,
      resumes: s.resumes,
      properties: { ...s.properties },
    }));
  }

  session(id: string): GatewaySession | null {
    return this.liveSessions().find((s) => s.id === id) ?? null;
  }

  /** Op 7: the client should reconnect and resume; the connection is closed for it if it does not. */
  requestReconnect(session: GatewaySession): boolean {
    const connection = session.connection;
    if (!connection) return false;
    this.send(connection, { op: GatewayOpcodes.Reconnect, d: null });
    connection.reconnectTimer = setTimeout(() => this.close(connection, GatewayCloseCodes.UnknownError, 'Reconnect requested'), RECONNECT_GRACE_MS);
    connection.reconnectTimer.unref();
    return true;
  }

  /** The TCP connection dies with no close frame (the client sees 1006); the session stays resumable. */
  drop(session: GatewaySession): boolean {
    const connection = session.connection;
    if (!connection) return false;
    this.detach(connection);
    connection.closing = true;
    clearTimers(connection);
    connection.socket.terminate();
    return true;
  }

  /** Op 9: the session may be resumed (d=true) or is gone (d=false); either way this connection no longer carries it. */
  invalidate(session: GatewaySession, resumable: boolean): void {
    const connection = session.connection;
    if (connection) {
      this.detach(connection);
      this.send(connection, { op: GatewayOpcodes.InvalidSession, d: resumable });
    }
    if (!resumable) this.sessions.delete(session.id);
  }

  // ---- connections ------------------------------------------------------------------------

  private open(socket: WebSocket, request: IncomingMessage, url: URL): void {
    const connection = newConnection(socket, `ws://${request.headers.host ?? 'localhost'}${GATEWAY_PATH}`);
    this.connections.add(connection);
    socket.on('message', (data) => this.receive(connection, rawBytes(data)));
    socket.on('close', (code) => this.closed(connection, code));
    // Errors are followed by 'close'; nothing to add.
    socket.on('error', () => undefined);

    const version = url.searchParams.get('v');
    const encoding = url.searchParams.get('encoding');
    const compress = url.searchParams.get('compress');
    if (version !== null && version !== String(GATEWAY_VERSION)) {
      this.close(connection, GatewayCloseCodes.InvalidAPIVersion, `Invalid API version: the sandbox gateway speaks v=${GATEWAY_VERSION}`);
      return;
    }
    if (encoding !== null && encoding !== 'json') {
      this.close(connection, GatewayCloseCodes.DecodeError, 'Unsupported encoding: the sandbox gateway speaks encoding=json only');
      return;
    }
    if (compress === 'zlib-stream') connection.transportCompression = true;
    else if (compress !== null && compress !== '' && compress !== 'false') {
      this.close(connection, GatewayCloseCodes.DecodeError, `Unsupported compress=${compress.slice(0, 40)}: use zlib-stream or none`);
      return;
    }
    this.send(connection, { op: GatewayOpcodes.Hello, d: { heartbeat_interval: this.heartbeatIntervalMs } });
    this.armHeartbeat(connection);
  }

  private receive(connection: Connection, bytes: Buffer): void {
    if (connection.closing) return;
    if (bytes.length > MAX_PAYLOAD_BYTES) return this.close(connection, GatewayCloseCodes.DecodeError, 'Decode error: payloads are limited to 4096 bytes');
    const now = Date.now();
    if (now - connection.windowStartedAt >= SEND_WINDOW_MS) {
      connection.windowStartedAt = now;
      connection.received = 0;
    }
    connection.received += 1;
    if (connection.received > SEND_LIMIT) return this.close(connection, GatewayCloseCodes.RateLimited, 'Rate limited: 120 payloads per 60 seconds');
    let payload: unknown;
    try {
      payload = JSON.parse(bytes.toString('utf8'));
    } catch {
      return this.close(connection, GatewayCloseCodes.DecodeError, 'Decode error');
    }
    if (!isRecord(payload) || typeof payload.op !== 'number') return this.close(connection, GatewayCloseCodes.DecodeError, 'Decode error: no op');
    switch (payload.op) {
      case GatewayOpcodes.Heartbeat:
        this.armHeartbeat(connection);
        this.send(connection, { op: GatewayOpcodes.HeartbeatAck });
        return;
      case GatewayOpcodes.Identify:
        return this.identify(connection, payload.d);
      case GatewayOpcodes.Resume:
        return this.resume(connection, payload.d);
      case GatewayOpcodes.PresenceUpdate:
      case GatewayOpcodes.VoiceStateUpdate:
      case GatewayOpcodes.RequestSoundboardSounds:
      case GatewayOpcodes.RequestGuildMembers: {
        const session = connection.session;
        if (!session) return this.close(connection, GatewayCloseCodes.NotAuthenticated, 'Not authenticated');
        if (payload.op !== GatewayOpcodes.RequestGuildMembers) return;
        const app = this.state.applications.get(session.applicationId);
        if (!app) return this.close(connection, GatewayCloseCodes.AuthenticationFailed, 'Authentication failed');
        const outcome = requestGuildMembers(this.state, app, session, payload.d);
        if (outcome.error) return this.close(connection, outcome.error.code, outcome.error.reason);
        for (const chunk of outcome.chunks) this.dispatch(session, GatewayDispatchEvents.GuildMembersChunk, chunk);
        return;
      }
      default:
        return this.close(connection, GatewayCloseCodes.UnknownOpcode, `Unknown opcode ${payload.op}`);
    }
  }

  private identify(connection: Connection, d: unknown): void {
    if (connection.session) return this.close(connection, GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated');
    const checked = checkIdentify(this.state, d);
    if (!checked.ok) return this.close(connection, checked.code, checked.reason);
    const { app, shard, shardGiven, intents, largeThreshold, properties, compress } = checked.value;
    const guildIds = this.botGuildIds(shard, app);
    if (guildIds.length > GUILDS_PER_SHARD) return this.close(connection, GatewayCloseCodes.ShardingRequired, 'Sharding required');

    const now = this.state.now();
    this.recentIdentifies(app).push(now);
    const session: GatewaySession = {
      id: randomBytes(16).toString('hex'),
      applicationId: app.clientId,
      shard,
      shardGiven,
      intents,
      largeThreshold,
      properties,
      seq: 0,
      replay: [],
      connection,
      disconnectedAt: null,
      createdAt: now,
      resumeUrl: connection.url,
      resumes: 0,
    };
    this.sessions.set(session.id, session);
    connection.session = session;
    // Payload compression cannot be combined with transport compression.
    connection.payloadCompression = compress && !connection.transportCompression;
    this.dispatch(session, GatewayDispatchEvents.Ready, readyPayload(this.state, app, { id: session.id, shard: shardGiven ? shard : null, resumeUrl: session.resumeUrl }, guildIds));
    if ((intents & GatewayIntentBits.Guilds) === 0) return;
    for (const id of guildIds) {
      const event: PlatformEvent = { t: GatewayDispatchEvents.GuildCreate, d: gatewayGuild(this.state, this.state.guilds.get(id)!, app), guildId: id };
      this.dispatch(session, event.t, dataFor(app, session, event));
    }
  }

  private resume(connection: Connection, d: unknown): void {
    if (connection.session) return this.close(connection, GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated');
    if (!isRecord(d) || typeof d.token !== 'string' || typeof d.session_id !== 'string' || (d.seq !== null && typeof d.seq !== 'number')) {
      return this.close(connection, GatewayCloseCodes.DecodeError, 'Decode error: resume needs token, session_id and seq');
    }
    const app = applicationOfToken(this.state, d.token);
    if (!app) return this.close(connection, GatewayCloseCodes.AuthenticationFailed, 'Authentication failed');
    const session = this.session(d.session_id);
    // Another bot's session is as unknown to this token as a made-up one.
    if (!session || session.applicationId !== app.clientId) return this.send(connection, { op: GatewayOpcodes.InvalidSession, d: false });
    const seq = (d.seq as number | null) ?? 0;
    if (seq > session.seq) return this.close(connection, GatewayCloseCodes.InvalidSeq, 'Invalid seq');
    const oldest = session.replay[0]?.s ?? session.seq + 1;
    if (seq < oldest - 1) {
      this.sessions.delete(session.id);
      return this.send(connection, { op: GatewayOpcodes.InvalidSession, d: false });
    }
    // A resume elsewhere takes the session over from a connection that never noticed it died.
    if (session.connection) {
      const previous = session.connection;
      this.detach(previous);
      this.close(previous, GatewayCloseCodes.SessionTimedOut, 'Session resumed on another connection');
    }
    session.connection = connection;
    session.disconnectedAt = null;
    session.resumes += 1;
    connection.session = session;
    for (const entry of session.replay) if (entry.s > seq) sendText(connection, entry.text);
    // RESUMED takes a sequence number but is not itself replayed.
    session.seq += 1;
    sendText(connection, JSON.stringify({ op: GatewayOpcodes.Dispatch, t: GatewayDispatchEvents.Resumed, s: session.seq, d: {} }));
  }

  private closed(connection: Connection, code: number): void {
    clearTimers(connection);
    this.connections.delete(connection);
    const session = connection.session;
    this.detach(connection);
    // Closing with 1000 or 1001 ends the session on Discord; any other way keeps it resumable.
    if (session && !connection.closing && (code === 1000 || code === 1001)) this.sessions.delete(session.id);
  }

  private detach(connection: Connection): void {
    const session = connection.session;
    connection.session = null;
    if (session && session.connection === connection) {
      session.connection = null;
      session.disconnectedAt = this.state.now();
    }
  }

  private close(connection: Connection, code: number, reason: string): void {
    if (connection.closing) return;
    connection.closing = true;
    clearTimers(connection);
    this.detach(connection);
    // Close reasons are limited to 123 bytes.
    connection.socket.close(code, Buffer.from(reason).subarray(0, 123).toString());
  }

  private armHeartbeat(connection: Connection): void {
    if (connection.heartbeatTimer) clearTimeout(connection.heartbeatTimer);
    connection.heartbeatTimer = setTimeout(() => this.close(connection, GatewayCloseCodes.SessionTimedOut, 'Session timed out: no heartbeat'), this.heartbeatTimeoutMs);
    connection.heartbeatTimer.unref();
  }

  // ---- sending ----------------------------------------------------------------------------

  private dispatch(session: GatewaySession, t: GatewayDispatchEvents, d: unknown): void {
    session.seq += 1;
    const text = JSON.stringify({ op: GatewayOpcodes.Dispatch, t, s: session.seq, d });
    session.replay.push({ s: session.seq, text });
    if (session.replay.length > REPLAY_LIMIT) session.replay.shift();
    if (session.connection) sendText(session.connection, text);
  }

  private send(connection: Connection, payload: Payload): void {
    sendText(connection, JSON.stringify({ s: null, t: null, ...payload }));
  }

  // ---- routing ----------------------------------------------------------------------------

  private routes(session: GatewaySession, guildId: string | null): boolean {
    const [id, count] = session.shard;
    return guildId === null ? id === 0 : shardOf(guildId, count) === id;
  }

  private botGuildIds([id, count]: [number, number], app: Application): string[] {
    return this.state.guildIdsOf(app).filter((guildId) => shardOf(guildId, count) === id);
  }

  /** Sessions that are connected or still within their resume window; expired ones are forgotten. */
  private liveSessions(): GatewaySession[] {
    const now = this.state.now();
    for (const [id, session] of this.sessions) {
      if (session.connection === null && session.disconnectedAt !== null && now - session.disconnectedAt > this.resumeWindowMs) this.sessions.delete(id);
    }
    return [...this.sessions.values()];
  }
}
