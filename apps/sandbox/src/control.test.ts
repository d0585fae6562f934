import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { RESTGetAPICurrentUserGuildsResult } from 'discord-api-types/v10';
import { beforeEach, describe, expect, it } from 'vitest';
import { BOT_ID, CHANNELS, GUILDS, USERS, bearer, bot, loginAs, makeSandbox } from './test-support.ts';
import type { TestSandbox } from './test-support.ts';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});

const control = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  sb.app.inject({ method, url: `/_sandbox${url}`, ...(payload ? { payload } : {}) });
const me = () => sb.app.inject({ url: '/api/v10/users/@me', headers: bot });

describe('rate-limit headers', () => {
  it('are on every API answer, generous, with a stable bucket per route', async () => {
    const a = await me();
    expect(a.headers['x-ratelimit-limit']).toBe('50');
    expect(a.headers['x-ratelimit-remaining']).toBe('49');
    expect(a.headers['x-ratelimit-reset-after']).toBe('1.000');
    expect(Number(a.headers['x-ratelimit-reset'])).toBeCloseTo(sb.clock.now / 1000 + 1, 3);
    expect(a.headers['x-ratelimit-bucket']).toMatch(/^[0-9a-f]{32}$/);
    expect((await me()).headers['x-ratelimit-bucket']).toBe(a.headers['x-ratelimit-bucket']);
    const other = await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.pixelForge}`, headers: bot });
    expect(other.headers['x-ratelimit-bucket']).not.toBe(a.headers['x-ratelimit-bucket']);
    const error = await sb.app.inject({ url: '/api/v10/users/@me' });
    expect(error.headers['x-ratelimit-limit']).toBe('50');
    expect((await control('GET', '/state')).headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('unknown API routes answer Discord’s 404 body', async () => {
    const res = await sb.app.inject({ url: '/api/v10/nope', headers: bot });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: '404: Not Found', code: 0 });
    expect(res.headers['x-ratelimit-bucket']).toBeDefined();
  });
});

describe('fault switch', () => {
  it('answers the next matching request with a Discord 429, then recovers', async () => {
    const created = await control('POST', '/faults', { status: 429, retryAfter: 1.5 });
    expect(created.statusCode).toBe(201);
    const res = await me();
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.headers['x-ratelimit-scope']).toBe('user');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(res.headers['x-ratelimit-reset-after']).toBe('1.500');
    expect(res.headers['x-ratelimit-global']).toBeUndefined();
    expect(res.json()).toEqual({ message: 'You are being rate limited.', retry_after: 1.5, global: false });
    expect((await me()).statusCode).toBe(200);
  });

  it('can be global', async () => {
    await control('POST', '/faults', { status: 429, global: true });
    const res = await me();
    expect(res.headers['x-ratelimit-global']).toBe('true');
    expect(res.headers['x-ratelimit-scope']).toBe('global');
    expect(res.headers['retry-after']).toBe('2');
    expect(res.json()).toEqual({ message: 'You are being rate limited.', retry_after: 2, global: true });
  });

  it('answers 5xx with a plain JSON body and consumes its count', async () => {
    await control('POST', '/faults', { status: 503, count: 2 });
    for (let i = 0; i < 2; i += 1) {
      const res = await me();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: '503: Service Unavailable', code: 0 });
    }
    expect((await me()).statusCode).toBe(200);
    await control('POST', '/faults', { status: 500 });
    expect((await me()).json()).toEqual({ message: '500: Internal Server Error', code: 0 });
  });

  it('only hits paths matching pathPattern and method', async () => {
    await control('POST', '/faults', { status: 502, pathPattern: '/channels/\\d+/messages$', method: 'post' });
    expect((await me()).statusCode).toBe(200);
    expect((await sb.app.inject({ url: `/api/v10/channels/${CHANNELS.general}/messages`, headers: bot })).statusCode).toBe(200);
    const res = await sb.app.inject({ method: 'POST', url: `/api/v10/channels/${CHANNELS.general}/messages`, headers: bot, payload: { content: 'x' } });
    expect(res.statusCode).toBe(502);
    expect((await control('GET', '/faults')).json().faults).toEqual([]);
    // Faults never touch the control API or pages.
    await control('POST', '/faults', { status: 500, pathPattern: '.*' });
    expect((await control('GET', '/state')).statusCode).toBe(200);
  });

  it('is cleared by DELETE and validates its input', async () => {
    await control('POST', '/faults', { status: 500, count: 5 });
    expect((await control('DELETE', '/faults')).json()).toEqual({ cleared: 1 });
    expect((await me()).statusCode).toBe(200);
    expect((await control('POST', '/faults', { status: 404 })).statusCode).toBe(400);
    expect((await control('POST', '/faults', { status: 500, pathPattern: '(' })).statusCode).toBe(400);
    expect((await control('POST', '/faults', { status: 500, count: 0 })).statusCode).toBe(400);
  });
});

describe('request log', () => {
  it('records API calls with method, path, auth kind and status, filterable', async () => {
    const { access_token } = await loginAs(sb.app, USERS.alice);
    await sb.app.inject({ url: '/api/v10/users/@me/guilds', headers: bearer(access_token) });
    await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.pixelForge}?with_counts=true`, headers: bot });
    await sb.app.inject({ url: '/api/v10/users/@me' });
    const all = (await control('GET', '/requests')).json().requests;
    expect(all.map((r: { method: string; path: string }) => `${r.method} ${r.path}`)).toEqual([
      'POST /oauth2/authorize',
      'POST /api/v10/oauth2/token',
      'GET /api/v10/users/@me/guilds',
      `GET /api/v10/guilds/${GUILDS.pixelForge}`,
      'GET /api/v10/users/@me',
    ]);
    expect(all[2]).toMatchObject({ auth: 'bearer', userId: USERS.alice, status: 200, route: '/api/v10/users/@me/guilds', fault: null });
    expect(all[3]).toMatchObject({ auth: 'bot', userId: BOT_ID, query: 'with_counts=true' });
    expect(all[4]).toMatchObject({ auth: 'none', status: 401 });
    const guildsOnly = (await control('GET', `/requests?pathPattern=${encodeURIComponent('^/api/v10/guilds/')}`)).json().requests;
    expect(guildsOnly).toHaveLength(1);
    const since = (await control('GET', `/requests?since=${all[3].id}`)).json().requests;
    expect(since).toHaveLength(1);
    await control('DELETE', '/requests');
    expect((await control('GET', '/requests')).json().requests).toEqual([]);
  });
});

describe('changing the world', () => {
  it('PATCH member roles changes computed permissions', async () => {
    const res = await control('PATCH', `/guilds/${GUILDS.nightOwls}/members/${USERS.eli}`, { roles: ['1300000000000000021'], nick: 'Night Eli' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ nick: 'Night Eli', roles: ['1300000000000000021'] });
    const { access_token } = await loginAs(sb.app, USERS.eli);
    const guilds: RESTGetAPICurrentUserGuildsResult = (await sb.app.inject({ url: '/api/v10/users/@me/guilds', headers: bearer(access_token) })).json();
    const owls = guilds.find((g) => g.id === GUILDS.nightOwls)!;
    expect(BigInt(owls.permissions) & PermissionFlagsBits.ManageGuild).toBe(PermissionFlagsBits.ManageGuild);
    expect((await control('PATCH', `/guilds/${GUILDS.nightOwls}/members/${USERS.eli}`, { roles: ['1'] })).statusCode).toBe(400);
  });

  it('adds and removes members', async () => {
    expect((await control('POST', `/guilds/${GUILDS.nightOwls}/members/${USERS.dana}`, { roles: [] })).statusCode).toBe(201);
    expect((await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.nightOwls}/members/${USERS.dana}`, headers: bot })).statusCode).toBe(200);
    expect((await control('POST', `/guilds/${GUILDS.nightOwls}/members/${USERS.dana}`)).statusCode).toBe(409);
    expect((await control('DELETE', `/guilds/${GUILDS.nightOwls}/members/${USERS.dana}`)).statusCode).toBe(204);
    expect((await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.nightOwls}/members/${USERS.dana}`, headers: bot })).json().code).toBe(10007);
    expect((await control('DELETE', `/guilds/${GUILDS.nightOwls}/members/${USERS.bruno}`)).statusCode).toBe(400);
  });

  it('adds and removes the bot', async () => {
    await control('POST', `/guilds/${GUILDS.pixelForge}/bot`, { member: false });
    expect((await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.pixelForge}`, headers: bot })).json().code).toBe(10004);
    expect((await sb.app.inject({ url: `/api/v10/channels/${CHANNELS.general}`, headers: bot })).statusCode).toBe(403);
    await control('POST', `/guilds/${GUILDS.quietGarden}/bot`, { member: true });
    expect((await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.quietGarden}`, headers: bot })).statusCode).toBe(200);
    expect((await sb.app.inject({ method: 'POST', url: `/api/v10/channels/${CHANNELS.gardenGeneral}/messages`, headers: bot, payload: { content: 'hi' } })).statusCode).toBe(200);
  });

  it('mints tokens directly and advances the clock', async () => {
    const minted = (await control('POST', '/tokens', { userId: USERS.bruno, scopes: 'identify guilds' })).json();
    expect(minted).toMatchObject({ token_type: 'Bearer', scope: 'identify guilds', expires_in: 604800 });
    expect((await sb.app.inject({ url: '/api/v10/users/@me', headers: bearer(minted.access_token) })).json().id).toBe(USERS.bruno);
    await control('POST', '/clock', { advanceSeconds: 604_800 });
    expect((await sb.app.inject({ url: '/api/v10/users/@me', headers: bearer(minted.access_token) })).statusCode).toBe(401);
  });
});

describe('state and reset', () => {
  it('summarises users and guilds for e2e tests', async () => {
    const state = (await control('GET', '/state')).json();
    expect(state.application.clientId).toBe('1100000000000000001');
    const alice = state.users.find((u: { id: string }) => u.id === USERS.alice);
    expect(alice).toMatchObject({ demo: true, description: 'Owner of Pixel Forge, Member of Night Owls, Member of Quiet Garden' });
    expect(alice.guilds[0]).toMatchObject({ id: GUILDS.pixelForge, standing: 'owner', botMember: true });
    expect(state.guilds.find((g: { id: string }) => g.id === GUILDS.quietGarden)).toMatchObject({ botMember: false, ownerId: USERS.chen });
    expect(state.users.filter((u: { demo: boolean }) => u.demo)).toHaveLength(5);
    expect(state.users.length).toBeGreaterThanOrEqual(25);
  });

  it('puts everything back as the fixtures describe it', async () => {
    const tokens = await loginAs(sb.app, USERS.alice);
    await sb.app.inject({ method: 'POST', url: `/api/v10/channels/${CHANNELS.general}/messages`, headers: bot, payload: { content: 'x' } });
    await control('POST', '/faults', { status: 500, count: 3 });
    await control('POST', `/guilds/${GUILDS.quietGarden}/bot`, { member: true });
    await control('DELETE', `/guilds/${GUILDS.pixelForge}/members/${USERS.eli}`);
    await control('POST', '/clock', { advanceSeconds: 60 });

    expect((await control('POST', '/reset')).json()).toEqual({ ok: true });

    expect((await me()).statusCode).toBe(200);
    expect((await sb.app.inject({ url: '/api/v10/users/@me', headers: bearer(tokens.access_token) })).statusCode).toBe(401);
    expect((await control('GET', '/messages')).json().messages).toEqual([]);
    expect((await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.quietGarden}`, headers: bot })).statusCode).toBe(404);
    expect((await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.pixelForge}/members/${USERS.eli}`, headers: bot })).statusCode).toBe(200);
    const state = (await control('GET', '/state')).json();
    expect(state.now).toBe('2025-01-15T12:00:00.000000+00:00');
    expect(state.counts).toMatchObject({ codes: 0, accessTokens: 0, messages: 0, faults: 0 });
  });
});

describe('pages', () => {
  it('serves an index page and placeholder CDN images', async () => {
    const index = await sb.app.inject({ url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<html lang="en">');
    expect(index.body).toContain('Chat platform sandbox');
    expect(index.body).toContain('/oauth2/authorize?client_id=1100000000000000001');
    const avatar = await sb.app.inject({ url: `/cdn/avatars/${USERS.alice}/4f1c9e2b7a3d8c6e5b0a9f8e7d6c5b4a.png?size=64` });
    expect(avatar.headers['content-type']).toBe('image/svg+xml');
    expect(avatar.body).toContain('<svg');
  });
});
