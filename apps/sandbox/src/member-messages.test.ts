import type { APIChannel, APIMessage } from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEndpoint } from './test-endpoint.ts';
import type { TestEndpoint } from './test-endpoint.ts';
import { BOT_ID, CHANNELS, GUILDS, USERS, bot, makeSandbox } from './test-support.ts';
import type { TestSandbox } from './test-support.ts';

let sb: TestSandbox;
let ticketApi: TestEndpoint;
beforeEach(async () => {
  sb = await makeSandbox();
  ticketApi = await startEndpoint(() => ({ status: 201, body: { messageId: 'tm_1' } }));
  sb.configure({ botWorker: { apiUrl: `${ticketApi.url}/api/support`, authorization: 'Bot worker-secret' } });
});
afterEach(async () => {
  await ticketApi.close();
});

const WELCOME = '1300000000000000102';

async function ticketChannel(): Promise<APIChannel> {
  const res = await sb.app.inject({
    method: 'POST',
    url: `/api/v10/guilds/${GUILDS.pixelForge}/channels`,
    headers: bot,
    payload: {
      name: 'ticket-alice',
      parent_id: '1300000000000000104',
      permission_overwrites: [
        { id: GUILDS.pixelForge, type: 0, deny: '1024' },
        { id: USERS.alice, type: 1, allow: '101376' },
        { id: BOT_ID, type: 1, allow: '3072' },
      ],
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const say = (channelId: string, payload: Record<string, unknown>) => sb.app.inject({ method: 'POST', url: `/_sandbox/channels/${channelId}/messages`, payload });

describe('POST /_sandbox/channels/{id}/messages', () => {
  it('posts as the member and forwards to the Ticket API exactly as the bot worker would', async () => {
    const channel = await ticketChannel();
    const content = `Hi <@${BOT_ID}>, <@${USERS.bruno}> said to ask here`;
    const res = await say(channel.id, {
      userId: USERS.alice,
      content,
      attachments: [{ filename: 'log.txt', contentType: 'text/plain', dataBase64: Buffer.from('hello').toString('base64') }],
    });
    expect(res.statusCode).toBe(201);
    const { message, forwarded } = res.json() as { message: APIMessage; forwarded: unknown };
    expect(message).toMatchObject({
      type: 0,
      channel_id: channel.id,
      author: { id: USERS.alice, username: 'alice' },
      content,
      mentions: [{ id: BOT_ID }, { id: USERS.bruno }],
      attachments: [{ filename: 'log.txt', size: 5, content_type: 'text/plain' }],
      embeds: [],
    });
    expect(forwarded).toEqual({ status: 201, body: { messageId: 'tm_1' } });

    expect(ticketApi.requests).toHaveLength(1);
    const [request] = ticketApi.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe(`/api/support/servers/${GUILDS.pixelForge}/tickets/${channel.id}/messages`);
    expect(request!.headers.authorization).toBe('Bot worker-secret');
    expect(request!.headers['content-type']).toBe('application/json');
    const attachment = message.attachments[0]!;
    expect(request!.json).toEqual({
      message: {
        content,
        embeds: [],
        mentions: [BOT_ID, USERS.bruno],
        attachments: [{ id: attachment.id, filename: 'log.txt', contentType: 'text/plain', size: 5, url: attachment.url }],
      },
      messageType: 'User',
      authorId: USERS.alice,
      externalId: message.id,
    });

    // The attachment is on the CDN, and the message is where the bot and the tests look for messages.
    const bytes = await sb.app.inject({ url: attachment.url.replace(/^https?:\/\/[^/]+/, '') });
    expect([bytes.statusCode, bytes.body]).toEqual([200, 'hello']);
    const listed: APIMessage[] = (await sb.app.inject({ url: `/api/v10/channels/${channel.id}/messages`, headers: bot })).json();
    expect(listed.map((m) => m.id)).toEqual([message.id]);
    expect((await sb.app.inject({ url: `/_sandbox/messages?channelId=${channel.id}` })).json().messages[0]).toMatchObject({ authorId: USERS.alice });
  });

  it('forwards nothing for channels the bot did not create, or without a bot worker', async () => {
    const general = await say(CHANNELS.general, { userId: USERS.eli, content: 'hello everyone' });
    expect(general.statusCode).toBe(201);
    expect(general.json().forwarded).toBeNull();
    const channel = await ticketChannel();
    sb.configure({ botWorker: null });
    expect((await say(channel.id, { userId: USERS.alice, content: 'anyone?' })).json().forwarded).toBeNull();
    expect(ticketApi.requests).toHaveLength(0);
  });

  it('reports a Ticket API it cannot reach, and what it answered otherwise', async () => {
    const channel = await ticketChannel();
    ticketApi.answer(() => ({ status: 400, body: { message: 'A message needs content' } }));
    expect((await say(channel.id, { userId: USERS.alice, content: 'x' })).json().forwarded).toEqual({ status: 400, body: { message: 'A message needs content' } });
    await ticketApi.close();
    const down = await say(channel.id, { userId: USERS.alice, content: 'y' });
    expect(down.statusCode).toBe(201);
    expect(down.json().forwarded).toEqual({ status: null, body: null, error: expect.stringContaining(`could not reach ${ticketApi.url}/api/support/servers/`) });
    ticketApi = await startEndpoint();
  });

  it('refuses what a member could not do', async () => {
    const channel = await ticketChannel();
    const cases: [string, Record<string, unknown>, number, string][] = [
      [CHANNELS.general, { userId: USERS.chen, content: 'x' }, 403, 'Missing Access: chen.wei is not a member of Pixel Forge'],
      [channel.id, { userId: USERS.eli, content: 'x' }, 403, 'Missing Access: eli cannot see #ticket-alice'],
      [WELCOME, { userId: USERS.eli, content: 'x' }, 403, 'Missing Permissions: eli cannot send messages in #welcome'],
      [CHANNELS.general, { userId: USERS.eli, content: '   ' }, 400, 'Cannot send an empty message'],
      [CHANNELS.general, { userId: USERS.eli, content: 'x'.repeat(2001) }, 400, 'content must be 2000 or fewer characters'],
      [CHANNELS.infoCategory, { userId: USERS.alice, content: 'x' }, 400, 'cannot hold messages'],
      ['1399999999999999999', { userId: USERS.alice, content: 'x' }, 404, 'unknown channel 1399999999999999999'],
      [CHANNELS.general, { userId: '1299999999999999999', content: 'x' }, 404, 'unknown user'],
      [CHANNELS.general, { content: 'x' }, 400, 'userId must be a snowflake string'],
      [CHANNELS.general, { userId: USERS.eli, attachments: [{ filename: '../x', dataBase64: '' }] }, 400, 'attachments[0].filename must be a plain file name'],
    ];
    for (const [channelId, payload, status, error] of cases) {
      const res = await say(channelId, payload);
      expect([res.statusCode, res.json().error]).toEqual([status, expect.stringContaining(error)]);
    }
    expect(ticketApi.requests).toHaveLength(0);
  });
});

describe('a member leaving the server', () => {
  it('is reported for each ticket channel they were let into, as the bot worker would', async () => {
    const res = await sb.app.inject({
      method: 'POST',
      url: `/api/v10/guilds/${GUILDS.pixelForge}/channels`,
      headers: bot,
      payload: { name: 'ticket-eli', permission_overwrites: [{ id: USERS.eli, type: 1, allow: '1024' }, { id: BOT_ID, type: 1, allow: '3072' }] },
    });
    const channel: APIChannel = res.json();
    ticketApi.answer(() => ({ status: 204, body: null }));
    const left = await sb.app.inject({ method: 'DELETE', url: `/_sandbox/guilds/${GUILDS.pixelForge}/members/${USERS.eli}` });
    expect(left.statusCode).toBe(204);
    expect(ticketApi.requests.map((r) => [r.method, r.url, r.headers.authorization, r.json])).toEqual([
      ['DELETE', `/api/support/servers/${GUILDS.pixelForge}/tickets/${channel.id}/member`, 'Bot worker-secret', { userId: USERS.eli }],
    ]);
    // Someone with no ticket channel leaves without a report.
    await sb.app.inject({ method: 'DELETE', url: `/_sandbox/guilds/${GUILDS.pixelForge}/members/${USERS.dana}` });
    expect(ticketApi.requests).toHaveLength(1);
  });
});

describe("the bot's direct messages", () => {
  it('opens one DM channel per user and delivers to users who share a server with the bot', async () => {
    const open = (recipient_id: string) => sb.app.inject({ method: 'POST', url: '/api/v10/users/@me/channels', headers: bot, payload: { recipient_id } });
    const first = await open(USERS.eli);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ type: 1, recipients: [{ id: USERS.eli }] });
    expect((await open(USERS.eli)).json().id).toBe(first.json().id);
    expect((await open('1999999999999999999')).json()).toEqual({ message: 'Unknown User', code: 10013 });

    const sent = await sb.app.inject({ method: 'POST', url: `/api/v10/channels/${first.json().id}/messages`, headers: bot, payload: { content: 'Your ticket was closed.' } });
    expect(sent.statusCode).toBe(200);
    const listed = (await sb.app.inject({ url: `/_sandbox/direct-messages?userId=${USERS.eli}` })).json().messages;
    expect(listed).toMatchObject([{ recipientId: USERS.eli, content: 'Your ticket was closed.' }]);
  });
});
