import { REST } from '@discordjs/rest';
import { CloseCodes, WebSocketShardEvents, WebSocketShardStatus, type WebSocketManager } from '@discordjs/ws';
import { GatewayCloseCodes, GatewayDispatchEvents, type APIUser, type GatewayDispatchPayload } from 'discord-api-types/v10';
import { pino, type Logger } from 'pino';
import type { BotConfig } from './config';
import { createDeliver, loadTicketChannels } from './deliver-report';
import { createGateway } from './gateway';
import { startHealthServer, type HealthServer } from './health-server';
import { mapDispatch } from './map-dispatch';
import { relayInteraction } from './relay-interaction';
import { ReportQueue } from './report-queue';
import { ReportSender, type SenderStatus } from './report-sender';
import { safeError } from './safe-error';
import { SessionStore } from './session-store';
import { openStore } from './store';
import { TicketApi } from './ticket-api';
import { TicketChannels } from './ticket-channels';
import { WhitelabelBots, type WhitelabelSession } from './whitelabel-bots';
import { listenToWhitelabelChanges } from './whitelabel-notices';

export interface ShardHealth {
  id: number;
  status: 'idle' | 'connecting' | 'resuming' | 'ready';
  /** Time of the last heartbeat's round trip; null before the first. */
  latencyMs: number | null;
}

export interface RuntimeHealth {
  status: 'ok' | 'degraded';
  uptimeSeconds: number;
  shardCount: number | null;
  shards: ShardHealth[];
  queue: SenderStatus;
  /** The white-label bots this runtime runs, and how they are. */
  whitelabelBots: WhitelabelSession[];
}

export interface BotRuntime {
  /** Where GET /health answers. */
  healthUrl: string;
  manager: WebSocketManager;
  queueDepth(): number;
  health(): Promise<RuntimeHealth>;
  /** The white-label bots of its shards (tests ask it to read them again at once). */
  whitelabels: WhitelabelBots;
  /** Stops the gateway (keeping its sessions for the next start to resume), the sender and the database. */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  logger?: Logger;
  /** Delay of the first retry of a report; tests shorten it. */
  retryBaseDelayMs?: number;
  /** Waits before reading the audit log a second time. */
  auditLogRetryMs?: number;
}

const CLOSE_HINTS: Partial<Record<number, string>> = {
  [GatewayCloseCodes.AuthenticationFailed]: 'the bot token was refused: check DISCORD_BOT_TOKEN',
  [GatewayCloseCodes.DisallowedIntents]:
    'privileged intents are not enabled: turn on "Server Members Intent" and "Message Content Intent" in the developer portal',
  [GatewayCloseCodes.InvalidShard]: 'the shard is invalid: check SHARD_COUNT and SHARD_IDS',
  [GatewayCloseCodes.ShardingRequired]: 'the bot is in too many servers for this shard count: raise SHARD_COUNT',
};

export function createLogger(level: string): Logger {
  return pino({
    name: 'bot',
    level,
    // Nothing the runtime logs should carry these; this is a second line of defence.
    redact: { paths: ['token', '*.token', 'authorization', '*.authorization', 'headers.authorization', 'apiKey', 'botToken'], censor: '[redacted]' },
  });
}

/** Builds and starts the whole runtime from a config: tests start it in-process, main.ts from the environment. */
export async function startRuntime(config: BotConfig, options: RuntimeOptions = {}): Promise<BotRuntime> {
  const log = options.logger ?? createLogger(config.logLevel);
  const startedAt = Date.now();
  const db = openStore(config.databaseFile);
  const rest = new REST({ api: config.discordApiUrl, version: '10', timeout: 15_000 }).setToken(config.botToken);
  const cleanups: (() => unknown)[] = [
    () => {
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
    },
    () => db.close(),
  ];
  const cleanUp = async () => {
    for (const fn of cleanups.reverse()) await fn();
  };
  try {
    const sessions = new SessionStore(db);
    const queue = new ReportQueue(db, { max: config.queueMax, log });
    const api = new TicketApi({ baseUrl: config.ticketApiUrl, apiKey: config.apiKey, timeoutMs: config.requestTimeoutMs });
    const tickets = new TicketChannels({ load: (guildId) => loadTicketChannels(api, guildId) });
    const refreshTickets = (guildId: string) =>
      void tickets.refresh(guildId).catch((error: unknown) => log.warn({ guildId, err: safeError(error) }, 'ticket channels not loaded; will ask again when needed'));

    // The bot's own messages are recorded by the API when it sends them; its id is needed before a resume replays anything.
    // A literal path: Routes.user('@me') is sent as /users/%40me, which not every stand-in decodes.
    let botUserId: string | null = ((await rest.get('/users/@me')) as APIUser).id;
    // Known once the white-label bots are set up below (a report left from the last run may be sent before).
    let isWhitelabelUser: (userId: string) => boolean = () => false;
    const deliver = createDeliver({
      api,
      tickets,
      rest,
      botUserId: () => botUserId,
      isWhitelabelBot: (userId) => isWhitelabelUser(userId),
      log,
      auditLogRetryMs: options.auditLogRetryMs,
    });
    const sender = new ReportSender(queue, deliver, { maxDelayMs: config.retryMaxMs, baseDelayMs: options.retryBaseDelayMs, log });
    sender.start();
    cleanups.push(() => sender.stop());
    if (queue.depth() > 0) log.info({ depth: queue.depth() }, 'reports left from the last run will be sent');

    const manager = createGateway({ token: config.botToken, rest, shardCount: config.shardCount, shardIds: config.shardIds, sessions });
    const latency = new Map<number, number>();
    const resumable = new Set(sessions.shards().map((s) => s.shardId));

    /** What a dispatch tells the runtime itself (of the main bot or a white-label bot): interactions, ticket channels to load. */
    const observe = (payload: GatewayDispatchPayload) => {
      switch (payload.t) {
        case GatewayDispatchEvents.InteractionCreate:
          void relayInteraction({ api, rest, log }, payload.d);
          break;
        case GatewayDispatchEvents.GuildCreate:
          if (!(payload.d as { unavailable?: boolean }).unavailable) refreshTickets(payload.d.id);
          break;
        case GatewayDispatchEvents.ChannelCreate: {
          const guildId = (payload.d as { guild_id?: string }).guild_id;
          if (guildId) refreshTickets(guildId);
          break;
        }
        case GatewayDispatchEvents.MessageCreate:
        case GatewayDispatchEvents.MessageUpdate:
        case GatewayDispatchEvents.MessageReactionAdd: {
          // Resumed after a restart, no GUILD_CREATE comes: the list is loaded on first need.
          const guildId = payload.d.guild_id;
          if (guildId && !tickets.isLoaded(guildId)) refreshTickets(guildId);
          break;
        }
        default:
          break;
      }
    };

    // White-label bots of this runtime's shards: their own sessions, reported like the main bot's (the API dedups).
    const whitelabels: WhitelabelBots = new WhitelabelBots({
      api,
      discordApiUrl: config.discordApiUrl,
      shardCount: config.shardCount,
      shardIds: config.shardIds,
      pollMs: config.whitelabelPollMs,
      log,
      onDispatch: (payload, bot) => {
        observe(payload);
        const reports = mapDispatch(payload, {
          shardId: 0,
          sessionId: `whitelabel:${bot.serverId}:${bot.sessionId ?? 'none'}`,
          botUserId: bot.userId,
          isOtherOwnBot: (userId) => userId === botUserId || whitelabels.isOwnBot(userId),
          ticketChannel: (guildId, channelId) => tickets.classify(guildId, channelId),
          // Only its own server's: whether the main bot is in a server is the main bot's to say.
        }).filter((r) => r.guildId === bot.serverId && !(r.kind === 'serverEvent' && (r.event.type === 'botAdded' || r.event.type === 'botRemoved')));
        if (reports.length > 0) {
          queue.enqueue(reports, () => undefined);
          sender.wake();
        }
      },
    });

    isWhitelabelUser = (userId) => whitelabels.isOwnBot(userId);

    const handleDispatch = (payload: GatewayDispatchPayload, shardId: number) => {
      if (payload.t === GatewayDispatchEvents.Ready) botUserId = payload.d.user.id;
      observe(payload);
      const session = sessions.retrieve(shardId);
      const reports = mapDispatch(payload, {
        shardId,
        sessionId: session?.sessionId ?? 'none',
        botUserId,
        isOtherOwnBot: (userId) => whitelabels.isOwnBot(userId),
        ticketChannel: (guildId, channelId) => tickets.classify(guildId, channelId),
      });
      if (reports.length > 0) {
        queue.enqueue(reports, () => sessions.markHandled(shardId, payload.s, true));
        sender.wake();
      } else {
        sessions.markHandled(shardId, payload.s, false);
      }
      if (payload.t === GatewayDispatchEvents.GuildDelete && !payload.d.unavailable) tickets.forget(payload.d.id);
    };

    manager.on(WebSocketShardEvents.Dispatch, (payload, shardId) => {
      try {
        handleDispatch(payload, shardId);
      } catch (error) {
        log.error({ shardId, event: payload.t, sequence: payload.s, err: safeError(error) }, 'dispatch not handled');
      }
    });
    manager.on(WebSocketShardEvents.Ready, (data, shardId) => {
      if (resumable.delete(shardId)) log.warn({ shardId }, 'the stored session could not be resumed: new session (events while away are not replayed)');
      log.info({ shardId, guilds: data.guilds.length }, 'shard ready');
    });
    manager.on(WebSocketShardEvents.Resumed, (shardId) => {
      resumable.delete(shardId);
      log.info({ shardId }, 'shard resumed');
    });
    manager.on(WebSocketShardEvents.HeartbeatComplete, ({ latency: ms }, shardId) => latency.set(shardId, ms));
    manager.on(WebSocketShardEvents.Closed, (code, shardId) => {
      const hint = CLOSE_HINTS[code];
      if (hint) log.error({ shardId, code }, `gateway closed: ${hint}`);
      else log.info({ shardId, code }, 'gateway connection closed');
    });
    manager.on(WebSocketShardEvents.Error, (error, shardId) => log.error({ shardId, err: safeError(error) }, 'shard error'));
    manager.on(WebSocketShardEvents.SocketError, (error, shardId) => log.warn({ shardId, err: safeError(error) }, 'gateway socket error'));
    manager.on(WebSocketShardEvents.Debug, (message, shardId) => log.trace({ shardId }, message));

    // While reports wait (the API down), say how many, once a minute.
    const depthLog = setInterval(() => {
      const status = sender.status();
      if (status.depth > 0) log.info({ depth: status.depth, failureStreak: status.failureStreak, pausedUntil: status.pausedUntil }, 'reports waiting for the Ticket API');
    }, 60_000);
    depthLog.unref();
    cleanups.push(() => clearInterval(depthLog));
    const flushSessions = setInterval(() => sessions.flush(), 1000);
    flushSessions.unref();
    cleanups.push(() => {
      clearInterval(flushSessions);
      sessions.flush();
    });

    const health = async (): Promise<RuntimeHealth> => {
      const statuses = await manager.fetchStatus();
      const shards: ShardHealth[] = [...statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([id, status]) => ({ id, status: WebSocketShardStatus[status].toLowerCase() as ShardHealth['status'], latencyMs: latency.get(id) ?? null }));
      const ok = shards.length > 0 && shards.every((s) => s.status === 'ready');
      return {
        status: ok ? 'ok' : 'degraded',
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        shardCount: config.shardCount ?? (shards.length > 0 ? await manager.getShardCount() : null),
        shards,
        queue: sender.status(),
        whitelabelBots: whitelabels.list(),
      };
    };
    const server: HealthServer = await startHealthServer({ summary: async () => ({ status: (await health()).status }), detailed: health }, config.port, config.host);
    cleanups.push(() => server.close());

    // Stopping keeps the sessions: a close code other than 1000 leaves them resumable, and the store ignores the manager forgetting them.
    cleanups.push(async () => {
      sessions.freeze();
      await manager.destroy({ code: CloseCodes.Resuming, reason: 'Runtime stopping' });
    });
    await manager.connect();
    log.info({ shards: await manager.getShardIds(), health: server.url }, 'bot runtime started');

    // Its white-label bots: read now and every few seconds, and at once on a change notice (Redis).
    cleanups.push(() => whitelabels.close());
    if (config.redisUrl) {
      const stopListening = listenToWhitelabelChanges(config.redisUrl, (notice) => whitelabels.notice(notice), log);
      cleanups.push(stopListening);
    }
    await whitelabels.start();

    let closing: Promise<void> | null = null;
    return {
      healthUrl: server.url,
      manager,
      queueDepth: () => queue.depth(),
      health,
      whitelabels,
      close: () => (closing ??= cleanUp().then(() => log.info('bot runtime stopped'))),
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
