import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { RESTGetAPICurrentUserGuildsResult } from 'discord-api-types/v10';
import { beforeEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from './permissions.ts';
import { BOT_ID, GUILDS, USERS, bearer, bot, loginAs, makeSandbox } from './test-support.ts';
import type { TestSandbox } from './test-support.ts';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});

async function guildsOf(userId: string, query = ''): Promise<RESTGetAPICurrentUserGuildsResult> {
  const { access_token } = await loginAs(sb.app, userId);
  const res = await sb.app.inject({ url: `/api/v10/users/@me/guilds${query}`, headers: bearer(access_token) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const has = (permissions: string, bit: bigint) => (BigInt(permissions) & bit) === bit;

describe('GET /users/@me/guilds with a Bearer token', () => {
  it('gives the owner every permission bit and owner: true', async () => {
    const guilds = await guildsOf(USERS.alice);
    const pixel = guilds.find((g) => g.id === GUILDS.pixelForge)!;
    expect(pixel).toEqual({
      id: GUILDS.pixelForge,
      name: 'Pixel Forge',
      icon: expect.any(String),
      banner: expect.any(String),
      owner: true,
      permissions: ALL_PERMISSIONS.toString(),
      features: expect.arrayContaining(['COMMUNITY']),
    });
    // Plain member of Night Owls: the @everyone permissions only.
    const owls = guilds.find((g) => g.id === GUILDS.nightOwls)!;
    expect(owls.owner).toBe(false);
    expect(has(owls.permissions, PermissionFlagsBits.ManageGuild)).toBe(false);
    expect(has(owls.permissions, PermissionFlagsBits.SendMessages)).toBe(true);
  });

  it('expands ADMINISTRATOR to every bit for a non-owner admin', async () => {
    const guilds = await guildsOf(USERS.bruno);
    const pixel = guilds.find((g) => g.id === GUILDS.pixelForge)!;
    expect(pixel.owner).toBe(false);
    expect(pixel.permissions).toBe(ALL_PERMISSIONS.toString());
    expect(guilds.find((g) => g.id === GUILDS.nightOwls)!.owner).toBe(true);
  });

  it('gives MANAGE_GUILD without ADMINISTRATOR to the Study Hall manager', async () => {
    const guilds = await guildsOf(USERS.chen);
    const study = guilds.find((g) => g.id === GUILDS.studyHall)!;
    expect(has(study.permissions, PermissionFlagsBits.ManageGuild)).toBe(true);
    expect(has(study.permissions, PermissionFlagsBits.Administrator)).toBe(false);
    // Chen also owns the guild the bot has not joined: users see guilds the bot cannot.
    expect(guilds.find((g) => g.id === GUILDS.quietGarden)).toMatchObject({ owner: true, permissions: ALL_PERMISSIONS.toString() });
  });

  it('gives staff neither admin nor manage-guild', async () => {
    const guilds = await guildsOf(USERS.dana);
    expect(guilds.map((g) => g.id).sort()).toEqual([GUILDS.pixelForge, GUILDS.studyHall]);
    for (const g of guilds) {
      expect(has(g.permissions, PermissionFlagsBits.ManageGuild)).toBe(false);
      expect(has(g.permissions, PermissionFlagsBits.Administrator)).toBe(false);
      expect(has(g.permissions, PermissionFlagsBits.ManageMessages)).toBe(true);
    }
  });

  it('lists every guild of a plain member, including the bot-less one', async () => {
    const guilds = await guildsOf(USERS.eli);
    expect(guilds.map((g) => g.id)).toEqual([GUILDS.pixelForge, GUILDS.nightOwls, GUILDS.studyHall, GUILDS.quietGarden]);
    for (const g of guilds) expect(has(g.permissions, PermissionFlagsBits.ManageGuild)).toBe(false);
  });

  it('pages with limit/after/before and adds counts on request', async () => {
    const page1 = await guildsOf(USERS.eli, '?limit=2');
    expect(page1.map((g) => g.id)).toEqual([GUILDS.pixelForge, GUILDS.nightOwls]);
    expect(page1[0]).not.toHaveProperty('approximate_member_count');
    const page2 = await guildsOf(USERS.eli, `?limit=2&after=${GUILDS.nightOwls}&with_counts=true`);
    expect(page2.map((g) => g.id)).toEqual([GUILDS.studyHall, GUILDS.quietGarden]);
    // Nine people plus the two bots (the main one and Study Buddy, its white-label one), which count as members as on Discord.
    expect(page2[0]).toMatchObject({ approximate_member_count: 11, approximate_presence_count: 5 });
    const before = await guildsOf(USERS.eli, `?limit=1&before=${GUILDS.studyHall}`);
    expect(before.map((g) => g.id)).toEqual([GUILDS.nightOwls]);
  });

  it('validates limit like Discord', async () => {
    const { access_token } = await loginAs(sb.app, USERS.eli);
    const res = await sb.app.inject({ url: '/api/v10/users/@me/guilds?limit=201', headers: bearer(access_token) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Invalid Form Body',
      code: 50035,
      errors: { limit: { _errors: [{ code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 200.' }] } },
    });
  });

  it('needs the guilds scope', async () => {
    const { access_token } = await loginAs(sb.app, USERS.eli, 'identify');
    const res = await sb.app.inject({ url: '/api/v10/users/@me/guilds', headers: bearer(access_token) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: '401: Unauthorized', code: 0 });
  });
});

describe('GET /users/@me', () => {
  it('hides the email without the email scope', async () => {
    const { access_token } = await loginAs(sb.app, USERS.alice, 'identify');
    const me = (await sb.app.inject({ url: '/api/v10/users/@me', headers: bearer(access_token) })).json();
    expect(me).toMatchObject({ id: USERS.alice, locale: 'en-US', discriminator: '0' });
    expect(me).not.toHaveProperty('email');
  });

  it('answers the bot user for a Bot token', async () => {
    const me = (await sb.app.inject({ url: '/api/v10/users/@me', headers: bot })).json();
    expect(me).toMatchObject({ id: BOT_ID, username: 'Ticket Bot', bot: true });
  });

  it('answers 401 without or with a bad Authorization header', async () => {
    for (const headers of [{}, { authorization: 'Bot wrong' }, { authorization: 'Bearer wrong' }, { authorization: 'sandbox-bot-token' }]) {
      const res = await sb.app.inject({ url: '/api/v10/users/@me', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    }
  });
});

describe('GET /users/@me/guilds/{guild.id}/member', () => {
  it('returns the member object, also in a guild the bot is not in', async () => {
    const { access_token } = await loginAs(sb.app, USERS.chen, 'identify guilds guilds.members.read');
    const res = await sb.app.inject({ url: `/api/v10/users/@me/guilds/${GUILDS.quietGarden}/member`, headers: bearer(access_token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      user: { id: USERS.chen, username: 'chen.wei' },
      roles: ['1300000000000000041'],
      joined_at: '2024-03-03T03:03:03.000000+00:00',
      deaf: false,
      mute: false,
      flags: 0,
    });
    const study = (await sb.app.inject({ url: `/api/v10/users/@me/guilds/${GUILDS.studyHall}/member`, headers: bearer(access_token) })).json();
    expect(study.nick).toBe('Chen (Mgmt)');
  });

  it('answers Unknown Guild for a guild the user is not in', async () => {
    const { access_token } = await loginAs(sb.app, USERS.dana, 'identify guilds.members.read');
    const res = await sb.app.inject({ url: `/api/v10/users/@me/guilds/${GUILDS.nightOwls}/member`, headers: bearer(access_token) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Unknown Guild', code: 10004 });
  });

  it('needs the guilds.members.read scope and a user token', async () => {
    const { access_token } = await loginAs(sb.app, USERS.dana, 'identify guilds');
    expect((await sb.app.inject({ url: `/api/v10/users/@me/guilds/${GUILDS.pixelForge}/member`, headers: bearer(access_token) })).statusCode).toBe(401);
    expect((await sb.app.inject({ url: `/api/v10/users/@me/guilds/${GUILDS.pixelForge}/member`, headers: bot })).statusCode).toBe(401);
  });
});

describe('bot scoping', () => {
  it('lists only the guilds the bot is in, with the bot role permissions', async () => {
    const guilds: RESTGetAPICurrentUserGuildsResult = (await sb.app.inject({ url: '/api/v10/users/@me/guilds', headers: bot })).json();
    expect(guilds.map((g) => g.id)).toEqual([GUILDS.pixelForge, GUILDS.nightOwls, GUILDS.studyHall]);
    expect(guilds.every((g) => !g.owner && has(g.permissions, PermissionFlagsBits.SendMessages))).toBe(true);
  });

  it('GET /users/{id} is bot-only and knows every user', async () => {
    const ok = await sb.app.inject({ url: `/api/v10/users/${USERS.eli}`, headers: bot });
    expect(ok.json()).toMatchObject({ id: USERS.eli, username: 'eli', global_name: null });
    expect(ok.json()).not.toHaveProperty('email');
    const unknown = await sb.app.inject({ url: '/api/v10/users/1999999999999999999', headers: bot });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Unknown User', code: 10013 });
    const notSnowflake = await sb.app.inject({ url: '/api/v10/users/abc', headers: bot });
    expect(notSnowflake.statusCode).toBe(400);
    expect(notSnowflake.json().code).toBe(50035);
    const { access_token } = await loginAs(sb.app, USERS.eli);
    expect((await sb.app.inject({ url: `/api/v10/users/${USERS.eli}`, headers: bearer(access_token) })).statusCode).toBe(401);
  });
});
