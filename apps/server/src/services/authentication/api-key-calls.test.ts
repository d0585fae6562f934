import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { ApiKeyCalls, ErrorBody } from '@ticket/contracts';
import { buildApp } from '../../app';
import { now, toTimestamp } from '../../db/database';
import { bearer, createTestApp, engines, freshDatabase, resetSandbox, signIn, testConfig, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { ApiKeyCallLog } from './api-key-calls';
import { insertApiKeyCalls } from './repository';

const sandbox = useSandbox();
const A: string = GUILDS.pixelForge;
const B: string = GUILDS.studyHall;
const LIMIT = 4;
const calls = (serverId: string, query = '') => `/api/authentication/api/${serverId}/calls${query}`;

describe.each(engines)('API key calls and limit on %s', (engine) => {
  let ctx: TestContext;
  let admin: string;
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine, { apiKeyRateLimitMax: LIMIT });
    admin = (await signIn(ctx, USERS.alice)).token;
    await ctx.built.database.db.updateTable('servers').set({ plan: 'enterprise', updated_at: now() }).where('id', '=', A).execute();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const inject = (options: InjectOptions) => ctx.built.app.inject(options);
  const newKey = async (serverId = A, token = admin) => {
    const response = await inject({ method: 'POST', url: `/api/authentication/api/${serverId}`, headers: bearer(token) });
    expect(response.statusCode).toBe(201);
    return response.json<{ key: string }>().key;
  };
  const read = async (token: string, query = '', serverId = A) => {
    const response = await inject({ method: 'GET', url: calls(serverId, query), headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    return response.json<ApiKeyCalls>();
  };

  it('records every call made with the key (route as routed, path without query, status, duration), and none made by users', async () => {
    const key = await newKey();
    expect((await inject({ method: 'GET', url: `/api/settings/servers/${A}/panels?x=1`, headers: bearer(key) })).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: `/api/settings/servers/${B}/panels`, headers: bearer(key) })).statusCode).toBe(403);
    expect((await inject({ method: 'GET', url: `/api/settings/servers/${A}/panels`, headers: bearer(admin) })).statusCode).toBe(200);

    const log = await read(admin);
    expect(log.limit).toEqual({ max: LIMIT, windowMs: 60_000 });
    expect(log.elements.map((c) => [c.method, c.route, c.path, c.status])).toEqual([
      ['GET', '/api/settings/servers/:serverId/panels', `/api/settings/servers/${B}/panels`, 403],
      ['GET', '/api/settings/servers/:serverId/panels', `/api/settings/servers/${A}/panels`, 200],
    ]);
    for (const call of log.elements) {
      expect(key.startsWith(call.keyPrefix)).toBe(true);
      expect(call.keyPrefix.length).toBeLessThan(key.length);
      expect(call.durationMs).toBeGreaterThanOrEqual(0);
      expect(call.rateLimited).toBe(false);
      expect(Date.parse(call.at)).toBeLessThanOrEqual(Date.now());
    }
    // The admin's own reads are not calls of the key.
    expect(log.elements.some((c) => c.route.endsWith('/calls'))).toBe(false);
    expect((await read(admin, '?status=error')).elements.map((c) => c.status)).toEqual([403]);
    expect((await read(admin, '?status=success')).elements.map((c) => c.status)).toEqual([200]);

    // The key reads its own calls too; that read is recorded like any other.
    const own = await read(key, '?Amount=1');
    expect(own).toMatchObject({ page: 1, maxPage: 2 });
    expect((await read(admin)).elements[0]).toMatchObject({ route: '/api/authentication/api/:serverId/calls', status: 200 });
    // Only whole keys are kept: never the Authorization header or a body.
    const stored = await ctx.built.database.db.selectFrom('api_key_calls').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(key);
  });

  it('shows a server’s calls to its admins and its own key only', async () => {
    const key = await newKey();
    await inject({ method: 'GET', url: `/api/settings/servers/${A}/panels`, headers: bearer(key) });
    const otherAdmin = (await signIn(ctx, USERS.chen)).token;
    const member = (await signIn(ctx, USERS.eli)).token;
    // Study Hall is known once its admin has signed in.
    await ctx.built.database.db.updateTable('servers').set({ plan: 'enterprise', updated_at: now() }).where('id', '=', B).execute();
    const otherKey = await newKey(B, otherAdmin);
    for (const token of [otherAdmin, member, otherKey]) {
      const denied = await inject({ method: 'GET', url: calls(A), headers: bearer(token) });
      expect(denied.statusCode).toBe(403);
    }
    expect((await inject({ method: 'GET', url: calls(A) })).statusCode).toBe(401);
    // The other server's own log holds only its key's calls (the refused reads above), none of A's.
    const theirs = await read(otherAdmin, '', B);
    expect(theirs.elements.map((c) => c.path)).toEqual([calls(A)]);
    expect((await read(admin)).elements.map((c) => c.path)).toEqual([`/api/settings/servers/${A}/panels`]);
  });

  it('limits each key to API_KEY_RATE_LIMIT_MAX, with the key’s limit in the headers, and records the refusals as rate limited', async () => {
    const key = await newKey();
    const url = `/api/settings/servers/${A}/panels`;
    for (let i = 1; i <= LIMIT; i++) {
      const response = await inject({ method: 'GET', url, headers: bearer(key) });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(response.headers['x-ratelimit-remaining']).toBe(String(LIMIT - i));
    }
    const refused = await inject({ method: 'GET', url, headers: bearer(key) });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<ErrorBody>().code).toBe('rate_limited');

    // Users keep the API's own limit.
    const user = await inject({ method: 'GET', url, headers: bearer(admin) });
    expect(user.headers['x-ratelimit-limit']).toBe('600');

    const limited = await read(admin, '?status=rateLimited');
    expect(limited.elements).toHaveLength(1);
    expect(limited.elements[0]).toMatchObject({ status: 429, rateLimited: true, route: '/api/settings/servers/:serverId/panels' });
    expect((await read(admin, '?status=error')).elements).toHaveLength(1);
    expect((await read(admin)).elements).toHaveLength(LIMIT + 1);

    // A reset key is a new key: it starts a fresh count, and its calls are told apart.
    const reset = await newKey();
    const fresh = await inject({ method: 'GET', url, headers: bearer(reset) });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
    const prefixes = new Set((await read(admin)).elements.map((c) => c.keyPrefix));
    expect(prefixes.size).toBe(2);
  });

  it('pages the calls, newest first', async () => {
    const key = await newKey();
    for (const status of ['1', '2', '3']) await inject({ method: 'GET', url: `/api/settings/servers/${A}/panels?n=${status}`, headers: bearer(key) });
    await inject({ method: 'GET', url: `/api/settings/servers/${A}/subjects`, headers: bearer(key) });
    const first = await read(admin, '?Page=1&Amount=3');
    expect(first).toMatchObject({ page: 1, maxPage: 2 });
    expect(first.elements).toHaveLength(3);
    expect(first.elements[0]!.route).toBe('/api/settings/servers/:serverId/subjects');
    const second = await read(admin, '?Page=2&Amount=3');
    expect(second.elements).toHaveLength(1);
    expect(Date.parse(second.elements[0]!.at)).toBeLessThanOrEqual(Date.parse(first.elements[2]!.at));
    expect((await read(admin, '?Page=9&Amount=3')).elements).toEqual([]);
    const bad = await inject({ method: 'GET', url: calls(A, '?status=teapot'), headers: bearer(admin) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorBody>().field).toBe('querystring.status');
  });

  it('keeps at most the newest calls per server and none past the retention', async () => {
    const db = ctx.built.database.db;
    const log = new ApiKeyCallLog(db, { perServer: 5, pruneEveryMs: 0 });
    const call = (serverId: string, at: Date, path: string) => ({
      serverId,
      keyPrefix: 'tdk_abcdef',
      at,
      method: 'GET',
      route: '/api/settings/servers/:serverId/panels',
      path,
      status: 200,
      durationMs: 1.5,
      rateLimited: false,
    });
    const old = toTimestamp(Date.now() - 31 * 86_400_000);
    const row = { key_prefix: 'tdk_abcdef', at: old, method: 'GET', route: '/x', status: 200, duration_ms: 1, rate_limited: 0 };
    await insertApiKeyCalls(db, [
      { ...row, id: 'old-a', server_id: A, path: '/old' },
      { ...row, id: 'old-b', server_id: B, path: '/old-elsewhere' },
    ]);
    // The 30-day bound: the call of A goes as soon as A is written to again; B's with the sweep.
    for (let i = 0; i < 8; i++) log.record(call(A, new Date(Date.now() - (8 - i) * 1000), `/${i}`));
    await log.close();
    const kept = await db.selectFrom('api_key_calls').select(['path']).where('server_id', '=', A).orderBy('at').execute();
    expect(kept.map((r) => r.path)).toEqual(['/3', '/4', '/5', '/6', '/7']);
    expect(await log.sweep()).toBe(1);
    expect(await db.selectFrom('api_key_calls').select('id').where('server_id', '=', B).execute()).toEqual([]);
  });
});

describe.each(engines)('API key calls on shutdown, on %s', (engine) => {
  it('are all written when the app closes', async () => {
    await resetSandbox(sandbox);
    const database = await freshDatabase(engine);
    try {
      const built = await buildApp(testConfig(sandbox), { database });
      const ctx = { sandbox, built, engine, close: () => built.close() };
      const { token } = await signIn(ctx, USERS.alice);
      await database.db.updateTable('servers').set({ plan: 'enterprise', updated_at: now() }).where('id', '=', A).execute();
      const key = (await built.app.inject({ method: 'POST', url: `/api/authentication/api/${A}`, headers: bearer(token) })).json<{ key: string }>().key;
      for (let i = 0; i < 3; i++) await built.app.inject({ method: 'GET', url: `/api/settings/servers/${A}/panels`, headers: bearer(key) });
      await built.close();
      const rows = await database.db.selectFrom('api_key_calls').select(['status']).where('server_id', '=', A).execute();
      expect(rows).toHaveLength(3);
    } finally {
      await database.destroy();
    }
  });
});
