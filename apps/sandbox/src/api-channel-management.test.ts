import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { APIChannel, APITextChannel } from 'discord-api-types/v10';
import { beforeEach, describe, expect, it } from 'vitest';
import { BOT_ID, CHANNELS, GUILDS, USERS, bearer, bot, loginAs, makeSandbox } from './test-support.ts';
import type { TestSandbox } from './test-support.ts';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});

const SUPPORT_CATEGORY = '1300000000000000104';
const STUDY_TICKETS_CATEGORY = '1300000000000000607';
const SUPPORT_STAFF_ROLE = '1300000000000000013';
const VIEW_AND_SEND = (PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages).toString();

const create = (payload: unknown, guildId: string = GUILDS.pixelForge, headers: Record<string, string> = bot) =>
  sb.app.inject({ method: 'POST', url: `/api/v10/guilds/${guildId}/channels`, headers, payload: payload as object });
const formError = (res: { json(): { errors: Record<string, unknown> } }, ...path: string[]) => {
  let node: unknown = res.json().errors;
  for (const key of path) node = (node as Record<string, unknown>)[key];
  return (node as { _errors: { code: string; message: string }[] })._errors[0]!;
};

describe('POST /guilds/{id}/channels', () => {
  it('creates a text channel in a category, Discord-shaped, and tracks that the bot made it', async () => {
    const res = await create({
      name: '  Ticket Alice #001! ',
      type: 0,
      parent_id: SUPPORT_CATEGORY,
      topic: 'Alice needs help',
      permission_overwrites: [
        { id: GUILDS.pixelForge, type: 0, deny: String(PermissionFlagsBits.ViewChannel) },
        { id: USERS.alice, type: 1, allow: VIEW_AND_SEND },
        { id: BOT_ID, type: 1, allow: VIEW_AND_SEND },
      ],
    });
    expect(res.statusCode).toBe(201);
    const channel: APITextChannel = res.json();
    expect(channel).toMatchObject({
      type: 0,
      name: 'ticket-alice-001',
      guild_id: GUILDS.pixelForge,
      parent_id: SUPPORT_CATEGORY,
      topic: 'Alice needs help',
      nsfw: false,
      rate_limit_per_user: 0,
      last_message_id: null,
      flags: 0,
      permission_overwrites: [
        { id: GUILDS.pixelForge, type: 0, allow: '0', deny: '1024' },
        { id: USERS.alice, type: 1, allow: VIEW_AND_SEND, deny: '0' },
        { id: BOT_ID, type: 1, allow: VIEW_AND_SEND, deny: '0' },
      ],
    });
    expect(channel.id).toMatch(/^\d{17,20}$/);
    expect(channel.position).toBeGreaterThan(11);

    const listed: APIChannel[] = (await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.pixelForge}/channels`, headers: bot })).json();
    expect(listed.map((c) => c.id)).toContain(channel.id);
    expect((await sb.app.inject({ url: `/api/v10/channels/${channel.id}`, headers: bot })).json()).toEqual(channel);
    const posted = await sb.app.inject({ method: 'POST', url: `/api/v10/channels/${channel.id}/messages`, headers: bot, payload: { content: 'Welcome!' } });
    expect(posted.statusCode).toBe(200);

    const state = (await sb.app.inject({ url: '/_sandbox/state' })).json();
    const pixel = state.guilds.find((g: { id: string }) => g.id === GUILDS.pixelForge);
    expect(pixel.channels.find((c: { id: string }) => c.id === channel.id)).toMatchObject({ createdByBot: true, parentId: SUPPORT_CATEGORY });
    expect(pixel.channels.find((c: { id: string }) => c.id === CHANNELS.general).createdByBot).toBe(false);
  });

  it('normalises text channel names as Discord does and keeps category names as typed', async () => {
    const name = async (payload: object) => ((await create(payload)).json() as APIChannel).name;
    expect(await name({ name: 'Café  Ünïcode\tTime', type: 0 })).toBe('café-ünïcode-time');
    expect(await name({ name: 'under_score-dash', type: 0 })).toBe('under_score-dash');
    expect(await name({ name: 'News: Big Day!', type: 5 })).toBe('news-big-day');
    expect(await name({ name: 'Open Tickets', type: 4 })).toBe('Open Tickets');
    expect(await name({ name: 'Defaults To Text' })).toBe('defaults-to-text');
  });

  it('refuses bad names and types with Invalid Form Body', async () => {
    const symbols = await create({ name: '!!!', type: 0 });
    expect(symbols.statusCode).toBe(400);
    expect(symbols.json()).toEqual({
      message: 'Invalid Form Body',
      code: 50035,
      errors: { name: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }] } },
    });
    expect(formError(await create({ type: 0 }), 'name').code).toBe('BASE_TYPE_REQUIRED');
    expect(formError(await create({ name: 'x'.repeat(101) }), 'name').code).toBe('BASE_TYPE_BAD_LENGTH');
    expect((await create({ name: 'x'.repeat(100) })).statusCode).toBe(201);
    expect(formError(await create({ name: 'voice', type: 2 }), 'type')).toEqual({ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {0, 4, 5}.' });
    expect(formError(await create({ name: 'topic', topic: 't'.repeat(1025) }), 'topic').code).toBe('BASE_TYPE_MAX_LENGTH');
  });

  it('checks parent_id: an existing category of this guild with room', async () => {
    expect(formError(await create({ name: 'a', parent_id: '1399999999999999999' }), 'parent_id')).toEqual({ code: 'CHANNEL_PARENT_INVALID', message: 'Category does not exist' });
    expect(formError(await create({ name: 'a', parent_id: CHANNELS.general }), 'parent_id')).toEqual({ code: 'CHANNEL_PARENT_INVALID_TYPE', message: 'Not a category' });
    // A category of another guild is not a category of this one.
    expect(formError(await create({ name: 'a', parent_id: STUDY_TICKETS_CATEGORY }), 'parent_id').code).toBe('CHANNEL_PARENT_INVALID');
    expect(formError(await create({ name: 'nested', type: 4, parent_id: SUPPORT_CATEGORY }), 'parent_id').code).toBe('CHANNEL_PARENT_INVALID_TYPE');

    const category: APIChannel = (await create({ name: 'Tickets', type: 4 })).json();
    for (let i = 0; i < 50; i += 1) expect((await create({ name: `ticket-${i}`, parent_id: category.id })).statusCode).toBe(201);
    const full = await create({ name: 'ticket-50', parent_id: category.id });
    expect(full.statusCode).toBe(400);
    expect(full.json()).toEqual({
      message: 'Invalid Form Body',
      code: 50035,
      errors: { parent_id: { _errors: [{ code: 'CHANNEL_PARENT_MAX_CHANNELS', message: 'Maximum number of channels in category reached (50)' }] } },
    });
  });

  it('checks overwrite targets and refuses grants the bot does not hold', async () => {
    const unknown = await create({
      name: 'a',
      permission_overwrites: [
        { id: '1399999999999999999', type: 0, allow: '1024' },
        { id: USERS.chen, type: 1, allow: '1024' },
        { id: USERS.alice, type: 2 },
      ],
    });
    expect(unknown.statusCode).toBe(400);
    expect(formError(unknown, 'permission_overwrites', '0', 'id')).toEqual({ code: 'UNKNOWN_ROLE', message: 'Unknown Role' });
    // Chen is not in Pixel Forge, so there is no member to overwrite.
    expect(formError(unknown, 'permission_overwrites', '1', 'id')).toEqual({ code: 'UNKNOWN_MEMBER', message: 'Unknown Member' });
    expect(formError(unknown, 'permission_overwrites', '2', 'type').code).toBe('BASE_TYPE_CHOICES');

    for (const bits of [PermissionFlagsBits.BanMembers, PermissionFlagsBits.ManageRoles]) {
      const res = await create({ name: 'escalate', permission_overwrites: [{ id: SUPPORT_STAFF_ROLE, type: 0, allow: String(bits) }] });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Missing Permissions', code: 50013 });
    }
    // An administrator bot may hand out anything.
    await sb.app.inject({ method: 'POST', url: `/_sandbox/guilds/${GUILDS.pixelForge}/bot`, payload: { member: true, permissions: '8' } });
    expect((await create({ name: 'admin', permission_overwrites: [{ id: SUPPORT_STAFF_ROLE, type: 0, allow: String(PermissionFlagsBits.ManageRoles) }] })).statusCode).toBe(201);
  });

  it('lets a bot lock itself out of a channel, as Discord does when it forgets its own overwrite', async () => {
    const res = await create({ name: 'hidden', permission_overwrites: [{ id: GUILDS.pixelForge, type: 0, deny: '1024' }] });
    expect(res.statusCode).toBe(201);
    expect((await sb.app.inject({ url: `/api/v10/channels/${res.json().id}`, headers: bot })).json()).toEqual({ message: 'Missing Access', code: 50001 });
  });

  it('starts a channel synced with its category when no overwrites are given', async () => {
    const res = await create({ name: 'ticket-dana', parent_id: STUDY_TICKETS_CATEGORY }, GUILDS.studyHall);
    expect(res.statusCode).toBe(201);
    const category = (await sb.app.inject({ url: `/api/v10/channels/${STUDY_TICKETS_CATEGORY}`, headers: bot })).json();
    expect(res.json().permission_overwrites).toEqual(category.permission_overwrites);
  });

  it('answers permission and access errors like Discord', async () => {
    await sb.app.inject({ method: 'POST', url: `/_sandbox/guilds/${GUILDS.pixelForge}/bot`, payload: { member: true, permissions: String(PermissionFlagsBits.ViewChannel) } });
    const denied = await create({ name: 'nope' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ message: 'Missing Permissions', code: 50013 });
    expect((await create({ name: 'x' }, GUILDS.quietGarden)).json()).toEqual({ message: 'Missing Access', code: 50001 });
    expect((await create({ name: 'x' }, '1399999999999999999')).json()).toEqual({ message: 'Unknown Guild', code: 10004 });
    const { access_token } = await loginAs(sb.app, USERS.alice);
    expect((await create({ name: 'x' }, GUILDS.pixelForge, bearer(access_token))).statusCode).toBe(401);
  });

  it('respects the fault switch and shows in the request log', async () => {
    await sb.app.inject({ method: 'POST', url: '/_sandbox/faults', payload: { status: 503, pathPattern: '/guilds/\\d+/channels$', method: 'POST' } });
    expect((await create({ name: 'x' })).statusCode).toBe(503);
    expect((await create({ name: 'x' })).statusCode).toBe(201);
    const log = (await sb.app.inject({ url: '/_sandbox/requests?method=POST' })).json().requests;
    expect(log.map((r: { status: number; route: string }) => [r.status, r.route])).toEqual([
      [503, '/api/v10/guilds/:guildId/channels'],
      [201, '/api/v10/guilds/:guildId/channels'],
    ]);
    expect(log[0]).toMatchObject({ auth: 'bot', fault: 503 });
  });
});

describe('PATCH and DELETE /channels/{id}', () => {
  it('renames (normalised), moves, sets the topic and replaces overwrites', async () => {
    const channel: APIChannel = (await create({ name: 'ticket-1', parent_id: SUPPORT_CATEGORY })).json();
    const url = `/api/v10/channels/${channel.id}`;
    const res = await sb.app.inject({
      method: 'PATCH',
      url,
      headers: bot,
      payload: { name: 'Closed Ticket 1', parent_id: null, topic: 'closed', permission_overwrites: [{ id: SUPPORT_STAFF_ROLE, type: 0, allow: '1024' }] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'closed-ticket-1', parent_id: null, topic: 'closed', permission_overwrites: [{ id: SUPPORT_STAFF_ROLE, allow: '1024' }] });
    expect((await sb.app.inject({ url, headers: bot })).json().name).toBe('closed-ticket-1');
    const bad = await sb.app.inject({ method: 'PATCH', url, headers: bot, payload: { parent_id: CHANNELS.general } });
    expect(formError(bad, 'parent_id').code).toBe('CHANNEL_PARENT_INVALID_TYPE');
    const synced = await sb.app.inject({ method: 'PATCH', url, headers: bot, payload: { parent_id: SUPPORT_CATEGORY, lock_permissions: true } });
    expect(synced.json()).toMatchObject({ parent_id: SUPPORT_CATEGORY, permission_overwrites: [] });
  });

  it('deletes a channel, answering it; afterwards it is an Unknown Channel', async () => {
    const category: APIChannel = (await create({ name: 'Old', type: 4 })).json();
    const child: APIChannel = (await create({ name: 'child', parent_id: category.id })).json();
    const del = await sb.app.inject({ method: 'DELETE', url: `/api/v10/channels/${category.id}`, headers: bot });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ id: category.id, type: 4, name: 'Old' });
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await sb.app.inject({ method, url: `/api/v10/channels/${category.id}`, headers: bot, ...(method === 'PATCH' ? { payload: { name: 'x' } } : {}) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Unknown Channel', code: 10003 });
    }
    // Its channels stay, uncategorised, as on Discord.
    expect((await sb.app.inject({ url: `/api/v10/channels/${child.id}`, headers: bot })).json().parent_id).toBeNull();
  });

  it('needs Manage Channels', async () => {
    await sb.app.inject({ method: 'POST', url: `/_sandbox/guilds/${GUILDS.pixelForge}/bot`, payload: { member: true, permissions: String(PermissionFlagsBits.ViewChannel) } });
    for (const method of ['PATCH', 'DELETE'] as const) {
      const res = await sb.app.inject({ method, url: `/api/v10/channels/${CHANNELS.general}`, headers: bot, ...(method === 'PATCH' ? { payload: { name: 'x' } } : {}) });
      expect(res.json()).toEqual({ message: 'Missing Permissions', code: 50013 });
    }
  });
});

describe('channel permission overwrites', () => {
  it('puts and deletes one overwrite with 204, changing what a member can see', async () => {
    const channel: APIChannel = (
      await create({
        name: 'private',
        permission_overwrites: [
          { id: GUILDS.pixelForge, type: 0, deny: '1024' },
          { id: BOT_ID, type: 1, allow: VIEW_AND_SEND },
        ],
      })
    ).json();
    const url = `/api/v10/channels/${channel.id}/permissions/${USERS.eli}`;
    const eliSees = () => {
      const guild = sb.state.guilds.get(GUILDS.pixelForge)!;
      const found = sb.state.findChannel(channel.id)!;
      return (sb.state.memberChannelPermissions(guild, found.channel, USERS.eli) & PermissionFlagsBits.ViewChannel) !== 0n;
    };
    expect(eliSees()).toBe(false);
    const put = await sb.app.inject({ method: 'PUT', url, headers: bot, payload: { type: 1, allow: VIEW_AND_SEND, deny: '0' } });
    expect(put.statusCode).toBe(204);
    expect(put.body).toBe('');
    expect(eliSees()).toBe(true);
    expect((await sb.app.inject({ url: `/api/v10/channels/${channel.id}`, headers: bot })).json().permission_overwrites).toContainEqual({
      id: USERS.eli,
      type: 1,
      allow: VIEW_AND_SEND,
      deny: '0',
    });
    const del = await sb.app.inject({ method: 'DELETE', url, headers: bot });
    expect(del.statusCode).toBe(204);
    expect(eliSees()).toBe(false);
  });

  it('validates the overwrite and its target', async () => {
    const base = `/api/v10/channels/${CHANNELS.general}/permissions`;
    expect((await sb.app.inject({ method: 'PUT', url: `${base}/1399999999999999999`, headers: bot, payload: { type: 0, allow: '1024' } })).json()).toEqual({
      message: 'Unknown Role',
      code: 10011,
    });
    expect((await sb.app.inject({ method: 'PUT', url: `${base}/${USERS.chen}`, headers: bot, payload: { type: 1, allow: '1024' } })).json()).toEqual({
      message: 'Unknown Member',
      code: 10007,
    });
    const badType = await sb.app.inject({ method: 'PUT', url: `${base}/${USERS.eli}`, headers: bot, payload: { type: 3 } });
    expect(badType.statusCode).toBe(400);
    expect(formError(badType, 'type').code).toBe('BASE_TYPE_CHOICES');
    const escalate = await sb.app.inject({ method: 'PUT', url: `${base}/${USERS.eli}`, headers: bot, payload: { type: 1, allow: String(PermissionFlagsBits.Administrator) } });
    expect(escalate.json()).toEqual({ message: 'Missing Permissions', code: 50013 });
  });
});
