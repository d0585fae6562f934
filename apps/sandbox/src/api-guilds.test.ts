import { ChannelType } from 'discord-api-types/v10';
import type { APIChannel, APIGuild, APIGuildMember, APIRole } from 'discord-api-types/v10';
import { beforeEach, describe, expect, it } from 'vitest';
import { BOT_ID, GUILDS, USERS, bearer, bot, loginAs, makeSandbox } from './test-support.ts';
import type { TestSandbox } from './test-support.ts';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});

const get = (url: string, headers: Record<string, string> = bot) => sb.app.inject({ url: `/api/v10${url}`, headers });

describe('GET /guilds/{id}', () => {
  it('returns the full guild with roles and emojis, counts on request', async () => {
    const res = await get(`/guilds/${GUILDS.pixelForge}?with_counts=true`);
    expect(res.statusCode).toBe(200);
    const guild: APIGuild = res.json();
    expect(guild).toMatchObject({ id: GUILDS.pixelForge, name: 'Pixel Forge', owner_id: USERS.alice, approximate_member_count: 19, approximate_presence_count: 8 });
    expect(guild.roles.find((r) => r.id === GUILDS.pixelForge)?.name).toBe('@everyone');
    expect(guild.roles.some((r) => r.managed && r.tags?.bot_id === BOT_ID)).toBe(true);
    expect(guild.emojis.some((e) => e.animated)).toBe(true);
    const plain: APIGuild = (await get(`/guilds/${GUILDS.pixelForge}`)).json();
    expect(plain).not.toHaveProperty('approximate_member_count');
  });

  it('hides a guild the bot is not in behind Unknown Guild, like a missing one', async () => {
    for (const id of [GUILDS.quietGarden, '1399999999999999999']) {
      const res = await get(`/guilds/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Unknown Guild', code: 10004 });
    }
  });

  it('answers Missing Access on sub-resources of a guild the bot is not in', async () => {
    for (const sub of ['channels', 'roles', 'emojis', 'members', `members/${USERS.chen}`, 'members/search?query=c']) {
      const res = await get(`/guilds/${GUILDS.quietGarden}/${sub}`);
      expect(res.statusCode, sub).toBe(403);
      expect(res.json()).toEqual({ message: 'Missing Access', code: 50001 });
    }
    expect((await get('/guilds/1399999999999999999/channels')).json().code).toBe(10004);
  });

  it('is bot-only', async () => {
    const { access_token } = await loginAs(sb.app, USERS.alice);
    const res = await get(`/guilds/${GUILDS.pixelForge}`, bearer(access_token));
    expect(res.statusCode).toBe(401);
  });
});

describe('channels, roles and emojis', () => {
  it('lists channels of every kind with guild_id, parents and overwrites', async () => {
    const channels: APIChannel[] = (await get(`/guilds/${GUILDS.pixelForge}/channels`)).json();
    const types = new Set<ChannelType>(channels.map((c) => c.type));
    for (const t of [ChannelType.GuildText, ChannelType.GuildVoice, ChannelType.GuildCategory, ChannelType.GuildAnnouncement, ChannelType.GuildForum, ChannelType.GuildStageVoice]) {
      expect(types.has(t)).toBe(true);
    }
    const categories = new Set(channels.filter((c) => c.type === ChannelType.GuildCategory).map((c) => c.id));
    for (const c of channels) {
      expect('guild_id' in c && c.guild_id).toBe(GUILDS.pixelForge);
      if ('parent_id' in c && c.parent_id) expect(categories.has(c.parent_id)).toBe(true);
    }
    const staff = channels.find((c) => 'name' in c && c.name === 'staff-room');
    expect(staff && 'permission_overwrites' in staff ? staff.permission_overwrites?.length : 0).toBe(3);
  });

  it('lists roles by position and serves single roles and emojis', async () => {
    const roles: APIRole[] = (await get(`/guilds/${GUILDS.studyHall}/roles`)).json();
    expect(roles.map((r) => r.position)).toEqual([...roles.map((r) => r.position)].sort((a, b) => a - b));
    expect(roles.find((r) => r.name === 'Server Manager')?.permissions).toBe('32');
    expect((await get(`/guilds/${GUILDS.studyHall}/roles/1300000000000000031`)).json().name).toBe('Server Manager');
    expect((await get(`/guilds/${GUILDS.studyHall}/roles/1300000000000000099`)).json()).toEqual({ message: 'Unknown Role', code: 10011 });
    const emojis = (await get(`/guilds/${GUILDS.pixelForge}/emojis`)).json();
    expect(emojis).toContainEqual(expect.objectContaining({ name: 'party_parrot', animated: true }));
    expect((await get(`/guilds/${GUILDS.pixelForge}/emojis/1300000000000000399`)).json().code).toBe(10014);
  });
});

describe('members', () => {
  it('gets one member, or Unknown Member / Unknown User', async () => {
    const dana: APIGuildMember = (await get(`/guilds/${GUILDS.pixelForge}/members/${USERS.dana}`)).json();
    expect(dana).toMatchObject({ nick: 'Dana | Support', roles: ['1300000000000000013', '1300000000000000015'], user: { id: USERS.dana } });
    const notMember = await get(`/guilds/${GUILDS.pixelForge}/members/${USERS.chen}`);
    expect(notMember.statusCode).toBe(404);
    expect(notMember.json()).toEqual({ message: 'Unknown Member', code: 10007 });
    expect((await get(`/guilds/${GUILDS.pixelForge}/members/1999999999999999999`)).json()).toEqual({ message: 'Unknown User', code: 10013 });
    const botMember: APIGuildMember = (await get(`/guilds/${GUILDS.pixelForge}/members/${BOT_ID}`)).json();
    expect(botMember.user.bot).toBe(true);
  });

  it('lists members by id with limit (default 1) and after', async () => {
    expect((await get(`/guilds/${GUILDS.pixelForge}/members`)).json()).toHaveLength(1);
    const all: APIGuildMember[] = (await get(`/guilds/${GUILDS.pixelForge}/members?limit=1000`)).json();
    expect(all).toHaveLength(19);
    const ids = all.map((m) => m.user.id);
    expect(ids).toEqual([...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
    const next: APIGuildMember[] = (await get(`/guilds/${GUILDS.pixelForge}/members?limit=5&after=${ids[4]}`)).json();
    expect(next.map((m) => m.user.id)).toEqual(ids.slice(5, 10));
    expect((await get(`/guilds/${GUILDS.pixelForge}/members?limit=1001`)).statusCode).toBe(400);
  });

  it('searches by prefix of username, global name or nick, case-insensitively', async () => {
    const search = async (query: string, limit = 10) =>
      ((await get(`/guilds/${GUILDS.pixelForge}/members/search?query=${encodeURIComponent(query)}&limit=${limit}`)).json() as APIGuildMember[]).map(
        (m) => m.user.username,
      );
    expect(await search('SAM')).toEqual(['sam', 'samira.k', 'samuel_b']);
    expect(await search('sam', 1)).toEqual(['sam']);
    expect(await search('Dana |')).toEqual(['dana_diaz']);
    expect(await search('alice a')).toEqual(['alice']);
    expect(await search('zzz')).toEqual([]);
    // Default limit is 1.
    expect(((await get(`/guilds/${GUILDS.pixelForge}/members/search?query=sam`)).json() as unknown[]).length).toBe(1);
    const missing = await get(`/guilds/${GUILDS.pixelForge}/members/search`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.query._errors[0].code).toBe('BASE_TYPE_REQUIRED');
  });
});
