import { GatewayIntentBits as I } from 'discord-api-types/v10';
import type { APIChannel, APIMessage, GatewayGuildMemberRemoveDispatchData, GatewayMessageCreateDispatchData } from 'discord-api-types/v10';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, startGatewaySandbox, startManager } from './gateway-test-support.ts';
import { BOT_ID, CHANNELS, GUILDS, USERS, bot, makeSandbox } from './test-support.ts';
import type { TestSandbox } from './test-support.ts';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});

const WELCOME = '1300000000000000102';
/** A ticket channel as the product makes one: hidden from @everyone, open to the member and the bot. */
const ticketPayload = (name: string, memberId: string) => ({
  name,
  parent_id: '1300000000000000104',
  permission_overwrites: [
    { id: GUILDS.pixelForge, type: 0, deny: '1024' },
    { id: memberId, type: 1, allow: '101376' },
    { id: BOT_ID, type: 1, allow: '3072' },
  ],
});

async function ticketChannel(): Promise<APIChannel> {
  const res = await sb.app.inject({ method: 'POST', url: `/api/v10/guilds/${GUILDS.pixelForge}/channels`, headers: bot, payload: ticketPayload('ticket-alice', USERS.alice) });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const say = (channelId: string, payload: Record<string, unknown>) => sb.app.inject({ method: 'POST', url: `/_sandbox/channels/${channelId}/messages`, payload });
const storedMessages = async (): Promise<{ message: APIMessage; authorId: string }[]> => (await sb.app.inject({ url: '/_sandbox/messages' })).json().messages;

describe('POST /_sandbox/channels/{id}/messages', () => {
  it('posts as the member: stored, listed for the bot and its attachment on the CDN', async () => {
    const channel = await ticketChannel();
    const content = `Hi <@${BOT_ID}>, <@${USERS.bruno}> said to ask here`;
    const res = await say(channel.id, {
      userId: USERS.alice,
      content,
      attachments: [{ filename: 'log.txt', contentType: 'text/plain', dataBase64: Buffer.from('hello').toString('base64') }],
    });
    expect(res.statusCode).toBe(201);
    // The sandbox reports nothing to the product itself: the answer is the message alone.
    expect(Object.keys(res.json())).toEqual(['message']);
    const { message } = res.json() as { message: APIMessage };
    expect(message).toMatchObject({
      type: 0,
      channel_id: channel.id,
      author: { id: USERS.alice, username: 'alice' },
      content,
      mentions: [{ id: BOT_ID }, { id: USERS.bruno }],
      attachments: [{ filename: 'log.txt', size: 5, content_type: 'text/plain' }],
      embeds: [],
    });

    // The attachment is on the CDN, and the message is where the bot and the tests look for messages.
    const attachment = message.attachments[0]!;
    const bytes = await sb.app.inject({ url: attachment.url.replace(/^https?:\/\/[^/]+/, '') });
    expect([bytes.statusCode, bytes.body]).toEqual([200, 'hello']);
    const listed: APIMessage[] = (await sb.app.inject({ url: `/api/v10/channels/${channel.id}/messages`, headers: bot })).json();
    expect(listed.map((m) => m.id)).toEqual([message.id]);
    const stored = (await sb.app.inject({ url: `/_sandbox/messages?channelId=${channel.id}` })).json().messages;
    expect(stored).toMatchObject([{ authorId: USERS.alice, message: { id: message.id, content, attachments: [{ id: attachment.id, url: attachment.url }] } }]);
  });

  it('refuses what a member could not do', async () => {
    const channel = await ticketChannel();
    const before = await storedMessages();
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
    expect(await storedMessages()).toEqual(before);
  });
});

describe('what the bot runtime sees of it', () => {
  it("a member's message in a ticket channel, and the member leaving, reach the gateway as dispatches", async () => {
    const sandbox = await startGatewaySandbox();
    const runtime = await startManager(sandbox, { intents: I.Guilds | I.GuildMembers | I.GuildMessages | I.MessageContent });
    try {
      // Eli, not Alice: the owner of a server cannot leave it.
      const created = await call(sandbox, 'POST', `/api/v10/guilds/${GUILDS.pixelForge}/channels`, ticketPayload('ticket-eli', USERS.eli), bot);
      expect(created.status).toBe(201);
      const channel = created.json as APIChannel;
      const content = `Hi <@${USERS.bruno}>, see the log`;
      const attachments = [{ filename: 'log.txt', contentType: 'text/plain', dataBase64: Buffer.from('hello').toString('base64') }];
      const posted = await call(sandbox, 'POST', `/_sandbox/channels/${channel.id}/messages`, { userId: USERS.eli, content, attachments });
      expect(posted.status).toBe(201);
      const { message } = posted.json as { message: APIMessage };
      // Everything the runtime reports to the Ticket API is in the dispatch: id, author, content, mentions, attachments.
      const dispatched = await runtime.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.channel_id === channel.id);
      expect(dispatched).toMatchObject({
        id: message.id,
        guild_id: GUILDS.pixelForge,
        author: { id: USERS.eli },
        content,
        mentions: [{ id: USERS.bruno }],
        attachments: [{ id: message.attachments[0]!.id, filename: 'log.txt', content_type: 'text/plain', size: 5, url: message.attachments[0]!.url }],
      });

      const left = await call(sandbox, 'DELETE', `/_sandbox/guilds/${GUILDS.pixelForge}/members/${USERS.eli}`);
      expect(left.status).toBe(204);
      expect(await runtime.waitFor<GatewayGuildMemberRemoveDispatchData>('GUILD_MEMBER_REMOVE')).toMatchObject({ guild_id: GUILDS.pixelForge, user: { id: USERS.eli } });
      expect((await call(sandbox, 'GET', `/api/v10/guilds/${GUILDS.pixelForge}/members/${USERS.eli}`, undefined, bot)).status).toBe(404);
      // The ticket channel is the product's to close: the sandbox leaves it, and the member's overwrite, as Discord does.
      const still = await call(sandbox, 'GET', `/api/v10/channels/${channel.id}`, undefined, bot);
      expect((still.json as APIChannel & { permission_overwrites: { id: string }[] }).permission_overwrites.map((o) => o.id)).toContain(USERS.eli);
    } finally {
      await runtime.manager.destroy();
      await sandbox.close();
    }
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
