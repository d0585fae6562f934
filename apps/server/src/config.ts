import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { BillingInterval, PaidPlanType, PLANS, SERVICE_NAMES, type ServiceName } from '@ticket/contracts';
import type { S3Options } from './platform/file-storage';
import { CHECKOUT_ROOT } from './checkout';

export interface PlatformConfig {
  clientId: string;
  clientSecret: string;
  botToken: string;
  publicKey: string;
  /** REST base without the version, e.g. https://discord.com/api */
  apiUrl: string;
  /** Where browsers are sent to approve sign-in. */
  authorizeUrl: string;
  cdnUrl: string;
  /** The platform's web app, where links to a channel go (`{appUrl}/channels/{guild}/{channel}`). */
  appUrl: string;
}

/** Attachments: where they are kept, and what may be stored. */
export interface FilesConfig {
  /** Root of the local file storage (FILES_DIR, default <DATA_DIR>/files). */
  dir: string;
  /** Largest file an upload or a clone may store (MAX_UPLOAD_BYTES, default 25 MiB). */
  maxUploadBytes: number;
  /** Content types that may be stored (FILES_ALLOWED_TYPES, comma-separated; `type/*` allows a whole family). */
  allowedTypes: string[];
  /** How long a clone may take to download from the platform's CDN (FILES_CLONE_TIMEOUT_MS). */
  cloneTimeoutMs: number;
  /** Storage of every paid plan instead of the plan's own (tests use a small one); null: the plan's. */
  quotaOverrideBytes: number | null;
  /** An S3-compatible bucket instead of the local disk (S3_BUCKET and the other S3_* variables); null: local disk. */
  s3: S3Options | null;
  /** How long a download token handed out with a file opens it (FILE_TOKEN_TTL_SECONDS, default 1 hour, at least 60). */
  tokenTtlSeconds: number;
}

/** What may be stored unless FILES_ALLOWED_TYPES says otherwise: no HTML, SVG or scripts. */
export const DEFAULT_FILE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/json',
  'application/zip',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
];

/** The card provider (Stripe): its keys and, for the sandbox or a mock, where its API is. */
export interface StripeConfig {
  /** STRIPE_SECRET_KEY; in demo mode the sandbox's. */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET (whsec_…): webhook signatures are checked against it; used in demo mode too when set. */
  webhookSecret: string;
  /** STRIPE_API_URL, e.g. http://127.0.0.1:3001 (the SDK adds /v1/…); null: Stripe's own API. */
  apiUrl: string | null;
}

/** PayPal's REST API: the app's credentials, the webhook's id (for signature checks) and where the API is. */
export interface PaypalConfig {
  /** PAYPAL_CLIENT_ID / PAYPAL_CLIENT_SECRET; in demo mode the sandbox's. */
  clientId: string;
  clientSecret: string;
  /** PAYPAL_WEBHOOK_ID: the webhook whose deliveries verify-webhook-signature checks. */
  webhookId: string;
  /** PAYPAL_API_URL, default https://api-m.paypal.com (the sandbox's /paypal in demo mode). */
  apiUrl: string;
}

/** What paid plans cost, and the providers that take the payments. */
export interface PaymentConfig {
  /** List price per month in cents (PRICE_PREMIUM_MONTHLY_CENTS, PRICE_ENTERPRISE_MONTHLY_CENTS; defaults from PLANS). */
  monthlyCents: Record<PaidPlanType, number>;
  /**
   * Saving of each billing interval in percent of months × monthly price (DISCOUNT_QUARTERLY_PERCENT,
   * DISCOUNT_BIANNUALLY_PERCENT, DISCOUNT_ANNUALLY_PERCENT); a longer interval never saves less.
   */
  discountPercent: Record<BillingInterval, number>;
  stripe: StripeConfig;
  paypal: PaypalConfig;
}

/** Demo mode: the sandbox's Stripe stand-in signs its webhooks with this secret unless STRIPE_WEBHOOK_SECRET says otherwise. */
export const SANDBOX_STRIPE = { secretKey: 'sk_test_sandbox_4eC39HqLyjWDarjtT1zdp7dc', webhookSecret: 'whsec_sandbox_demo', apiUrl: 'http://127.0.0.1:3001' } as const;

/** Demo mode: the sandbox's PayPal stand-in (apps/sandbox, /paypal). */
export const SANDBOX_PAYPAL = { clientId: 'sandbox-paypal-client-id', clientSecret: 'sandbox-paypal-client-secret', webhookId: '0SANDBOXWEBHOOK1P' } as const;

/** Outgoing webhooks (Enterprise): what endpoints may be, and how deliveries are made. */
export interface WebhooksConfig {
  /**
   * Endpoints may be on private, loopback, link-local or otherwise reserved addresses
   * (WEBHOOKS_ALLOW_PRIVATE; on by default in demo mode only, and in tests).
   */
  allowPrivate: boolean;
  /** Endpoints may use plain http (WEBHOOKS_ALLOW_HTTP; on by default in demo mode only, and in tests). */
  allowHttp: boolean;
  /** How long one attempt may take, connecting and answering (WEBHOOKS_TIMEOUT_MS, default 10 s). */
  timeoutMs: number;
  /** How often due deliveries are looked for (WEBHOOKS_INTERVAL_MS, default 5 s); the queue itself is in the database. */
  intervalMs: number;
}

export interface Config {
  port: number;
  host: string;
  /** Public URL of the dashboard; CORS allows this origin only. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string;
  /** PostgreSQL: connections the process keeps open at most (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  redisUrl: string | null;
  services: ServiceName[];
  platform: PlatformConfig;
  /** True when no platform credentials are configured and the sandbox stands in. */
  demo: boolean;
  sessionTtlSeconds: number;
  /** How long platform data (guild lists, roles, channels) is reused before refetching. */
  platformCacheTtlSeconds: number;
  /** Answers of ticket lists, searches and tickets kept in memory, in megabytes of JSON text; 0 turns the cache off. */
  listCacheMb: number;
  /** Check every answer against its contract before sending it (CHECK_ANSWERS; tests do). */
  checkAnswers: boolean;
  /** Operator keys that authenticate as Admin (the bot worker uses one). */
  adminKeys: string[];
  /** 32-byte key for AES-256-GCM encryption of platform tokens at rest. */
  encryptionKey: Buffer;
  /**
   * Requests per window: `max` per caller (the verified identity, else the address); `fanOut` per
   * caller on the calls that each cost platform requests (sign-in, refresh bypassing the cache,
   * detailed health, user lookups); `authFailures` failed authentications per address before
   * every call from it that carries a key is refused until the window ends.
   */
  rateLimit: { max: number; windowMs: number; fanOut: number; authFailures: number };
  /** Requests per rate-limit window for each server API key (API_KEY_RATE_LIMIT_MAX), instead of `rateLimit.max`. */
  apiKeyRateLimitMax: number;
  /** How old a caller's role on a server may be before it is read again from the platform (ROLE_MAX_AGE_SECONDS). */
  roleMaxAgeSeconds: number;
  bodyLimitBytes: number;
  logLevel: string;
  /** How often due closes and auto-close run (the work itself is kept in the database). */
  ticketAutomationIntervalMs: number;
  /** Directory of the built web client, served at /. Null to serve the API only. */
  webDir: string | null;
  version: string;
  trustProxy: boolean;
  files: FilesConfig;
  payment: PaymentConfig;
  webhooks: WebhooksConfig;
  /**
   * The Localazy project uploaded translation files may be pushed to: LOCALAZY_TOKEN (a project
   * token) and LOCALAZY_API_URL (default Localazy's own API). Null without a token.
   */
  localazy: { token: string; apiUrl: string | null } | null;
}

type Env = Record<string, string | undefined>;

/**
 * Every variable loadConfig reads, besides the PRICE_<PLAN>_MONTHLY_CENTS of each paid plan. The
 * loader sees the environment as ServerEnv, so reading one not named here does not compile; the
 * README's configuration table lists each (config-docs.test.ts compares them).
 */
const SERVER_VARIABLES = [
  'PORT',
  'HOST',
  'PUBLIC_URL',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'REDIS_URL',
  'SERVICES',
  'DISCORD_CLIENT_ID',
  'DISCORD_CLIENT_SECRET',
  'DISCORD_BOT_TOKEN',
  'DISCORD_PUBLIC_KEY',
  'DISCORD_API_URL',
  'DISCORD_AUTHORIZE_URL',
  'DISCORD_CDN_URL',
  'DISCORD_APP_URL',
  'ENCRYPTION_KEY',
  'ADMIN_KEYS',
  'SESSION_TTL_SECONDS',
  'PLATFORM_CACHE_TTL_SECONDS',
  'LIST_CACHE_MB',
  'CHECK_ANSWERS',
  'RATE_LIMIT_MAX',
  'RATE_LIMIT_WINDOW_MS',
  'RATE_LIMIT_FAN_OUT_MAX',
  'RATE_LIMIT_AUTH_FAILURES',
  'API_KEY_RATE_LIMIT_MAX',
  'ROLE_MAX_AGE_SECONDS',
  'BODY_LIMIT_BYTES',
  'LOG_LEVEL',
  'TICKET_AUTOMATION_INTERVAL_MS',
  'WEB_DIR',
  'npm_package_version',
  'TRUST_PROXY',
  'FILES_DIR',
  'MAX_UPLOAD_BYTES',
  'FILES_ALLOWED_TYPES',
  'FILES_CLONE_TIMEOUT_MS',
  'FILE_TOKEN_TTL_SECONDS',
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_API_URL',
  'PAYPAL_CLIENT_ID',
  'PAYPAL_CLIENT_SECRET',
  'PAYPAL_WEBHOOK_ID',
  'PAYPAL_API_URL',
  'DISCOUNT_QUARTERLY_PERCENT',
  'DISCOUNT_BIANNUALLY_PERCENT',
  'DISCOUNT_ANNUALLY_PERCENT',
  'WEBHOOKS_ALLOW_PRIVATE',
  'WEBHOOKS_ALLOW_HTTP',
  'WEBHOOKS_TIMEOUT_MS',
  'WEBHOOKS_INTERVAL_MS',
  'LOCALAZY_TOKEN',
  'LOCALAZY_API_URL',
] as const;

type PriceVariable = `PRICE_${Uppercase<PaidPlanType>}_MONTHLY_CENTS`;
type ServiceUrlVariable = `SERVICE_URL_${Uppercase<ServiceName>}`;
export type ServerEnvVariable = (typeof SERVER_VARIABLES)[number] | PriceVariable | ServiceUrlVariable;
type ServerEnv = { readonly [K in ServerEnvVariable]?: string };

const priceVariable = (plan: PaidPlanType): PriceVariable => `PRICE_${plan.toUpperCase() as Uppercase<PaidPlanType>}_MONTHLY_CENTS`;

/** Where the web client finds a service that is not at /api/<name> (read by app.ts when it answers the runtime config). */
export const serviceUrlVariable = (name: ServiceName): ServiceUrlVariable => `SERVICE_URL_${name.toUpperCase() as Uppercase<ServiceName>}`;

/** Every variable the API reads: loadConfig's and each service's SERVICE_URL_<NAME>. */
export const SERVER_ENV_VARIABLES: readonly ServerEnvVariable[] = [
  ...SERVER_VARIABLES,
  ...PaidPlanType.options.map(priceVariable),
  ...SERVICE_NAMES.map(serviceUrlVariable),
];

const DISCORD = {
  apiUrl: 'https://discord.com/api',
  authorizeUrl: 'https://discord.com/oauth2/authorize',
  cdnUrl: 'https://cdn.discordapp.com',
  appUrl: 'https://discord.com',
};

function int(env: ServerEnv, name: ServerEnvVariable, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/**
 * DATABASE_POOL_SIZE, or twice the cores this process sees, from 4 to 10. A process answers from
 * one thread, so more statements at once only make the database's processes take turns on its
 * cores: a search's p99 at 16 clients, with PostgreSQL on the same two cores, was 59–61 ms with 2
 * connections, 51–55 with 4 and 68–69 with 10.
 */
function poolSize(env: ServerEnv): number {
  const size = int(env, 'DATABASE_POOL_SIZE', Math.min(10, Math.max(4, 2 * availableParallelism())));
  if (size < 1) throw new Error(`DATABASE_POOL_SIZE must be at least 1, got "${env.DATABASE_POOL_SIZE}"`);
  return size;
}

function flag(env: ServerEnv, name: ServerEnvVariable, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') throw new Error(`${name} must be true or false, got "${raw}"`);
  return raw === 'true';
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function parseServices(raw: string | undefined): ServiceName[] {
  const names = list(raw);
  if (names.length === 0) return [...SERVICE_NAMES];
  for (const name of names) {
    if (!(SERVICE_NAMES as readonly string[]).includes(name)) {
      throw new Error(`SERVICES contains unknown service "${name}"; known: ${SERVICE_NAMES.join(', ')}`);
    }
  }
  return names as ServiceName[];
}

/** The key comes from ENCRYPTION_KEY; in demo mode one is generated once and kept under the data dir. */
function encryptionKey(env: ServerEnv, dataDir: string, demo: boolean): Buffer {
  const raw = env.ENCRYPTION_KEY;
  if (raw) {
    const key = Buffer.from(raw, raw.length === 64 ? 'hex' : 'base64');
    if (key.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64');
    return key;
  }
  if (!demo) throw new Error('ENCRYPTION_KEY is required when platform credentials are configured');
  const file = path.join(dataDir, 'encryption.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600 });
  return key;
}

function paypalConfig(env: ServerEnv, sandbox: boolean): PaypalConfig {
  return {
    clientId: env.PAYPAL_CLIENT_ID || (sandbox ? SANDBOX_PAYPAL.clientId : ''),
    clientSecret: env.PAYPAL_CLIENT_SECRET || (sandbox ? SANDBOX_PAYPAL.clientSecret : ''),
    webhookId: env.PAYPAL_WEBHOOK_ID || (sandbox ? SANDBOX_PAYPAL.webhookId : ''),
    apiUrl: (env.PAYPAL_API_URL || (sandbox ? `${SANDBOX_STRIPE.apiUrl}/paypal` : 'https://api-m.paypal.com')).replace(/\/$/, ''),
  };
}

function paymentConfig(env: ServerEnv, demo: boolean): PaymentConfig {
  const discountPercent: Record<BillingInterval, number> = {
    monthly: 0,
    quarterly: int(env, 'DISCOUNT_QUARTERLY_PERCENT', 5),
    biannually: int(env, 'DISCOUNT_BIANNUALLY_PERCENT', 10),
    annually: int(env, 'DISCOUNT_ANNUALLY_PERCENT', 20),
  };
  const order = BillingInterval.options;
  for (const [i, interval] of order.entries()) {
    if (discountPercent[interval] >= 100) throw new Error(`The ${interval} discount must be under 100 percent, got ${discountPercent[interval]}`);
    const shorter = order[i - 1];
    if (shorter && discountPercent[interval] < discountPercent[shorter]) {
      throw new Error(`The ${interval} discount (${discountPercent[interval]} %) must not be smaller than the ${shorter} one (${discountPercent[shorter]} %)`);
    }
  }
  const monthlyCents = Object.fromEntries(
    PaidPlanType.options.map((plan) => [plan, int(env, priceVariable(plan), PLANS[plan].monthlyPriceCents)]),
  ) as Record<PaidPlanType, number>;
  const sandbox = demo && !env.STRIPE_SECRET_KEY;
  return {
    monthlyCents,
    discountPercent,
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY || (sandbox ? SANDBOX_STRIPE.secretKey : ''),
      webhookSecret: env.STRIPE_WEBHOOK_SECRET || (sandbox ? SANDBOX_STRIPE.webhookSecret : ''),
      apiUrl: env.STRIPE_API_URL || (sandbox ? SANDBOX_STRIPE.apiUrl : null),
    },
    paypal: paypalConfig(env, demo && !env.PAYPAL_CLIENT_ID),
  };
}

export function loadConfig(input: Env = process.env, overrides: Partial<Config> = {}): Config {
  const env: ServerEnv = input;
  const port = int(env, 'PORT', 3000);
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  const demo = !(env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET && env.DISCORD_BOT_TOKEN);
  const platform: PlatformConfig = {
    clientId: env.DISCORD_CLIENT_ID ?? '',
    clientSecret: env.DISCORD_CLIENT_SECRET ?? '',
    botToken: env.DISCORD_BOT_TOKEN ?? '',
    publicKey: env.DISCORD_PUBLIC_KEY ?? '',
    apiUrl: env.DISCORD_API_URL ?? DISCORD.apiUrl,
    authorizeUrl: env.DISCORD_AUTHORIZE_URL ?? DISCORD.authorizeUrl,
    cdnUrl: env.DISCORD_CDN_URL ?? DISCORD.cdnUrl,
    appUrl: (env.DISCORD_APP_URL ?? DISCORD.appUrl).replace(/\/$/, ''),
  };
  const fileTokenTtlSeconds = int(env, 'FILE_TOKEN_TTL_SECONDS', 3600);
  if (fileTokenTtlSeconds < 60) throw new Error(`FILE_TOKEN_TTL_SECONDS must be at least 60 (seconds), got "${env.FILE_TOKEN_TTL_SECONDS}"`);
  const config: Config = {
    port,
    host: env.HOST ?? '0.0.0.0',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL ?? `sqlite://${path.join(dataDir, 'dashboard.db')}`,
    databasePoolSize: poolSize(env),
    redisUrl: env.REDIS_URL || null,
    services: parseServices(env.SERVICES),
    platform,
    demo,
    sessionTtlSeconds: int(env, 'SESSION_TTL_SECONDS', 7 * 24 * 3600),
    platformCacheTtlSeconds: int(env, 'PLATFORM_CACHE_TTL_SECONDS', 300),
    listCacheMb: int(env, 'LIST_CACHE_MB', 32),
    checkAnswers: env.CHECK_ANSWERS === 'true',
    adminKeys: list(env.ADMIN_KEYS),
    encryptionKey: Buffer.alloc(0),
    rateLimit: {
      max: int(env, 'RATE_LIMIT_MAX', 600),
      windowMs: int(env, 'RATE_LIMIT_WINDOW_MS', 60_000),
      fanOut: int(env, 'RATE_LIMIT_FAN_OUT_MAX', 30),
      authFailures: int(env, 'RATE_LIMIT_AUTH_FAILURES', 20),
    },
    apiKeyRateLimitMax: int(env, 'API_KEY_RATE_LIMIT_MAX', 300),
    roleMaxAgeSeconds: int(env, 'ROLE_MAX_AGE_SECONDS', 60),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024),
    logLevel: env.LOG_LEVEL ?? 'info',
    ticketAutomationIntervalMs: int(env, 'TICKET_AUTOMATION_INTERVAL_MS', 15_000),
    webDir: env.WEB_DIR === '' ? null : path.resolve(env.WEB_DIR ?? path.join(CHECKOUT_ROOT, 'apps/web/dist')),
    version: env.npm_package_version ?? '0.1.0',
    trustProxy: env.TRUST_PROXY === 'true',
    files: {
      dir: path.resolve(env.FILES_DIR ?? path.join(dataDir, 'files')),
      maxUploadBytes: int(env, 'MAX_UPLOAD_BYTES', 25 * 1024 * 1024),
      allowedTypes: env.FILES_ALLOWED_TYPES ? list(env.FILES_ALLOWED_TYPES).map((t) => t.toLowerCase()) : DEFAULT_FILE_TYPES,
      cloneTimeoutMs: int(env, 'FILES_CLONE_TIMEOUT_MS', 15_000),
      quotaOverrideBytes: null,
      tokenTtlSeconds: fileTokenTtlSeconds,
      s3: env.S3_BUCKET
        ? {
            bucket: env.S3_BUCKET,
            endpoint: env.S3_ENDPOINT || null,
            region: env.S3_REGION || 'us-east-1',
            accessKeyId: env.S3_ACCESS_KEY_ID || null,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
            forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
          }
        : null,
    },
    payment: paymentConfig(env, demo),
    webhooks: {
      allowPrivate: flag(env, 'WEBHOOKS_ALLOW_PRIVATE', demo),
      allowHttp: flag(env, 'WEBHOOKS_ALLOW_HTTP', demo),
      timeoutMs: Math.max(1, int(env, 'WEBHOOKS_TIMEOUT_MS', 10_000)),
      intervalMs: Math.max(100, int(env, 'WEBHOOKS_INTERVAL_MS', 5_000)),
    },
    localazy: env.LOCALAZY_TOKEN ? { token: env.LOCALAZY_TOKEN, apiUrl: env.LOCALAZY_API_URL?.replace(/\/$/, '') || null } : null,
    ...overrides,
  };
  if (!overrides.encryptionKey) config.encryptionKey = encryptionKey(env, config.dataDir, config.demo);
  return config;
}
