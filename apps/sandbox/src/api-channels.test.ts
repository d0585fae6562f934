import type { APIMessage } from 'discord-api-types/v10';
import { beforeEach, describe, expect, it } from 'vitest';
import { snowflakeTime } from './snowflake.ts';
import { BOT_ID, CHANNELS, GUILDS, USERS, bearer, bot, loginAs, makeSandbox } from './test-support.ts';
import type { TestSandbox } from './test-support.ts';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});

const post = (channelId: string, payload: unknown) =>
  sb.app.inject({ method: 'POST', url: `/api/v10/channels/${channelId}/messages`, headers: bot, payload: payload as object });

const ticketPanel = {
  content: 'Need help? Open a ticket.',
  embeds: [{ title: 'Support', description: 'Press the button', color: 0x5865f2, fields: [{ name: 'Hours', value: '9–17' }] }],
  components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Open ticket', custom_id: 'ticket:open' }] }],
};

describe('GET /channels/{id}', () => {
  it('returns the channel with its guild id', async () => {
    const res = await sb.app.inject({ url: `/api/v10/channels/${CHANNELS.openTicket}`, headers: bot });
    expect(res.json()).toMatchObject({ id: CHANNELS.openTicket, type: 0, name: 'open-a-ticket', guild_id: GUILDS.pixelForge, parent_id: '1300000000000000104' });
  });

  it('distinguishes unknown channels from hidden ones', async () => {
    expect((await sb.app.inject({ url: '/api/v10/channels/1399999999999999999', headers: bot })).json()).toEqual({ message: 'Unknown Channel', code: 10003 });
    const hidden = await sb.app.inject({ url: `/api/v10/channels/${CHANNELS.modLog}`, headers: bot });
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json()).toEqual({ message: 'Missing Access', code: 50001 });
    expect((await sb.app.inject({ url: `/api/v10/channels/${CHANNELS.gardenGeneral}`, headers: bot })).statusCode).toBe(403);
    // Overwrites let the bot into the staff room even though @everyone is denied.
    expect((await sb.app.inject({ url: `/api/v10/channels/${CHANNELS.staffRoom}`, headers: bot })).statusCode).toBe(200);
  });
});

describe('POST /channels/{id}/messages', () => {
  it('stores and returns a Discord-shaped message authored by the bot', async () => {
    const res = await post(CHANNELS.openTicket, ticketPanel);
    expect(res.statusCode).toBe(200);
    const message: APIMessage = res.json();
    expect(message).toMatchObject({
      type: 0,
      channel_id: CHANNELS.openTicket,
      content: ticketPanel.content,
      author: { id: BOT_ID, bot: true },
      edited_timestamp: null,
      pinned: false,
      tts: false,
      mention_everyone: false,
      attachments: [],
      timestamp: '2025-01-15T12:00:00.000000+00:00',
    });
    expect(message.embeds[0]).toMatchObject({ type: 'rich', title: 'Support', fields: [{ name: 'Hours', value: '9–17', inline: false }] });
    expect(message.components?.[0]).toMatchObject({ type: 1, id: 1, components: [{ type: 2, custom_id: 'ticket:open', id: 2 }] });
    expect(snowflakeTime(message.id)).toBe(sb.clock.now);
    const again = await sb.app.inject({ url: `/api/v10/channels/${CHANNELS.openTicket}/messages/${message.id}`, headers: bot });
    expect(again.json()).toEqual(message);
  });

  it('gives each message a distinct, increasing snowflake', async () => {
    const a: APIMessage = (await post(CHANNELS.general, { content: 'a' })).json();
    const b: APIMessage = (await post(CHANNELS.general, { content: 'b' })).json();
    expect(BigInt(b.id)).toBeGreaterThan(BigInt(a.id));
  });

  it('resolves mentions, honouring allowed_mentions', async () => {
    const content = `<@${USERS.alice}> <@&1300000000000000013> @everyone`;
    const all: APIMessage = (await post(CHANNELS.general, { content })).json();
    expect(all.mentions.map((u) => u.id)).toEqual([USERS.alice]);
    expect(all.mention_roles).toEqual(['1300000000000000013']);
    expect(all.mention_everyone).toBe(true);
    const none: APIMessage = (await post(CHANNELS.general, { content, allowed_mentions: { parse: [] } })).json();
    expect(none.mentions).toEqual([]);
    expect(none.mention_roles).toEqual([]);
    expect(none.mention_everyone).toBe(false);
    const exclusive = await post(CHANNELS.general, { content, allowed_mentions: { parse: ['users'], users: [USERS.alice] } });
    expect(exclusive.statusCode).toBe(400);
    expect(exclusive.json().errors.allowed_mentions._errors[0].code).toBe('MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE');
  });

  it('refuses an empty message with 50006', async () => {
    for (const payload of [{}, { content: '' }, { content: '   ' }, { embeds: [] }]) {
      const res = await post(CHANNELS.general, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Cannot send an empty message', code: 50006 });
    }
  });

  it('refuses content over 2000 characters with Invalid Form Body', async () => {
    const res = await post(CHANNELS.general, { content: 'x'.repeat(2001) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Invalid Form Body',
      code: 50035,
      errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } },
    });
    expect((await post(CHANNELS.general, { content: 'x'.repeat(2000) })).statusCode).toBe(200);
  });

  it('reports every invalid embed and component field at once', async () => {
    const res = await post(CHANNELS.general, {
      embeds: [{ title: 't'.repeat(257), fields: [{ name: 'n' }] }],
      components: [{ type: 1, components: [{ type: 2, style: 1, label: 'A' }, { type: 2, style: 5, label: 'B' }] }],
    });
    expect(res.statusCode).toBe(400);
    const { errors } = res.json();
    expect(errors.embeds['0'].title._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    expect(errors.embeds['0'].fields['0'].value._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    expect(errors.components['0'].components['0'].custom_id._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    expect(errors.components['0'].components['1'].url._errors[0].code).toBe('BASE_TYPE_REQUIRED');
  });

  it('refuses malformed JSON with 50109', async () => {
    const res = await sb.app.inject({
      method: 'POST',
      url: `/api/v10/channels/${CHANNELS.general}/messages`,
      headers: { ...bot, 'content-type': 'application/json' },
      payload: '{"content":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request body contains invalid JSON.', code: 50109 });
  });

  it('answers channel errors like Discord', async () => {
    expect((await post('1399999999999999999', { content: 'x' })).json()).toEqual({ message: 'Unknown Channel', code: 10003 });
    for (const id of [CHANNELS.infoCategory, CHANNELS.helpForum]) {
      const res = await post(id, { content: 'x' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Cannot send messages in a non-text channel', code: 50008 });
    }
    expect((await post(CHANNELS.lounge, { content: 'text in voice is allowed' })).statusCode).toBe(200);
    const denied = await post(CHANNELS.ticketArchive, { content: 'x' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ message: 'Missing Permissions', code: 50013 });
    expect((await post(CHANNELS.modLog, { content: 'x' })).json()).toEqual({ message: 'Missing Access', code: 50001 });
    expect((await post(CHANNELS.gardenGeneral, { content: 'x' })).json()).toEqual({ message: 'Missing Access', code: 50001 });
  });

  it('is bot-only', async () => {
    const { access_token } = await loginAs(sb.app, USERS.alice);
    const res = await sb.app.inject({ method: 'POST', url: `/api/v10/channels/${CHANNELS.general}/messages`, headers: bearer(access_token), payload: { content: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('editing and deleting messages', () => {
  it('edits content, sets edited_timestamp and keeps the previous revision', async () => {
    const original: APIMessage = (await post(CHANNELS.openTicket, ticketPanel)).json();
    sb.clock.advance(5000);
    const res = await sb.app.inject({
      method: 'PATCH',
      url: `/api/v10/channels/${CHANNELS.openTicket}/messages/${original.id}`,
      headers: bot,
      payload: { content: 'Tickets are closed for today.', components: [] },
    });
    expect(res.statusCode).toBe(200);
    const edited: APIMessage = res.json();
    expect(edited).toMatchObject({ id: original.id, content: 'Tickets are closed for today.', components: [], timestamp: original.timestamp });
    expect(edited.edited_timestamp).toBe('2025-01-15T12:00:05.000000+00:00');
    expect(edited.embeds).toHaveLength(1);

    const recorded = (await sb.app.inject({ url: `/_sandbox/messages?channelId=${CHANNELS.openTicket}` })).json().messages;
    expect(recorded).toHaveLength(1);
    expect(recorded[0].revisions).toHaveLength(1);
    expect(recorded[0].revisions[0].content).toBe(ticketPanel.content);
  });

  it('validates edits and refuses one that would leave the message empty', async () => {
    const message: APIMessage = (await post(CHANNELS.general, { content: 'hi' })).json();
    const url = `/api/v10/channels/${CHANNELS.general}/messages/${message.id}`;
    const tooLong = await sb.app.inject({ method: 'PATCH', url, headers: bot, payload: { content: 'x'.repeat(2001) } });
    expect(tooLong.json().code).toBe(50035);
    const empty = await sb.app.inject({ method: 'PATCH', url, headers: bot, payload: { content: null } });
    expect(empty.json()).toEqual({ message: 'Cannot send an empty message', code: 50006 });
  });

  it('deletes with 204, then answers Unknown Message; the record stays flagged', async () => {
    const message: APIMessage = (await post(CHANNELS.general, { content: 'bye' })).json();
    const url = `/api/v10/channels/${CHANNELS.general}/messages/${message.id}`;
    const del = await sb.app.inject({ method: 'DELETE', url, headers: bot });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await sb.app.inject({ method, url, headers: bot, ...(method === 'PATCH' ? { payload: { content: 'x' } } : {}) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Unknown Message', code: 10008 });
    }
    const list: APIMessage[] = (await sb.app.inject({ url: `/api/v10/channels/${CHANNELS.general}/messages`, headers: bot })).json();
    expect(list.find((m) => m.id === message.id)).toBeUndefined();
    const recorded = (await sb.app.inject({ url: `/_sandbox/messages?channelId=${CHANNELS.general}` })).json().messages;
    expect(recorded[0]).toMatchObject({ id: message.id, deleted: true, deletedAt: expect.any(String) });
    const visible = (await sb.app.inject({ url: `/_sandbox/messages?channelId=${CHANNELS.general}&includeDeleted=false` })).json().messages;
    expect(visible).toEqual([]);
  });

  it('lists messages newest first with limit, before and after', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      sb.clock.advance(1000);
      ids.push(((await post(CHANNELS.general, { content: `m${i}` })).json() as APIMessage).id);
    }
    const list = async (query: string) =>
      ((await sb.app.inject({ url: `/api/v10/channels/${CHANNELS.general}/messages${query}`, headers: bot })).json() as APIMessage[]).map((m) => m.id);
    expect(await list('')).toEqual([...ids].reverse());
    expect(await list('?limit=2')).toEqual([ids[4], ids[3]]);
    expect(await list(`?limit=2&before=${ids[3]}`)).toEqual([ids[2], ids[1]]);
    expect(await list(`?limit=2&after=${ids[1]}`)).toEqual([ids[3], ids[2]]);
    expect(await list(`?limit=3&around=${ids[2]}`)).toEqual([ids[3], ids[2], ids[1]]);
  });

  it('replies carry message_reference and referenced_message', async () => {
    const first: APIMessage = (await post(CHANNELS.general, { content: 'question' })).json();
    const reply: APIMessage = (await post(CHANNELS.general, { content: 'answer', message_reference: { message_id: first.id } })).json();
    expect(reply.type).toBe(19);
    expect(reply.message_reference).toMatchObject({ message_id: first.id, channel_id: CHANNELS.general, guild_id: GUILDS.pixelForge });
    expect(reply.referenced_message?.id).toBe(first.id);
    const dangling = await post(CHANNELS.general, { content: 'x', message_reference: { message_id: '1399999999999999999' } });
    expect(dangling.json().code).toBe(50035);
  });
});
