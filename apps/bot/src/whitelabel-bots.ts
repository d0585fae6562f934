import { DiscordAPIError, REST } from '@discordjs/rest';
import { CloseCodes, WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import { deploymentCalls, type WhitelabelChangeNotice, type WhitelabelEntry, type WhitelabelStatus } from '@ticket/contracts';
import {
  ActivityType,
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayOpcodes,
  PresenceUpdateStatus,
  type GatewayDispatchPayload,
  type GatewayPresenceUpdateData,
} from 'discord-api-types/v10';
import type { Logger } from 'pino';
import { GATEWAY_INTENTS } from './gateway';
import { safeError } from './safe-error';
import { ApiAnswerError, type TicketApi } from './ticket-api';

/** Why a white-label bot stopped for good, by the gateway's close code: shown to the server's admins. */
export const WHITELABEL_FAILURES: Partial<Record<number, string>> = {
  [GatewayCloseCodes.AuthenticationFailed]: 'The bot token was revoked or is invalid',
  [GatewayCloseCodes.DisallowedIntents]:
    'Privileged intents are not enabled: turn on "Server Members Intent" and "Message Content Intent" on the bot’s page of the developer portal',
  [GatewayCloseCodes.InvalidIntents]: 'The platform refused the intents the bot asks for',
  [GatewayCloseCodes.ShardingRequired]: 'The bot is in too many servers to run as a white-label bot',
  [GatewayCloseCodes.InvalidShard]: 'The platform refused the bot’s gateway session (invalid shard)',
  [GatewayCloseCodes.InvalidAPIVersion]: 'The platform refused the gateway version the runtime speaks',
};

/** The platform refused the token over REST (before the gateway was reached). */
const REVOKED = WHITELABEL_FAILURES[GatewayCloseCodes.AuthenticationFailed]!;

/** A white-label bot's gateway session as it runs here (one shard: such bots are in few servers). */
export interface WhitelabelSession {
  serverId: string;
  revision: number;
  /** The bot user's id (from the API's entry, then from READY). */
  userId: string;
  /** The session's id once READY; names its dispatches. */
  sessionId: string | null;
  status: WhitelabelStatus;
  reason: string | null;
}

interface Running extends WhitelabelSession {
  token: string;
  activity: string | null;
  manager: WebSocketManager | null;
  rest: REST;
  /** What the API last took of `status`/`reason` (sent again on every poll until it does). */
  reported: string | null;
  /** The report on its way, if one is. */
  sending: Promise<boolean> | null;
}

export interface WhitelabelBotsOptions {
  api: TicketApi;
  discordApiUrl: string;
  /** This runtime's shards (SHARD_COUNT / SHARD_IDS): the white-label bots of servers on them are its own. */
  shardCount: number | null;
  shardIds: number[] | null;
  /** How often the list is read again (notices make changes quicker; this is the safety net). */
  pollMs: number;
  log: Logger;
  /** A dispatch of a white-label bot's session, to be reported like the main bot's. */
  onDispatch(payload: GatewayDispatchPayload, session: WhitelabelSession): void;
}

const PAGE = 100;
const key = (status: WhitelabelStatus, reason: string | null) => `${status}|${reason ?? ''}`;

/** What a bot shows: its stored activity as a custom status. */
export function presenceOf(activity: string | null): GatewayPresenceUpdateData {
  return {
    since: null,
    activities: activity ? [{ name: activity, state: activity, type: ActivityType.Custom }] : [],
    status: PresenceUpdateStatus.Online,
    afk: false,
  };
}

/**
 * The white-label bots of this runtime's shards: one gateway session per bot token, started when
 * the API says the bot should run (Starting or Running), restarted on a new revision (new token,
 * started again), stopped when it is removed. Their status goes to the API: Starting when
 * connecting, Running on READY, Failed with the reason on a fatal close. Changes arrive as
 * notices (`notice`) and by reading the list every `pollMs`; a runtime that stops leaves the bots
 * as they are, for the next one to start again.
 */
export class WhitelabelBots {
  private readonly sessions = new Map<string, Running>();
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: WhitelabelBotsOptions) {}

  /** Reads the list once (a failure is logged and retried at the next poll), then polls. */
  async start(): Promise<void> {
    await this.sync();
    this.timer = setInterval(() => void this.sync(), this.options.pollMs);
    this.timer.unref();
  }

  /** Whether the user is one of the white-label bots run here (their messages are the API's own). */
  isOwnBot(userId: string): boolean {
    for (const session of this.sessions.values()) if (session.userId === userId) return true;
    return false;
  }

  list(): WhitelabelSession[] {
    return [...this.sessions.values()].map(({ serverId, revision, userId, sessionId, status, reason }) => ({ serverId, revision, userId, sessionId, status, reason }));
  }

  /** Whether the server is on one of this runtime's shards, by the platform's formula. */
  holds(serverId: string): boolean {
    const { shardCount, shardIds } = this.options;
    if (shardCount === null || shardIds === null) return true;
    return shardIds.includes(Number((BigInt(serverId) >> 22n) % BigInt(shardCount)));
  }

  /** A change the API published: the bot is read again at once. */
  notice(notice: WhitelabelChangeNotice): void {
    if (this.closed || !this.holds(notice.serverId)) return;
    // The runtime's own status reports come back as notices: nothing to do.
    const session = this.sessions.get(notice.serverId);
    if (notice.change === 'status' && session && session.revision === notice.revision) return;
    this.enqueue(() => this.refresh(notice.serverId));
  }

  /** Reads every bot of this runtime's shards and acts on what changed. */
  sync(): Promise<void> {
    return this.enqueue(() => this.reconcile());
  }

  /** Ends every session (closed so that they are not resumed) without reporting: the next runtime takes them over. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.chain;
    await Promise.all([...this.sessions.values()].map((s) => this.end(s)));
    this.sessions.clear();
  }

  // --- Reading the API ------------------------------------------------------------------------

  private enqueue(work: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (this.closed) return;
      try {
        await work();
      } catch (error) {
        this.options.log.warn({ err: safeError(error) }, 'white-label bots not read; will try again');
      }
    });
    return this.chain;
  }

  private async page(page: number, shardId: number | null): Promise<{ maxPage: number; elements: WhitelabelEntry[] }> {
    const query: Record<string, string> = { Page: String(page), Amount: String(PAGE), includeToken: 'true' };
    if (shardId !== null) Object.assign(query, { shardId: String(shardId), shardCount: String(this.options.shardCount) });
    return (await this.options.api.call('deployment', deploymentCalls.getWhitelabels, { query })).body as { maxPage: number; elements: WhitelabelEntry[] };
  }

  private async reconcile(): Promise<void> {
    const { shardCount, shardIds } = this.options;
    const shards = shardCount !== null && shardIds !== null ? shardIds : [null];
    const entries = new Map<string, WhitelabelEntry>();
    for (const shardId of shards) {
      for (let page = 1; ; page++) {
        const result = await this.page(page, shardId);
        for (const entry of result.elements) entries.set(entry.serverId, entry);
        if (page >= result.maxPage || result.elements.length === 0) break;
      }
    }
    for (const entry of entries.values()) await this.apply(entry);
    for (const session of [...this.sessions.values()]) if (!entries.has(session.serverId)) await this.remove(session);
    await this.flushReports();
  }

  private async refresh(serverId: string): Promise<void> {
    const found = (await this.options.api.call('deployment', deploymentCalls.getWhitelabelsBulk, { query: { includeToken: 'true' }, body: { ids: [serverId] } }))
      .body as WhitelabelEntry[];
    const entry = found.find((e) => e.serverId === serverId);
    if (entry) await this.apply(entry);
    else {
      const session = this.sessions.get(serverId);
      if (session) await this.remove(session);
    }
  }

  // --- Acting on a bot ------------------------------------------------------------------------

  private async apply(entry: WhitelabelEntry): Promise<void> {
    const session = this.sessions.get(entry.serverId);
    const revision = entry.revision ?? 1;
    const wanted = (entry.status === 'Starting' || entry.status === 'Running') && entry.token !== undefined;
    if (session && session.revision === revision && session.token === entry.token) {
      // The same bot: it runs (or failed) as it does; only its activity may have changed.
      if (session.activity !== entry.activity) this.setActivity(session, entry.activity);
      if (!wanted && session.status !== 'Failed') {
        // The API says it is not to run (its revision did not change): it stops.
        await this.remove(session);
      }
      return;
    }
    if (session) await this.remove(session);
    if (wanted) this.launch(entry, revision);
  }

  private launch(entry: WhitelabelEntry, revision: number): void {
    const { log } = this.options;
    const token = entry.token!;
    const rest = new REST({ api: this.options.discordApiUrl, version: '10', timeout: 15_000 }).setToken(token);
    const session: Running = {
      serverId: entry.serverId,
      revision,
      userId: entry.userId,
      sessionId: null,
      status: 'Starting',
      reason: null,
      token,
      activity: entry.activity,
      manager: null,
      rest,
      reported: null,
      sending: null,
    };
    const manager = new WebSocketManager({
      token,
      intents: GATEWAY_INTENTS,
      rest,
      shardCount: 1,
      shardIds: [0],
      initialPresence: presenceOf(entry.activity),
    });
    session.manager = manager;
    this.sessions.set(session.serverId, session);
    const where = { serverId: session.serverId, revision };

    manager.on(WebSocketShardEvents.Dispatch, (payload) => {
      if (this.sessions.get(session.serverId) !== session) return;
      if (payload.t === GatewayDispatchEvents.Ready) {
        session.userId = payload.d.user.id;
        session.sessionId = payload.d.session_id;
        log.info(where, 'white-label bot ready');
        this.setStatus(session, 'Running', null);
      }
      try {
        this.options.onDispatch(payload, session);
      } catch (error) {
        log.error({ ...where, event: payload.t, err: safeError(error) }, 'white-label dispatch not handled');
      }
    });
    manager.on(WebSocketShardEvents.Resumed, () => {
      if (this.sessions.get(session.serverId) === session && session.status !== 'Failed') this.setStatus(session, 'Running', null);
    });
    manager.on(WebSocketShardEvents.Closed, (code) => {
      const reason = WHITELABEL_FAILURES[code];
      if (reason) {
        log.warn({ ...where, code }, `white-label bot stopped: ${reason}`);
        void this.fail(session, reason);
      } else log.info({ ...where, code }, 'white-label gateway connection closed');
    });
    manager.on(WebSocketShardEvents.Error, (error) => log.warn({ ...where, err: safeError(error) }, 'white-label shard error'));
    manager.on(WebSocketShardEvents.SocketError, (error) => log.warn({ ...where, err: safeError(error) }, 'white-label gateway socket error'));

    log.info(where, 'white-label bot starting');
    this.setStatus(session, 'Starting', null);
    manager.connect().catch((error: unknown) => {
      if (this.sessions.get(session.serverId) !== session) return;
      if (error instanceof DiscordAPIError && error.status === 401) return void this.fail(session, REVOKED);
      // Not reached (the platform down): forgotten, so that the next poll starts it again.
      log.warn({ ...where, err: safeError(error) }, 'white-label bot could not connect; will try again');
      this.sessions.delete(session.serverId);
      void this.end(session);
    });
  }

  /** Stopped for good with this revision: the admins see why; it starts again when they change or start it. */
  private async fail(session: Running, reason: string): Promise<void> {
    if (session.status === 'Failed') return;
    this.setStatus(session, 'Failed', reason);
    await this.end(session);
  }

  /** A removed bot (or one not to run any more): its session ends. */
  private async remove(session: Running): Promise<void> {
    this.sessions.delete(session.serverId);
    this.options.log.info({ serverId: session.serverId, revision: session.revision }, 'white-label bot stopped');
    await this.end(session);
  }

  private async end(session: Running): Promise<void> {
    const manager = session.manager;
    session.manager = null;
    session.rest.clearHashSweeper();
    session.rest.clearHandlerSweeper();
    if (!manager) return;
    try {
      await manager.destroy({ code: CloseCodes.Normal, reason: 'White-label bot stopped' });
    } catch {
      // Already gone.
    }
  }

  private setActivity(session: Running, activity: string | null): void {
    session.activity = activity;
    if (!session.manager || session.status !== 'Running') return;
    const manager = session.manager;
    void (async () => {
      try {
        await manager.send(0, { op: GatewayOpcodes.PresenceUpdate, d: presenceOf(activity) });
      } catch (error) {
        this.options.log.warn({ serverId: session.serverId, err: safeError(error) }, 'white-label presence not updated');
      }
    })();
  }

  // --- Status reports -------------------------------------------------------------------------

  private setStatus(session: Running, status: WhitelabelStatus, reason: string | null): void {
    session.status = status;
    session.reason = reason;
    void this.report(session);
  }

  /** Sends the session's status unless the API has it; one report at a time per bot, the latest status last. */
  private async report(session: Running): Promise<void> {
    while (session.reported !== key(session.status, session.reason)) {
      if (session.sending) {
        await session.sending;
        continue;
      }
      session.sending = this.send(session);
      const taken = await session.sending;
      session.sending = null;
      if (!taken) return;
    }
  }

  /** Whether the API took the report (or will never take it: another revision, removed). */
  private async send(session: Running): Promise<boolean> {
    const sent = key(session.status, session.reason);
    try {
      await this.options.api.call('deployment', deploymentCalls.updateWhitelabelStatus, {
        params: { serverId: session.serverId },
        body: { status: session.status, reason: session.reason, revision: session.revision },
      });
      session.reported = sent;
      return true;
    } catch (error) {
      // Another revision (409) or removed (404): the next read of the list decides.
      if (error instanceof ApiAnswerError && (error.status === 409 || error.status === 404)) {
        session.reported = sent;
        return true;
      }
      this.options.log.warn({ serverId: session.serverId, status: session.status, err: safeError(error) }, 'white-label status not reported; will try again');
      return false;
    }
  }

  private async flushReports(): Promise<void> {
    for (const session of this.sessions.values()) if (session.reported !== key(session.status, session.reason)) await this.report(session);
  }
}
