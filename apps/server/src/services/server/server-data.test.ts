import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Channel, ErrorBody, Role, ServerDetails, ServerMember, ServerSummary } from '@ticket/contracts';
import { seedDemoData } from '../../demo/seed';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, setFault, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';

const sandbox = useSandbox();

const requestCount = async (pattern: string) => {
  const response = await fetch(`${sandbox.url}/_sandbox/requests?pathPattern=${encodeURIComponent(pattern)}`);
  return ((await response.json()) as { requests: unknown[] }).requests.length;
};

describe.each(engines)('server-data service on %s', (engine) => {
  let ctx: TestContext;
  let owner: string; // alice, owner of Pixel Forge
  let member: string; // eli, member of Pixel Forge
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    owner = (await signIn(ctx, USERS.alice)).token;
    member = (await signIn(ctx, USERS.eli)).token;
  });
  afterEach(async () => {
    await ctx.close();
  });
  const get = (url: string, token?: string) => ctx.built.app.inject({ method: 'GET', url, ...(token ? { headers: bearer(token) } : {}) });
  const post = (url: string, payload: unknown, token?: string) =>
    ctx.built.app.inject({ method: 'POST', url, payload: payload as object, ...(token ? { headers: bearer(token) } : {}) });
  const base = `/api/server/servers/${GUILDS.pixelForge}`;

  it('answers health on every base, with database and platform reachability', async () => {
    for (const name of ['authentication', 'server', 'settings', 'support', 'files', 'payment', 'deployment', 'localization']) {
      expect((await get(`/api/${name}/health`)).json()).toEqual({ status: 'ok' });
    }
    const detailed = (await get('/api/server/health/detailed')).json();
    expect(detailed).toMatchObject({ status: 'ok', service: 'server', database: { status: 'ok' }, platform: { status: 'ok' } });
    await setFault(sandbox, { status: 503, count: 4 });
    const degraded = (await get('/api/support/health/detailed')).json();
    expect(degraded).toMatchObject({ status: 'degraded', database: { status: 'ok' }, platform: { status: 'down' } });
  });

  it('gives staff and admins the server, its channels, roles and emojis', async () => {
    const server = (await get(base, owner)).json<ServerDetails>();
    expect(server).toMatchObject({ serverId: GUILDS.pixelForge, name: 'Pixel Forge', active: true, subscription: 'free', ownerId: USERS.alice });
    const channels = (await get(`${base}/channels`, owner)).json<Channel[]>();
    expect(channels.length).toBeGreaterThan(3);
    expect(new Set(channels.map((c) => c.type))).toEqual(expect.objectContaining({ size: expect.any(Number) }));
    expect(channels.some((c) => c.type === 4)).toBe(true);
    expect(channels.some((c) => c.type === 0 && c.parent_id)).toBe(true);
    const roles = (await get(`${base}/roles`, owner)).json<Role[]>();
    expect(roles.find((r) => r.name === 'Support Staff')).toMatchObject({ id: '1300000000000000013' });
    expect(typeof roles[0]!.permissions).toBe('string');
    const emojis = (await get(`${base}/emojis`, owner)).json();
    expect(emojis.length).toBeGreaterThan(0);
  });

  it('reads platform data once within the TTL, and again with clearCache', async () => {
    await get(`${base}/roles`, owner);
    const after = await requestCount(`/guilds/${GUILDS.pixelForge}/roles`);
    await get(`${base}/roles`, owner);
    expect(await requestCount(`/guilds/${GUILDS.pixelForge}/roles`)).toBe(after);
    await get(`${base}/roles?clearCache=true`, owner);
    expect(await requestCount(`/guilds/${GUILDS.pixelForge}/roles`)).toBe(after + 1);
  });

  it('refuses members (403), strangers (403) and anonymous callers (401)', async () => {
    const denied = await get(`${base}/channels`, member);
    expect(denied.statusCode).toBe(403);
    expect(denied.json<ErrorBody>().message).toBe('You do not have the required permissions to access this page');
    const chen = (await signIn(ctx, USERS.chen)).token;
    expect((await get(`${base}/roles`, chen)).statusCode).toBe(403);
    expect((await get(`${base}/roles`)).statusCode).toBe(401);
    expect((await get(`${base}/roles`, 'tds_forged')).statusCode).toBe(401);
  });

  it('answers 404 for a server the bot is not in', async () => {
    const chen = (await signIn(ctx, USERS.chen)).token;
    const response = await get(`/api/server/servers/${GUILDS.quietGarden}`, chen);
    expect(response.statusCode).toBe(404);
    expect(response.json<ErrorBody>().message).toBe('The bot is not in this server');
    expect((await get(`/api/server/servers/${GUILDS.quietGarden}`, ADMIN_KEY)).statusCode).toBe(404);
  });

  it('names a bad clearCache or server id with 400', async () => {
    const response = await get(`${base}/roles?clearCache=maybe`, owner);
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().field).toBe('querystring.clearCache');
    expect((await get('/api/server/servers/abc/roles', owner)).json<ErrorBody>().field).toBe('params.serverId');
  });

  it('passes platform 429 on as 429 with Retry-After, and 5xx as 502', async () => {
    await setFault(sandbox, { status: 429, count: 1, pathPattern: `/guilds/${GUILDS.pixelForge}/channels`, retryAfter: 4 });
    const limited = await get(`${base}/channels?clearCache=true`, owner);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('4');
    await setFault(sandbox, { status: 500, count: 5, pathPattern: `/guilds/${GUILDS.pixelForge}/emojis` });
    const failed = await get(`${base}/emojis?clearCache=true`, owner);
    expect(failed.statusCode).toBe(502);
    expect(failed.json<ErrorBody>().message).toMatch(/chat platform/);
  });

  it('answers server summaries only for servers the caller is in', async () => {
    const ids = [GUILDS.pixelForge, GUILDS.studyHall, GUILDS.nightOwls];
    const mine = (await post('/api/server/servers/bulk', { ids }, owner)).json<ServerSummary[]>();
    expect(mine.map((s) => s.serverId).sort()).toEqual([GUILDS.pixelForge, GUILDS.nightOwls].sort());
    expect(mine.find((s) => s.serverId === GUILDS.pixelForge)).toMatchObject({ name: 'Pixel Forge', active: true, subscription: 'free' });
    const all = (await post('/api/server/servers/bulk', { ids }, ADMIN_KEY)).json<ServerSummary[]>();
    expect(all).toHaveLength(3); // operators see every server the dashboard knows
    const bad = await post('/api/server/servers/bulk', { ids: ['x'] }, owner);
    expect(bad.json<ErrorBody>().field).toBe('body.ids.0');
  });

  it('lets only operators record that the bot joined a server', async () => {
    const payload = { serverId: GUILDS.studyHall, name: 'Study Hall', ownerId: '1200000000000000115' };
    expect((await post('/api/server/servers/discord', payload, owner)).statusCode).toBe(403);
    const created = await post('/api/server/servers/discord', payload, ADMIN_KEY);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ serverId: GUILDS.studyHall, active: true, subscription: 'free' });
  });

  it('serves testimonials to anyone', async () => {
    await seedDemoData(ctx.built.database.db);
    const testimonials = (await get('/api/server/testimonials')).json();
    expect(testimonials.length).toBeGreaterThan(0);
    expect(testimonials[0]).toEqual({ testimonial: expect.any(String), author: expect.any(String), server: expect.any(String), serverSize: expect.any(Number) });
  });

  it('looks up members in bulk, one by one and by search, with display names and colours', async () => {
    const bulk = await post(`/api/server/users/bulk?serverId=${GUILDS.pixelForge}`, { ids: [USERS.bruno, USERS.dana, '1999999999999999999'] }, owner);
    expect(bulk.statusCode).toBe(200);
    const members = bulk.json<ServerMember[]>();
    expect(members.map((m) => m.userId).sort()).toEqual([USERS.bruno, USERS.dana]);
    const bruno = members.find((m) => m.userId === USERS.bruno)!;
    expect(bruno.username).toBe('bruno.b');
    expect(bruno.color).not.toBeNull();

    const one = await get(`/api/server/users/${USERS.dana}?serverId=${GUILDS.pixelForge}`, owner);
    expect(one.json()).toMatchObject({ discordId: USERS.dana, username: 'dana_diaz', guildMember: { guildId: GUILDS.pixelForge } });
    expect((await get(`/api/server/users/1999999999999999999?serverId=${GUILDS.pixelForge}`, owner)).statusCode).toBe(404);

    const found = (await post('/api/server/users/search', { term: 'da', serverId: GUILDS.pixelForge }, owner)).json<ServerMember[]>();
    expect(found.map((m) => m.userId)).toContain(USERS.dana);
    expect((await post('/api/server/users/search', { term: 'da', serverId: GUILDS.pixelForge }, member)).statusCode).toBe(403);
    expect((await post('/api/server/users/search', { term: '', serverId: GUILDS.pixelForge }, owner)).json<ErrorBody>().field).toBe('body.term');
  });

  it('answers public profiles, coloured only for staff of the given server', async () => {
    const plain = (await post('/api/server/users', { ids: [USERS.bruno] }, member)).json();
    expect(plain).toHaveLength(1);
    expect(plain[0]).toMatchObject({ id: USERS.bruno, name: 'Bruno Baptiste', color: null });
    expect((await post('/api/server/users', { ids: [USERS.bruno], serverId: GUILDS.pixelForge }, member)).statusCode).toBe(403);
    const coloured = (await post('/api/server/users', { ids: [USERS.bruno], serverId: GUILDS.pixelForge }, owner)).json();
    expect(coloured[0].color).not.toBeNull();
  });
});
