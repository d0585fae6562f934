import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, loadDemoFixtures, startSandbox, validateFixtures } from './index.ts';
import type { RunningSandbox } from './index.ts';
import { createSnowflakeGenerator, DISCORD_EPOCH, snowflakeTime } from './snowflake.ts';
import { startEndpoint } from './test-endpoint.ts';
import { BOT_TOKEN, CHANNELS, CLIENT_ID, CLIENT_SECRET, GUILDS, REDIRECT_URI, USERS } from './test-support.ts';

describe('startSandbox', () => {
  let running: RunningSandbox | null = null;
  afterEach(async () => {
    await running?.close();
    running = null;
  });

  it('listens on a free port when given 0 and reports the real one', async () => {
    running = await startSandbox({ port: 0 });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.url.endsWith(':0')).toBe(false);
    const res = await fetch(`${running.url}/api/v10/users/@me`, { headers: { authorization: `Bot ${BOT_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-bucket')).toBeTruthy();
    expect(((await res.json()) as { bot: boolean }).bot).toBe(true);
  });

  it('runs the OAuth dance over real HTTP like a browser and a server would', async () => {
    running = await startSandbox({ port: 0 });
    const authorizeUrl = `${running.url}/oauth2/authorize?client_id=${CLIENT_ID}&response_type=code&scope=identify+guilds&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&state=s1`;
    const pageRes = await fetch(authorizeUrl);
    expect(pageRes.status).toBe(200);
    expect(await pageRes.text()).toContain(`data-user-id="${USERS.dana}"`);

    const approve = await fetch(`${running.url}/oauth2/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${new URL(authorizeUrl).searchParams}&user_id=${USERS.dana}&action=authorize`,
    });
    expect(approve.status).toBe(302);
    const code = new URL(approve.headers.get('location')!).searchParams.get('code')!;

    const token = await fetch(`${running.url}/api/v10/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const guilds = await fetch(`${running.url}/api/v10/users/@me/guilds`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(((await guilds.json()) as unknown[]).length).toBe(2);
  });
});

describe('interactions over real HTTP', () => {
  it('exposes the key and configure(), and takes a callback while the endpoint is still answering', async () => {
    const sandbox = await startSandbox({ port: 0 });
    const endpoint = await startEndpoint(async (request) => {
      const { id, token } = request.json as { id: string; token: string };
      const callback = await fetch(`${sandbox.url}/api/v10/interactions/${id}/${token}/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 4, data: { content: 'Opening your ticket…', flags: 64 } }),
      });
      return { status: callback.status === 204 ? 202 : 500 };
    });
    try {
      expect(sandbox.publicKey).toMatch(/^[0-9a-f]{64}$/);
      sandbox.configure({ interactionsUrl: endpoint.url });
      const json = { authorization: `Bot ${BOT_TOKEN}`, 'content-type': 'application/json' };
      const panel = (await (
        await fetch(`${sandbox.url}/api/v10/channels/${CHANNELS.openTicket}/messages`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Open', custom_id: 'open' }] }] }),
        })
      ).json()) as { id: string };
      const res = await fetch(`${sandbox.url}/_sandbox/interactions/component`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ guildId: GUILDS.pixelForge, channelId: CHANNELS.openTicket, messageId: panel.id, userId: USERS.dana, customId: 'open' }),
      });
      expect(res.status).toBe(200);
      const result = (await res.json()) as { status: number; interaction: { acknowledged: boolean; ephemeral: { content: string }[] } };
      expect(result.status).toBe(202);
      expect(result.interaction.acknowledged).toBe(true);
      expect(result.interaction.ephemeral.map((m) => m.content)).toEqual(['Opening your ticket…']);
    } finally {
      await endpoint.close();
      await sandbox.close();
    }
  });
});

describe('fixtures', () => {
  it('ships a valid demo world', () => {
    const fixtures = loadDemoFixtures();
    expect(validateFixtures(fixtures)).toEqual([]);
    expect(fixtures.users.filter((u) => u.demo)).toHaveLength(5);
    expect(fixtures.users.length).toBeGreaterThanOrEqual(25);
    expect(fixtures.guilds.filter((g) => g.botMember)).toHaveLength(3);
    expect(fixtures.guilds.filter((g) => !g.botMember)).toHaveLength(1);
    for (const user of fixtures.users) expect(user.id).toMatch(/^\d{17,19}$/);
  });

  it('reports inconsistent fixtures instead of serving them', async () => {
    const broken = loadDemoFixtures();
    broken.guilds[0]!.members.push({ userId: '1999999999999999999', roles: ['42'], joined_at: '2020-01-01T00:00:00.000000+00:00' });
    const problems = validateFixtures(broken);
    expect(problems).toContain('guild 1300000000000000001: member 1999999999999999999 is not in users');
    expect(problems).toContain('guild 1300000000000000001: member 1999999999999999999 has unknown role 42');
    await expect(createSandbox({ fixtures: broken })).rejects.toThrow(/Invalid sandbox fixtures/);
  });

  it('accepts custom fixtures', async () => {
    const fixtures = loadDemoFixtures();
    fixtures.application.botToken = 'other-token';
    const { app } = await createSandbox({ fixtures });
    expect((await app.inject({ url: '/api/v10/users/@me', headers: { authorization: 'Bot other-token' } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/v10/users/@me', headers: { authorization: `Bot ${BOT_TOKEN}` } })).statusCode).toBe(401);
  });
});

describe('snowflakes', () => {
  it('encode the creation time and stay unique within a millisecond', () => {
    const at = Date.parse('2025-01-15T12:00:00Z');
    const next = createSnowflakeGenerator(() => at);
    const ids = Array.from({ length: 100 }, next);
    expect(new Set(ids).size).toBe(100);
    for (const id of ids) {
      expect(id).toMatch(/^\d{17,20}$/);
      expect(snowflakeTime(id)).toBe(at);
    }
    expect(snowflakeTime('0')).toBe(DISCORD_EPOCH);
  });
});
