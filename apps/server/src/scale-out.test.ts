import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuthenticateResponse, Subject, Ticket } from '@ticket/contracts';
import { loadDemoFixtures } from '@ticket/sandbox';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiEnv, freePort, ownDatabase, startApi, type ApiProcess } from './test/api-process';
import { ADMIN_KEY, REDIRECT_URI, consentCode, useSandbox } from './test/harness';
import { GUILDS, USERS } from './test/demo-world';

/*
 * Two API processes (main.ts, as a deployment runs it) on one PostgreSQL database and one Redis
 * behave as one: whichever process a request reaches, a session, the rate limit, the platform data
 * cached, an open ticket's live updates and a role change are the same. Requests go over HTTP as
 * the dashboard and the bot runtime send them.
 *
 * That two bot runtimes split the shards and report each event once is shown in
 * apps/bot/src/runtime.test.ts (two runtimes of two shards each).
 */

const sandbox = useSandbox();
const server = GUILDS.pixelForge;
const ADMIN_ROLE = '1300000000000000011';
/** Calls per user and window: small, so the limit is reached in a few calls. */
const RATE_LIMIT_MAX = 20;
/**
 * A Redis database of this test's own (emptied first): the platform data an earlier run cached
 * under the demo world's ids, and other test files' rate-limit counts, are not in it.
 */
const REDIS_DB = 11;

const operator = { authorization: `Admin ${ADMIN_KEY}` };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)('two API processes on one PostgreSQL and one Redis', () => {
  let a: ApiProcess;
  let b: ApiProcess;
  let dir: string;
  let database: Awaited<ReturnType<typeof ownDatabase>>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'scale-out-'));
    database = await ownDatabase('postgres', dir, 'scale_out');
    const redisUrl = new URL(process.env.TEST_REDIS_URL!);
    redisUrl.pathname = `/${REDIS_DB}`;
    const redis = new Redis(redisUrl.toString());
    await redis.flushdb();
    await redis.quit();
    const encryptionKey = randomBytes(32).toString('hex');
    const [portA, portB] = [await freePort(), await freePort()];
    const env = (port: number): NodeJS.ProcessEnv => ({
      ...apiEnv(sandbox, { databaseUrl: database.url, dataDir: dir, port, encryptionKey }),
      REDIS_URL: redisUrl.toString(),
      RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
    });
    // One after the other: the first runs the migrations.
    a = await startApi(env(portA), portA);
    b = await startApi(env(portB), portB);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const call = (api: ApiProcess, method: string, url: string, headers: Record<string, string>, body?: unknown) =>
    fetch(`${api.url}${url}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const signIn = async (api: ApiProcess, userId: string): Promise<string> => {
    const code = await consentCode(sandbox, userId);
    const response = await call(api, 'POST', '/api/authentication/user', {}, { code, redirectUri: REDIRECT_URI });
    expect(response.status).toBe(200);
    return ((await response.json()) as AuthenticateResponse).token;
  };
  const setRoles = async (userId: string, roles: string[]) => {
    const response = await fetch(`${sandbox.url}/_sandbox/guilds/${server}/members/${userId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ roles }),
    });
    expect(response.ok).toBe(true);
  };

  it('keeps a session signed in on one process on the other, and logout on either ends it on both', async () => {
    const token = await signIn(a, USERS.alice);
    expect((await call(b, 'GET', '/api/authentication/user/sessions', bearer(token))).status).toBe(200);
    expect((await call(a, 'GET', '/api/authentication/user/sessions', bearer(token))).status).toBe(200);

    expect((await call(b, 'DELETE', '/api/authentication/user', bearer(token))).status).toBe(204);
    expect((await call(a, 'GET', '/api/authentication/user/sessions', bearer(token))).status).toBe(401);
    expect((await call(b, 'GET', '/api/authentication/user/sessions', bearer(token))).status).toBe(401);
  });

  it('counts the rate limit across both processes', async () => {
    const token = await signIn(b, USERS.eli);
    const sessions = (api: ApiProcess) => call(api, 'GET', '/api/authentication/user/sessions', bearer(token));
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT_MAX; i++) statuses.push((await sessions(i % 2 === 0 ? a : b)).status);
    expect(statuses).toEqual(Array.from({ length: RATE_LIMIT_MAX }, () => 200));

    for (const api of [a, b]) {
      const refused = await sessions(api);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('shares the platform data cached, and a refetch asked of one process is what the other serves', async () => {
    const token = await signIn(a, USERS.alice);
    const channels = async (api: ApiProcess, clearCache = false) => {
      const response = await call(api, 'GET', `/api/server/servers/${server}/channels${clearCache ? '?clearCache=true' : ''}`, bearer(token));
      expect(response.status).toBe(200);
      return ((await response.json()) as { id: string; name?: string }[]).map((c) => c.name);
    };
    const before = await channels(a);
    expect(before).not.toContain('scale-out');

    // A channel made on the platform since: as the bot creates one, with its token.
    const { application } = loadDemoFixtures();
    const created = await fetch(`${sandbox.url}/api/v10/guilds/${server}/channels`, {
      method: 'POST',
      headers: { authorization: `Bot ${application.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'scale-out', type: 0 }),
    });
    expect(created.status).toBe(201);

    // The other process serves what the first one cached (its own cache would have read the platform).
    expect(await channels(b)).toEqual(before);
    // clearCache on one process refetches for both.
    expect(await channels(a, true)).toContain('scale-out');
    expect(await channels(b)).toContain('scale-out');
  });

  it('brings an open ticket’s live updates through either process, whichever took the message', async () => {
    const token = await signIn(a, USERS.alice);
    const subject = (await (await call(b, 'POST', `/api/settings/servers/${server}/subjects`, operator, { name: 'Orders' })).json()) as Subject;
    const opened = await call(a, 'POST', `/api/support/servers/${server}/tickets`, operator, { ticketName: 'parcel', subjectId: subject.subjectId, authorId: USERS.eli });
    expect(opened.status).toBe(201);
    const { ticketId } = (await opened.json()) as Ticket;
    const url = `/api/support/servers/${server}/tickets/${ticketId}`;

    // The ticket's page polls with the tag of what it shows: unchanged, either process says so.
    const first = await call(a, 'GET', url, bearer(token));
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await call(a, 'GET', url, { ...bearer(token), 'if-none-match': etag })).status).toBe(304);
    expect((await call(b, 'GET', url, { ...bearer(token), 'if-none-match': etag })).status).toBe(304);

    // The bot runtime reports a member's message to the other process.
    const message = { message: { content: 'Where is my parcel?' }, messageType: 'User', authorId: USERS.eli, externalId: '1500000000000000321' };
    expect((await call(b, 'POST', `${url}/messages`, operator, message)).status).toBe(201);

    const next = await call(a, 'GET', url, { ...bearer(token), 'if-none-match': etag });
    expect(next.status).toBe(200);
    expect(((await next.json()) as Ticket).messages.map((m) => m.message.content)).toContain('Where is my parcel?');
  });

  it('applies a role change reported to one process at once in both', async () => {
    const token = await signIn(a, USERS.bruno);
    // 404 (no key yet) is an admin's answer; anyone else is refused (403).
    const apiKeyPage = async (api: ApiProcess) => (await call(api, 'GET', `/api/authentication/api/${server}`, bearer(token))).status;
    expect([await apiKeyPage(a), await apiKeyPage(b)]).toEqual([404, 404]);

    await setRoles(USERS.bruno, []);
    expect((await call(a, 'POST', `/api/support/servers/${server}/events`, operator, { eventId: 'scale-out:1', type: 'memberUpdated', userId: USERS.bruno })).status).toBe(204);
    expect([await apiKeyPage(b), await apiKeyPage(a)]).toEqual([403, 403]);

    await setRoles(USERS.bruno, [ADMIN_ROLE]);
    expect((await call(b, 'POST', `/api/support/servers/${server}/events`, operator, { eventId: 'scale-out:2', type: 'memberUpdated', userId: USERS.bruno })).status).toBe(204);
    expect([await apiKeyPage(a), await apiKeyPage(b)]).toEqual([404, 404]);
  });
});
