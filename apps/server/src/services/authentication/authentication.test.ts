import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { ApiKeyInfo, BearerUser, ErrorBody } from '@ticket/contracts';
import { now } from '../../db/database';
import {
  ADMIN_KEY,
  bearer,
  consentCode,
  createTestApp,
  engines,
  REDIRECT_URI,
  resetSandbox,
  setFault,
  signIn,
  useSandbox,
  type TestContext,
} from '../../test/harness';
import { GUILDS, SUPPORT_STAFF_ROLE, USERS } from '../../test/demo-world';

const sandbox = useSandbox();

describe.each(engines)('authentication service on %s', (engine) => {
  let ctx: TestContext;
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const inject = (options: InjectOptions) => ctx.built.app.inject(options);

  describe('GET /login/config', () => {
    it('tells the dashboard how to start sign-in', async () => {
      const response = await inject({ method: 'GET', url: '/api/authentication/login/config' });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.clientId).toBe('1100000000000000001');
      expect(body.authorizeUrl).toBe(`${sandbox.url}/oauth2/authorize`);
      expect(body.scope).toBe('identify guilds email guilds.members.read');
      expect(body.prompt).toBe('none');
      expect(new URL(body.inviteUrl).searchParams.get('scope')).toContain('bot');
    });
  });

  describe('POST /user', () => {
    it('signs in the owner with each server, role and bot presence', async () => {
      const { user, token } = await signIn(ctx, USERS.alice);
      expect(token).toMatch(/^tds_/);
      expect(user.authType).toBe('Bearer');
      expect(user.userId).toBe(USERS.alice);
      expect(user.username).toBe('alice');
      expect(user.globalName).toBe('Alice Anders');
      expect(Date.parse(user.expires)).toBeGreaterThan(Date.now());
      const roles = Object.fromEntries(user.servers.map((s) => [s.serverId, s.role]));
      expect(roles[GUILDS.pixelForge]).toBe('Owner');
      expect(roles[GUILDS.nightOwls]).toBe('Member');
      // Alice is a member of the bot-less server: not an admin there, so not offered for setup.
      expect(user.uServers.map((s) => s.serverId)).not.toContain(GUILDS.quietGarden);
      expect(user.servers.every((s) => s.integrationType === 'Discord')).toBe(true);
    });

    it('tells ADMINISTRATOR and MANAGE_GUILD admins apart from members, and lists unjoined servers they could set up', async () => {
      const bruno = (await signIn(ctx, USERS.bruno)).user;
      expect(bruno.servers.find((s) => s.serverId === GUILDS.pixelForge)?.role).toBe('Admin');
      expect(bruno.servers.find((s) => s.serverId === GUILDS.nightOwls)?.role).toBe('Owner');
      const chen = (await signIn(ctx, USERS.chen)).user;
      expect(chen.servers.find((s) => s.serverId === GUILDS.studyHall)?.role).toBe('Admin');
      expect(chen.uServers).toEqual([
        expect.objectContaining({ serverId: GUILDS.quietGarden, role: 'Owner', name: 'Quiet Garden', integrationType: 'Discord' }),
      ]);
      expect(chen.servers.map((s) => s.serverId)).not.toContain(GUILDS.quietGarden);
    });

    it('makes a holder of a configured staff role Staff, and only there', async () => {
      const first = (await signIn(ctx, USERS.dana)).user;
      expect(first.servers.find((s) => s.serverId === GUILDS.pixelForge)?.role).toBe('Member');
      const operator = { kind: 'admin' } as const;
      const subject = await ctx.built.services.settings.createSubject(operator, GUILDS.pixelForge, 'Support');
      await ctx.built.services.settings.updateSubject(operator, GUILDS.pixelForge, subject.subjectId, {
        serverId: GUILDS.pixelForge,
        subjectId: subject.subjectId,
        path: 'staffRoles.value',
        operation: 'add',
        value: SUPPORT_STAFF_ROLE.pixelForge,
      });
      const second = (await signIn(ctx, USERS.dana)).user;
      const pixelForge = second.servers.find((s) => s.serverId === GUILDS.pixelForge);
      expect(pixelForge?.role).toBe('Staff');
      expect(pixelForge?.subjects).toEqual([subject.subjectId]);
      // Deactivating the only subject naming the role takes Staff away again.
      await ctx.built.services.settings.updateSubject(operator, GUILDS.pixelForge, subject.subjectId, {
        serverId: GUILDS.pixelForge,
        subjectId: subject.subjectId,
        path: 'active',
        operation: 'set',
        value: false,
      });
      const third = (await signIn(ctx, USERS.dana)).user;
      expect(third.servers.find((s) => s.serverId === GUILDS.pixelForge)?.role).toBe('Member');
      expect(second.servers.find((s) => s.serverId === GUILDS.studyHall)?.role).toBe('Member');
    });

    it('refuses a code that was already used, with 401', async () => {
      const code = await consentCode(sandbox, USERS.eli);
      const payload = { code, redirectUri: REDIRECT_URI };
      expect((await inject({ method: 'POST', url: '/api/authentication/user', payload })).statusCode).toBe(200);
      const again = await inject({ method: 'POST', url: '/api/authentication/user', payload });
      expect(again.statusCode).toBe(401);
      expect(again.json<ErrorBody>().message).toMatch(/code is invalid or has expired/);
    });

    it('names the missing or malformed field with 400', async () => {
      const missing = await inject({ method: 'POST', url: '/api/authentication/user', payload: { redirectUri: REDIRECT_URI } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json<ErrorBody>().field).toBe('body.code');
      const badUri = await inject({ method: 'POST', url: '/api/authentication/user', payload: { code: 'x', redirectUri: 'not a url' } });
      expect(badUri.statusCode).toBe(400);
      expect(badUri.json<ErrorBody>().field).toBe('body.redirectUri');
    });

    it('passes a platform 429 on with Retry-After and writes nothing', async () => {
      const code = await consentCode(sandbox, USERS.alice);
      await setFault(sandbox, { status: 429, count: 1, pathPattern: '/users/@me/guilds', retryAfter: 7 });
      const response = await inject({ method: 'POST', url: '/api/authentication/user', payload: { code, redirectUri: REDIRECT_URI } });
      expect(response.statusCode).toBe(429);
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(7);
      const db = ctx.built.database.db;
      expect(await db.selectFrom('users').selectAll().execute()).toEqual([]);
      expect(await db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    });

    it('answers 502 when the platform keeps failing, and writes nothing', async () => {
      const code = await consentCode(sandbox, USERS.alice);
      await setFault(sandbox, { status: 502, count: 5, pathPattern: '/users/@me$' });
      const response = await inject({ method: 'POST', url: '/api/authentication/user', payload: { code, redirectUri: REDIRECT_URI } });
      expect(response.statusCode).toBe(502);
      expect(response.json<ErrorBody>().message).toMatch(/chat platform/);
      expect(await ctx.built.database.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    });

    it('stores the platform tokens encrypted, and the session token only hashed', async () => {
      const { token } = await signIn(ctx, USERS.alice);
      const user = await ctx.built.database.db.selectFrom('users').selectAll().where('id', '=', USERS.alice).executeTakeFirstOrThrow();
      expect(user.access_token).toMatch(/^v1\./);
      const sessions = await ctx.built.database.db.selectFrom('sessions').selectAll().execute();
      expect(sessions).toHaveLength(1);
      expect(sessions[0]!.token_hash).not.toContain(token);
      expect(JSON.stringify(sessions)).not.toContain(token);
    });
  });

  describe('DELETE /user', () => {
    it('ends the session for good', async () => {
      const { token } = await signIn(ctx, USERS.alice);
      expect((await inject({ method: 'POST', url: '/api/authentication/user/refresh', headers: bearer(token) })).statusCode).toBe(200);
      const logout = await inject({ method: 'DELETE', url: '/api/authentication/user', headers: bearer(token) });
      expect(logout.statusCode).toBe(204);
      const after = await inject({ method: 'POST', url: '/api/authentication/user/refresh', headers: bearer(token) });
      expect(after.statusCode).toBe(401);
      expect((await inject({ method: 'DELETE', url: '/api/authentication/user', headers: bearer(token) })).statusCode).toBe(401);
    });

    it('answers 401 without a token', async () => {
      expect((await inject({ method: 'DELETE', url: '/api/authentication/user' })).statusCode).toBe(401);
    });
  });

  describe('sessions /user/sessions', () => {
    it('lists the live sessions, marks the current one, and signs out another', async () => {
      const first = (await signIn(ctx, USERS.alice)).token;
      const second = (await signIn(ctx, USERS.alice)).token;
      const other = (await signIn(ctx, USERS.bruno)).token;
      const listed = await inject({ method: 'GET', url: '/api/authentication/user/sessions', headers: bearer(second) });
      expect(listed.statusCode).toBe(200);
      const sessions = listed.json<{ id: string; current: boolean }[]>();
      expect(sessions).toHaveLength(2);
      expect(sessions.filter((s) => s.current)).toHaveLength(1);
      const firstId = sessions.find((s) => !s.current)!.id;
      // In use just before it is ended (a process reuses a session it looked up for a few seconds).
      const listOf = (token: string) => inject({ method: 'GET', url: '/api/authentication/user/sessions', headers: bearer(token) });
      expect((await listOf(first)).statusCode).toBe(200);
      // Another user cannot end Alice's session.
      expect((await inject({ method: 'DELETE', url: `/api/authentication/user/sessions/${firstId}`, headers: bearer(other) })).statusCode).toBe(404);
      expect((await inject({ method: 'DELETE', url: `/api/authentication/user/sessions/${firstId}`, headers: bearer(second) })).statusCode).toBe(204);
      expect((await listOf(first)).statusCode).toBe(401);
      expect((await inject({ method: 'POST', url: '/api/authentication/user/refresh', headers: bearer(first) })).statusCode).toBe(401);
      expect((await inject({ method: 'POST', url: '/api/authentication/user/refresh', headers: bearer(second) })).statusCode).toBe(200);
      const bad = await inject({ method: 'DELETE', url: '/api/authentication/user/sessions/nope', headers: bearer(second) });
      expect(bad.json<ErrorBody>().field).toBe('params.sessionId');
    });
  });

  describe('POST /user/refresh (normal, bypass, force)', () => {
    const platformCalls = async (pattern: string) => {
      const response = await fetch(`${sandbox.url}/_sandbox/requests?pathPattern=${encodeURIComponent(pattern)}`);
      return ((await response.json()) as { requests: unknown[] }).requests.length;
    };

    it('normal reuses cached platform data, bypass rereads it', async () => {
      const { token } = await signIn(ctx, USERS.bruno);
      const before = await platformCalls('/users/@me/guilds');
      const normal = await inject({ method: 'POST', url: '/api/authentication/user/refresh', headers: bearer(token) });
      expect(normal.statusCode).toBe(200);
      expect(normal.json<BearerUser>().userId).toBe(USERS.bruno);
      expect(await platformCalls('/users/@me/guilds')).toBe(before);
      const bypass = await inject({ method: 'POST', url: '/api/authentication/user/refresh/bypass', headers: bearer(token) });
      expect(bypass.statusCode).toBe(200);
      expect(await platformCalls('/users/@me/guilds')).toBeGreaterThan(before);
    });

    it('bypass picks up a role change on the platform', async () => {
      const { token } = await signIn(ctx, USERS.eli);
      expect((await signIn(ctx, USERS.eli)).user.servers.find((s) => s.serverId === GUILDS.pixelForge)?.role).toBe('Member');
      await fetch(`${sandbox.url}/_sandbox/guilds/${GUILDS.pixelForge}/members/${USERS.eli}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ roles: ['1300000000000000011'] }),
      });
      // An admin-only call, refused while the role is Member (and the refusal looked up the role).
      const auditLog = () => inject({ method: 'GET', url: `/api/settings/servers/${GUILDS.pixelForge}/audit-log`, headers: bearer(token) });
      expect((await auditLog()).statusCode).toBe(403);
      const normal = await inject({ method: 'POST', url: '/api/authentication/user/refresh', headers: bearer(token) });
      expect(normal.json<BearerUser>().servers.find((s) => s.serverId === GUILDS.pixelForge)?.role).toBe('Member');
      const bypass = await inject({ method: 'POST', url: '/api/authentication/user/refresh/bypass', headers: bearer(token) });
      expect(bypass.json<BearerUser>().servers.find((s) => s.serverId === GUILDS.pixelForge)?.role).toBe('Admin');
      // The new role counts at once for access, not once a reused lookup runs out.
      expect((await auditLog()).statusCode).toBe(200);
    });

    it('force renews the platform token', async () => {
      const { token } = await signIn(ctx, USERS.alice);
      const db = ctx.built.database.db;
      const before = await db.selectFrom('users').select('access_token').where('id', '=', USERS.alice).executeTakeFirstOrThrow();
      const forced = await inject({ method: 'POST', url: '/api/authentication/user/refresh/force', headers: bearer(token) });
      expect(forced.statusCode).toBe(200);
      const after = await db.selectFrom('users').select('access_token').where('id', '=', USERS.alice).executeTakeFirstOrThrow();
      expect(after.access_token).not.toBe(before.access_token);
      expect(await platformCalls('/oauth2/token')).toBeGreaterThanOrEqual(2);
    });

    it('passes a platform 429 on as 429 with Retry-After', async () => {
      const { token } = await signIn(ctx, USERS.alice);
      await setFault(sandbox, { status: 429, count: 1, pathPattern: '/users/@me/guilds', retryAfter: 3 });
      const response = await inject({ method: 'POST', url: '/api/authentication/user/refresh/bypass', headers: bearer(token) });
      expect(response.statusCode).toBe(429);
      expect(response.headers['retry-after']).toBe('3');
      // The session survives a rate limit.
      expect((await inject({ method: 'POST', url: '/api/authentication/user/refresh', headers: bearer(token) })).statusCode).toBe(200);
    });

    it('refuses an unknown or expired token with 401', async () => {
      expect((await inject({ method: 'POST', url: '/api/authentication/user/refresh', headers: bearer('tds_nope') })).statusCode).toBe(401);
      const { token } = await signIn(ctx, USERS.alice);
      await ctx.built.database.db.updateTable('sessions').set({ expires_at: '2000-01-01T00:00:00.000Z' }).execute();
      expect((await inject({ method: 'POST', url: '/api/authentication/user/refresh', headers: bearer(token) })).statusCode).toBe(401);
    });
  });

  describe('POST / (is authenticated)', () => {
    it('answers the Bearer identity of a session token', async () => {
      const { token } = await signIn(ctx, USERS.alice);
      const response = await inject({ method: 'POST', url: '/api/authentication/', payload: { accessKey: token, type: 'Bearer' } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ authType: 'Bearer', userId: USERS.alice });
    });

    it('answers the Admin identity of an operator key', async () => {
      const response = await inject({ method: 'POST', url: '/api/authentication/', payload: { accessKey: ADMIN_KEY, type: 'Admin' } });
      expect(response.json()).toEqual({ authType: 'Admin' });
    });

    it('answers 401 for an invalid key or a key of another type', async () => {
      const { token } = await signIn(ctx, USERS.alice);
      for (const payload of [
        { accessKey: 'tds_invalid', type: 'Bearer' },
        { accessKey: token, type: 'Admin' },
        { accessKey: ADMIN_KEY, type: 'ApiKey' },
        { accessKey: 'tdk_invalid', type: 'ApiKey' },
      ]) {
        expect((await inject({ method: 'POST', url: '/api/authentication/', payload })).statusCode).toBe(401);
      }
    });

    it('names a bad type with 400', async () => {
      const response = await inject({ method: 'POST', url: '/api/authentication/', payload: { accessKey: 'x', type: 'Root' } });
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>().field).toBe('body.type');
    });
  });

  describe('API keys /api/{serverId}', () => {
    const url = `/api/authentication/api/${GUILDS.pixelForge}`;
    const makeEnterprise = () =>
      ctx.built.database.db.updateTable('servers').set({ plan: 'enterprise', updated_at: now() }).where('id', '=', GUILDS.pixelForge).execute();

    it('lets an admin create, read (masked), use and delete a key', async () => {
      const { token } = await signIn(ctx, USERS.alice);
      await makeEnterprise();
      expect((await inject({ method: 'GET', url, headers: bearer(token) })).statusCode).toBe(404);
      const created = await inject({ method: 'POST', url, headers: bearer(token) });
      expect(created.statusCode).toBe(201);
      const { key } = created.json<{ key: string }>();
      expect(key).toMatch(/^tdk_/);
      const read = await inject({ method: 'GET', url, headers: bearer(token) });
      const info = read.json<ApiKeyInfo>();
      expect(info.key).not.toBe(key);
      expect(key.startsWith(info.key.replace('…', ''))).toBe(true);
      const identity = await inject({ method: 'POST', url: '/api/authentication/', payload: { accessKey: key, type: 'ApiKey' } });
      expect(identity.json()).toEqual({ authType: 'ApiKey', serverId: GUILDS.pixelForge });
      // The key reaches its own server's data and nothing else.
      expect((await inject({ method: 'GET', url: `/api/server/servers/${GUILDS.pixelForge}/roles`, headers: bearer(key) })).statusCode).toBe(200);
      expect((await inject({ method: 'GET', url: `/api/server/servers/${GUILDS.nightOwls}/roles`, headers: bearer(key) })).statusCode).toBe(403);
      // Resetting replaces the key: the old one stops working.
      const reset = await inject({ method: 'POST', url, headers: bearer(token) });
      expect(reset.json<{ key: string }>().key).not.toBe(key);
      expect((await inject({ method: 'POST', url: '/api/authentication/', payload: { accessKey: key, type: 'ApiKey' } })).statusCode).toBe(401);
      expect((await inject({ method: 'DELETE', url, headers: bearer(token) })).statusCode).toBe(204);
      expect((await inject({ method: 'GET', url, headers: bearer(token) })).statusCode).toBe(404);
    });

    it('is part of the Enterprise plan', async () => {
      const { token } = await signIn(ctx, USERS.alice);
      const response = await inject({ method: 'POST', url, headers: bearer(token) });
      expect(response.statusCode).toBe(402);
      expect(response.json<ErrorBody>().message).toMatch(/Enterprise/);
    });

    it('is refused to members (403), strangers (403) and anonymous callers (401)', async () => {
      await makeEnterprise();
      const member = (await signIn(ctx, USERS.eli)).token;
      const stranger = (await signIn(ctx, USERS.chen)).token;
      const denied = await inject({ method: 'POST', url, headers: bearer(member) });
      expect(denied.statusCode).toBe(403);
      expect(denied.json<ErrorBody>().message).toBe('You do not have the required permissions to access this page');
      expect((await inject({ method: 'GET', url, headers: bearer(stranger) })).statusCode).toBe(403);
      expect((await inject({ method: 'GET', url })).statusCode).toBe(401);
    });

    it('names a malformed server id with 400', async () => {
      const { token } = await signIn(ctx, USERS.alice);
      const response = await inject({ method: 'GET', url: '/api/authentication/api/not-a-snowflake', headers: bearer(token) });
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>().field).toBe('params.serverId');
    });
  });
});

describe.each(engines)('a role is never older than its bound, on %s', (engine) => {
  const ADMIN_ROLE = '1300000000000000011';
  let ctx: TestContext;
  afterEach(async () => {
    await ctx.close();
  });
  const member = (method: 'PATCH' | 'DELETE' | 'POST', userId: string, roles?: string[]) =>
    fetch(`${sandbox.url}/_sandbox/guilds/${GUILDS.pixelForge}/members/${userId}`, {
      method,
      ...(roles ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roles }) } : {}),
    });
  const apiKeyPage = (token: string) => ctx.built.app.inject({ method: 'GET', url: `/api/authentication/api/${GUILDS.pixelForge}`, headers: bearer(token) });

  it('reads a demoted or kicked admin’s role again from the platform once it is older than the bound', async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine, { roleMaxAgeSeconds: 0 });
    const { token } = await signIn(ctx, USERS.bruno);
    // Allowed in: the server has no key yet.
    expect((await apiKeyPage(token)).statusCode).toBe(404);
    expect((await member('PATCH', USERS.bruno, [])).ok).toBe(true);
    const demoted = await apiKeyPage(token);
    expect(demoted.statusCode).toBe(403);
    expect(demoted.json<ErrorBody>().message).toBe('You do not have the required permissions to access this page');
    expect((await member('PATCH', USERS.bruno, [ADMIN_ROLE])).ok).toBe(true);
    expect((await apiKeyPage(token)).statusCode).toBe(404);
    expect((await member('DELETE', USERS.bruno)).ok).toBe(true);
    expect((await apiKeyPage(token)).statusCode).toBe(403);
    // The session still works, and the server is gone from the user's list.
    const me = await ctx.built.app.inject({ method: 'POST', url: '/api/authentication/user/refresh', headers: bearer(token) });
    expect(me.json<BearerUser>().servers.map((s) => s.serverId)).not.toContain(GUILDS.pixelForge);
  });

  it('reuses a role younger than the bound without asking the platform', async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine, { roleMaxAgeSeconds: 60 });
    const { token } = await signIn(ctx, USERS.bruno);
    expect((await member('PATCH', USERS.bruno, [])).ok).toBe(true);
    expect((await apiKeyPage(token)).statusCode).toBe(404);
    // Past the bound (the stored role's time moved back), the platform is asked again.
    await ctx.built.database.db.updateTable('memberships').set({ updated_at: new Date(Date.now() - 61_000).toISOString() }).where('user_id', '=', USERS.bruno).execute();
    await new Promise((resolve) => setTimeout(resolve, 10));
    (ctx.built.services.auth as unknown as { roles: Map<string, unknown> }).roles.clear();
    expect((await apiKeyPage(token)).statusCode).toBe(403);
  });
});
