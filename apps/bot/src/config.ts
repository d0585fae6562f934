import path from 'node:path';

export interface BotConfig {
  /** The bot's token (DISCORD_BOT_TOKEN): identifies on the gateway and calls the platform's REST API. */
  botToken: string;
  /** Platform REST base without the version (DISCORD_API_URL), e.g. https://discord.com/api. */
  discordApiUrl: string;
  /** Total shards across every runtime (SHARD_COUNT); null: as many as the gateway recommends. */
  shardCount: number | null;
  /** Shards this process holds (SHARD_IDS, comma list); null: all of them. */
  shardIds: number[] | null;
  /** Where the Ticket API is (TICKET_API_URL), without a service base: http://localhost:3000. */
  ticketApiUrl: string;
  /** The operator key the runtime reports with (BOT_API_KEY, else the first of ADMIN_KEYS). */
  apiKey: string;
  dataDir: string;
  /** The runtime's SQLite file: the sessions of its shards and its queue of reports. */
  databaseFile: string;
  /** Most reports kept while the API is unreachable (REPORT_QUEUE_MAX); the oldest go first. */
  queueMax: number;
  /** Longest wait between two attempts of a report, in ms (REPORT_RETRY_MAX_MS), unless Retry-After asks for more. */
  retryMaxMs: number;
  /** How long one call of the Ticket API may take (TICKET_API_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Health endpoint port (BOT_PORT); 0 picks a free one. */
  port: number;
  host: string;
  logLevel: string;
  /** Redis (REDIS_URL), where the API publishes white-label bot changes; null: they are polled only. */
  redisUrl: string | null;
  /** How often the white-label bots of this runtime's shards are read again, in ms (WHITELABEL_POLL_MS). */
  whitelabelPollMs: number;
}

type Env = Record<string, string | undefined>;

/**
 * Every variable loadConfig reads. The loader sees the environment as BotEnv, so reading one not
 * named here does not compile; the README's configuration table lists each.
 */
export const BOT_ENV_VARIABLES = [
  'DISCORD_BOT_TOKEN',
  'DISCORD_API_URL',
  'SHARD_COUNT',
  'SHARD_IDS',
  'TICKET_API_URL',
  'BOT_API_KEY',
  'ADMIN_KEYS',
  'DATA_DIR',
  'BOT_DATABASE_FILE',
  'REPORT_QUEUE_MAX',
  'REPORT_RETRY_MAX_MS',
  'TICKET_API_TIMEOUT_MS',
  'BOT_PORT',
  'HOST',
  'LOG_LEVEL',
  'REDIS_URL',
  'WHITELABEL_POLL_MS',
] as const;

export type BotEnvVariable = (typeof BOT_ENV_VARIABLES)[number];
type BotEnv = { readonly [K in BotEnvVariable]?: string };

function int(env: BotEnv, name: BotEnvVariable, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return value;
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function shardIds(env: BotEnv, shardCount: number | null): number[] | null {
  const ids = list(env.SHARD_IDS);
  if (ids.length === 0) return null;
  const parsed = ids.map((id) => {
    const n = Number(id);
    if (!Number.isInteger(n) || n < 0) throw new Error(`SHARD_IDS must be a comma list of shard numbers, got "${env.SHARD_IDS}"`);
    return n;
  });
  // Without the total a process cannot know which servers are its own.
  if (shardCount === null) throw new Error('SHARD_IDS needs SHARD_COUNT (the total number of shards across every runtime)');
  const outside = parsed.filter((n) => n >= shardCount);
  if (outside.length > 0) throw new Error(`SHARD_IDS ${outside.join(', ')} outside 0..${shardCount - 1} (SHARD_COUNT=${shardCount})`);
  return [...new Set(parsed)].sort((a, b) => a - b);
}

export function loadConfig(input: Env = process.env, overrides: Partial<BotConfig> = {}): BotConfig {
  const env: BotEnv = input;
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR ?? 'data');
  const shardCount = env.SHARD_COUNT ? int(env, 'SHARD_COUNT', 1, 1) : null;
  const ids = shardIds(env, shardCount);
  // Runtimes holding different shards on one machine keep separate queues.
  const fileName = ids ? `bot-shards-${ids.join('-')}.db` : 'bot.db';
  const config: BotConfig = {
    botToken: env.DISCORD_BOT_TOKEN ?? '',
    discordApiUrl: (env.DISCORD_API_URL ?? 'https://discord.com/api').replace(/\/$/, ''),
    shardCount,
    shardIds: ids,
    ticketApiUrl: (env.TICKET_API_URL ?? 'http://localhost:3000').replace(/\/$/, ''),
    apiKey: env.BOT_API_KEY || list(env.ADMIN_KEYS)[0] || '',
    dataDir,
    databaseFile: env.BOT_DATABASE_FILE ? path.resolve(env.BOT_DATABASE_FILE) : path.join(dataDir, fileName),
    queueMax: int(env, 'REPORT_QUEUE_MAX', 100_000, 1),
    retryMaxMs: int(env, 'REPORT_RETRY_MAX_MS', 30_000, 1),
    requestTimeoutMs: int(env, 'TICKET_API_TIMEOUT_MS', 10_000, 1),
    port: int(env, 'BOT_PORT', 3002),
    host: env.HOST ?? '0.0.0.0',
    logLevel: env.LOG_LEVEL ?? 'info',
    redisUrl: env.REDIS_URL || null,
    whitelabelPollMs: int(env, 'WHITELABEL_POLL_MS', 5000, 100),
    ...overrides,
  };
  if (!config.botToken) throw new Error('DISCORD_BOT_TOKEN is required: the runtime connects to the gateway as the bot');
  if (!config.apiKey) throw new Error('BOT_API_KEY or ADMIN_KEYS is required: the runtime reports to the Ticket API with an operator key');
  return config;
}
