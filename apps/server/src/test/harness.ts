import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadDemoFixtures, PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_PREFIX, PAYPAL_SANDBOX_WEBHOOK_ID, startSandbox } from '@ticket/sandbox';
import type { AuthenticateResponse } from '@ticket/contracts';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type BuiltApp } from '../app';
import { loadConfig, type Config } from '../config';
import { openDatabase, type Database, type Engine } from '../db/database';
import { migrateToLatest } from '../db/migrate';

type MigrationName = NonNullable<Parameters<typeof migrateToLatest>[2]>;

export const ADMIN_KEY = 'test-operator-key-0123456789';
export const REDIRECT_URI = 'http://localhost:3000/callback';
/** The sandbox's Stripe test-mode secret key, and the webhook secret the tests' apps check signatures with. */
export const STRIPE_SECRET_KEY = 'sk_test_sandbox_4eC39HqLyjWDarjtT1zdp7dc';
export const STRIPE_WEBHOOK_SECRET = 'whsec_dashboard_tests_0123456789abcdef';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const engines: Engine[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/**
 * A fresh, migrated database: in-memory SQLite, or a new PostgreSQL schema dropped afterwards.
 * `upTo` stops after that migration, as an installation that has not upgraded yet.
 */
export async function freshDatabase(engine: Engine, upTo?: MigrationName): Promise<Database> {
  const open = async (url: string, schema?: string) => {
    if (!upTo) return openDatabase(url, { schema });
    const database = await openDatabase(url, { schema, migrate: false });
    await migrateToLatest(database.db, engine, upTo, schema);
    return database;
  };
  if (engine === 'sqlite') return open('sqlite://:memory:');
  const url = process.env.TEST_DATABASE_URL!;
  const dropSchema = async (schema: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  };
  let schema = `test_${randomBytes(6).toString('hex')}`;
  let database: Database;
  for (let attempt = 1; ; attempt++) {
    try {
      database = await open(url, schema);
      break;
    } catch (error) {
      // The migrator's introspection reads every schema of the database, and fails when another
      // test drops its own schema at that moment: that test's, not this one's. Start again.
      if (attempt === 3 || !/schema "test_\w+" does not exist/.test((error as Error).message)) throw error;
      await dropSchema(schema);
      schema = `test_${randomBytes(6).toString('hex')}`;
    }
  }
  return {
    ...database,
    async destroy() {
      await database.destroy();
      await dropSchema(schema);
    },
  };
}

/** A migrated SQLite database in a file of its own directory, as a server runs it (with its reader); destroyed with the directory. */
export async function sqliteFileDatabase(): Promise<Database> {
  const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-db-'));
  const database = await openDatabase(`sqlite://${path.join(dir, 'dashboard.db')}`);
  return {
    ...database,
    async destroy() {
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export async function startTestSandbox(): Promise<Sandbox> {
  return startSandbox({ port: 0, host: '127.0.0.1' });
}

/**
 * One sandbox for the test file that calls it: started before its tests, closed after them. The
 * value stands for that sandbox; use it inside tests and hooks.
 */
export function useSandbox(): Sandbox {
  let current: Sandbox | undefined;
  beforeAll(async () => {
    current = await startTestSandbox();
  });
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as Sandbox, {
    get(_target, key) {
      if (!current) throw new Error('the sandbox is not running: use it inside a test or hook');
      const value = Reflect.get(current, key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
}

/** The variables that point the server at the sandbox as its chat platform, with the tests' operator key. */
export function sandboxPlatformEnv(sandbox: Sandbox): Record<string, string> {
  const { application } = loadDemoFixtures();
  return {
    DISCORD_CLIENT_ID: application.clientId,
    DISCORD_CLIENT_SECRET: application.clientSecret,
    DISCORD_BOT_TOKEN: application.botToken,
    DISCORD_API_URL: `${sandbox.url}/api`,
    DISCORD_AUTHORIZE_URL: `${sandbox.url}/oauth2/authorize`,
    DISCORD_CDN_URL: `${sandbox.url}/cdn`,
    ADMIN_KEYS: ADMIN_KEY,
  };
}

export function testConfig(sandbox: Sandbox, overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {
      ...sandboxPlatformEnv(sandbox),
      LOG_LEVEL: 'silent',
      // Every answer is checked against its contract (response-serializer.test.ts shows the unchecked writer answers the same).
      CHECK_ANSWERS: 'true',
      WEB_DIR: '',
      PUBLIC_URL: 'http://localhost:3000',
      STRIPE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET,
      STRIPE_API_URL: sandbox.url,
      PAYPAL_CLIENT_ID: PAYPAL_CLIENT_ID,
      PAYPAL_CLIENT_SECRET: PAYPAL_CLIENT_SECRET,
      PAYPAL_WEBHOOK_ID: PAYPAL_SANDBOX_WEBHOOK_ID,
      PAYPAL_API_URL: `${sandbox.url}${PAYPAL_PREFIX}`,
      // Webhook receivers in tests listen on 127.0.0.1 over plain http.
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_ALLOW_HTTP: 'true',
    },
    { encryptionKey: randomBytes(32), ...overrides },
  );
}

export interface TestContext {
  sandbox: Sandbox;
  built: BuiltApp;
  engine: Engine;
  close(): Promise<void>;
}

/** The API on a fresh database of the engine, or on the database given (which it destroys when closed). */
export async function createTestApp(sandbox: Sandbox, engine: Engine, overrides: Partial<Config> = {}, given?: Database): Promise<TestContext> {
  const database = given ?? (await freshDatabase(engine));
  const built = await buildApp(testConfig(sandbox, overrides), { database });
  return {
    sandbox,
    built,
    engine: database.engine,
    async close() {
      await built.close();
      await database.destroy();
    },
  };
}

/** Approves sign-in on the sandbox's consent page as the user and returns the code it hands back. */
export async function consentCode(sandbox: Sandbox, userId: string, scope = 'identify guilds email guilds.members.read'): Promise<string> {
  const { application } = loadDemoFixtures();
  const form = new URLSearchParams({
    user_id: userId,
    client_id: application.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope,
    state: 'test-state',
  });
  const response = await fetch(`${sandbox.url}/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`consent did not redirect (${response.status})`);
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`consent redirect has no code: ${location}`);
  return code;
}

export async function signIn(ctx: Pick<TestContext, 'sandbox' | 'built'>, userId: string): Promise<AuthenticateResponse> {
  const code = await consentCode(ctx.sandbox, userId);
  const response = await ctx.built.app.inject({
    method: 'POST',
    url: '/api/authentication/user',
    payload: { code, redirectUri: REDIRECT_URI },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return response.json<AuthenticateResponse>();
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function setFault(sandbox: Sandbox, fault: { status: number; count?: number; pathPattern?: string; retryAfter?: number }): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  if (!response.ok) throw new Error(`could not set fault: ${response.status}`);
}

export async function resetSandbox(sandbox: Sandbox): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
}

/**
 * An application key pair as the platform holds it: `publicKeyHex` goes in the config, and
 * `headers(body)` signs a raw interaction body the way the platform does.
 */
export function interactionSigner() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicKeyHex = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex');
  return {
    publicKeyHex,
    headers(body: string, timestamp = String(Math.floor(Date.now() / 1000))) {
      const signature = sign(null, Buffer.from(timestamp + body), privateKey).toString('hex');
      return { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp, 'content-type': 'application/json' };
    },
  };
}
