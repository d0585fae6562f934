import { GatewayIntentBits as I } from 'discord-api-types/v10';
import type {
  APIAuditLog,
  APIChannel,
  APIMessage,
  GatewayChannelDeleteDispatchData,
  GatewayGuildCreateDispatchData,
  GatewayGuildDeleteDispatchData,
  GatewayGuildMemberUpdateDispatchData,
  GatewayInteractionCreateDispatchData,
  GatewayMessageCreateDispatchData,
  GatewayMessageDeleteBulkDispatchData,
  GatewayMessageDeleteDispatchData,
  GatewayMessageReactionAddDispatchData,
  GatewayMessageUpdateDispatchData,
} from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RawGatewayClient, call, startGatewaySandbox, startManager } from './gateway-test-support.ts';
import type { TestManager } from './gateway-test-support.ts';
import type { RunningSandbox } from './index.ts';
import { BOT_ID, BOT_TOKEN, CHANNELS, GUILDS, USERS } from './test-support.ts';

const ALL = I.Guilds | I.GuildMembers | I.GuildMessages | I.MessageContent | I.GuildMessageReactions | I.DirectMessages;
const BOT_ROLE = '1300000000000000014';
const bot = { authorization: `Bot ${BOT_TOKEN}` };

let sandbox: RunningSandbox;
let full: TestManager;
let noContent: TestManager;

beforeEach(async () => {
  sandbox = await startGatewaySandbox();
  full = await startManager(sandbox, { intents: ALL });
  noContent = await startManager(sandbox, { intents: I.Guilds | I.GuildMessages | I.GuildMessageReactions });
  for (const m of [full, noContent]) await m.waitFor('GUILD_CREATE', (g: { id: string }) => g.id === GUILDS.studyHall);
});
afterEach(async () => {
  await Promise.all([full.manager.destroy(), noContent.manager.destroy()]);
  await sandbox.close();
});

/** A form POST from the member's channel page; answers the 303's location. */
async function pageAction(channelId: string, action: string, form: Record<string, string>, guildId: string = GUILDS.pixelForge): Promise<string> {
  const response = await fetch(`${sandbox.url}/app/channels/${guildId}/${channelId}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  const location = response.headers.get('location') ?? '';
  expect(new URL(location, sandbox.url).searchParams.get('error')).toBeNull();
  return location;
}

/** The bot's managed role gets View Audit Log, which the demo fixtures do not give it. */
async function grantAuditLog(guildId: string = GUILDS.pixelForge): Promise<void> {
  const { json } = await call(sandbox, 'GET', '/_sandbox/state');
  const role = (json as { guilds: { id: string; roles: { id: string; permissions: string; managed: boolean }[] }[] }).guilds
    .find((g) => g.id === guildId)!
    .roles.find((r) => r.managed)!;
  const patched = await call(sandbox, 'PATCH', `/_sandbox/guilds/${guildId}/roles/${role.id}`, { permissions: String(BigInt(role.permissions) | 128n) });
  expect(patched.status).toBe(200);
}

async function lastMessage(channelId: string): Promise<APIMessage> {
  const { json } = await call(sandbox, 'GET', `/_sandbox/messages?channelId=${channelId}&includeDeleted=false`);
  return (json as { messages: { message: APIMessage }[] }).messages.at(-1)!.message;
}

describe("a member's messages from the channel view", () => {
  it('arrive as MESSAGE_CREATE, with content only for a session with MESSAGE_CONTENT or when the bot is mentioned', async () => {
    await pageAction(CHANNELS.general, 'messages', { as: USERS.eli, content: 'Hi all, where do I report a bug?' });
    const created = await full.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE');
    expect(created).toMatchObject({
      guild_id: GUILDS.pixelForge,
      channel_id: CHANNELS.general,
      channel_type: 0,
      author: { id: USERS.eli, username: 'eli' },
      member: { roles: [], joined_at: '2023-11-20T21:45:02.000000+00:00' },
      content: 'Hi all, where do I report a bug?',
    });
    expect(created.member).not.toHaveProperty('user');
    const stripped = await noContent.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE');
    expect(stripped).toMatchObject({ id: created.id, content: '', embeds: [], attachments: [], components: [], author: { id: USERS.eli } });

    await pageAction(CHANNELS.general, 'messages', { as: USERS.eli, content: `<@${BOT_ID}> help please` });
    const mention = await noContent.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.content !== '');
    expect(mention).toMatchObject({ content: `<@${BOT_ID}> help please`, mentions: [{ id: BOT_ID, member: expect.objectContaining({ roles: [BOT_ROLE] }) }] });
  });

  it('edits, deletions and reactions arrive as MESSAGE_UPDATE, MESSAGE_DELETE and reaction events', async () => {
    await pageAction(CHANNELS.general, 'messages', { as: USERS.eli, content: 'first try' });
    const message = await lastMessage(CHANNELS.general);

    await pageAction(CHANNELS.general, 'messages/edit', { as: USERS.eli, messageId: message.id, content: 'second try' });
    const updated = await full.waitFor<GatewayMessageUpdateDispatchData>('MESSAGE_UPDATE');
    expect(updated).toMatchObject({ id: message.id, content: 'second try', guild_id: GUILDS.pixelForge, tts: false });
    expect(updated.edited_timestamp).not.toBeNull();
    expect(await noContent.waitFor<GatewayMessageUpdateDispatchData>('MESSAGE_UPDATE')).toMatchObject({ id: message.id, content: '' });

    await pageAction(CHANNELS.general, 'reactions', { as: USERS.eli, messageId: message.id, emoji: '👍', action: 'add' });
    const added = await full.waitFor<GatewayMessageReactionAddDispatchData>('MESSAGE_REACTION_ADD');
    expect(added).toMatchObject({
      user_id: USERS.eli,
      message_id: message.id,
      channel_id: CHANNELS.general,
      guild_id: GUILDS.pixelForge,
      emoji: { id: null, name: '👍' },
      message_author_id: USERS.eli,
      member: { user: { id: USERS.eli } },
      burst: false,
      type: 0,
    });
    const page = await (await fetch(`${sandbox.url}/app/channels/${GUILDS.pixelForge}/${CHANNELS.general}?as=${USERS.eli}`)).text();
    expect(page).toContain('aria-pressed="true"');
    // The same button again takes the reaction away.
    await pageAction(CHANNELS.general, 'reactions', { as: USERS.eli, messageId: message.id, emoji: '👍', action: 'remove' });
    expect(await full.waitFor('MESSAGE_REACTION_REMOVE')).toMatchObject({ user_id: USERS.eli, emoji: { name: '👍' } });

    await pageAction(CHANNELS.general, 'reactions', { as: USERS.alice, messageId: message.id, emoji: 'forge_hammer:1300000000000000301', action: 'add' });
    expect(await full.waitFor<GatewayMessageReactionAddDispatchData>('MESSAGE_REACTION_ADD', (d) => d.user_id === USERS.alice)).toMatchObject({
      emoji: { id: '1300000000000000301', name: 'forge_hammer', animated: false },
    });
    const clear = await call(sandbox, 'DELETE', `/_sandbox/channels/${CHANNELS.general}/messages/${message.id}/reactions`, { userId: USERS.dana, all: true });
    expect(clear.json).toEqual({ removed: true });
    expect(await full.waitFor('MESSAGE_REACTION_REMOVE_ALL')).toEqual({ channel_id: CHANNELS.general, message_id: message.id, guild_id: GUILDS.pixelForge });
    // eli has no Manage Messages: he can take away only his own reactions.
    expect((await call(sandbox, 'DELETE', `/_sandbox/channels/${CHANNELS.general}/messages/${message.id}/reactions`, { userId: USERS.eli, all: true })).status).toBe(403);

    await pageAction(CHANNELS.general, 'messages/delete', { as: USERS.eli, messageId: message.id });
    expect(await full.waitFor<GatewayMessageDeleteDispatchData>('MESSAGE_DELETE')).toEqual({ id: message.id, channel_id: CHANNELS.general, guild_id: GUILDS.pixelForge });
  });

  it('a moderator deleting someone else\'s message is in the audit log; nobody else may', async () => {
    await call(sandbox, 'POST', `/_sandbox/channels/${CHANNELS.general}/messages`, { userId: USERS.eli, content: 'spam spam spam' });
    const message = await lastMessage(CHANNELS.general);
    expect((await call(sandbox, 'DELETE', `/_sandbox/channels/${CHANNELS.general}/messages/${message.id}?userId=${USERS.alice}`)).status).toBe(200);
    await full.waitFor('MESSAGE_DELETE');
    await grantAuditLog();
    const log = await call(sandbox, 'GET', `/api/v10/guilds/${GUILDS.pixelForge}/audit-logs?action_type=72`, undefined, bot);
    expect((log.json as APIAuditLog).audit_log_entries).toEqual([
      expect.objectContaining({ action_type: 72, user_id: USERS.alice, target_id: USERS.eli, options: { channel_id: CHANNELS.general, count: '1' } }),
    ]);
    await call(sandbox, 'POST', `/_sandbox/channels/${CHANNELS.general}/messages`, { userId: USERS.alice, content: 'mine' });
    const alices = await lastMessage(CHANNELS.general);
    const refused = await call(sandbox, 'PATCH', `/_sandbox/channels/${CHANNELS.general}/messages/${alices.id}`, { userId: USERS.eli, content: 'hijacked' });
    expect(refused).toMatchObject({ status: 403, json: { error: 'eli can only edit their own messages' } });
  });

  it('messages in a channel the bot cannot see are not dispatched', async () => {
    await call(sandbox, 'POST', `/_sandbox/channels/${CHANNELS.modLog}/messages`, { userId: USERS.alice, content: 'secret' });
    await call(sandbox, 'POST', `/_sandbox/channels/${CHANNELS.general}/messages`, { userId: USERS.alice, content: 'public' });
    await full.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.content === 'public');
    expect(full.all<GatewayMessageCreateDispatchData>('MESSAGE_CREATE').map((d) => d.content)).toEqual(['public']);
  });
});

describe("the bot's own REST calls", () => {
  it('its messages, edits and bulk deletes come back as dispatches, its DMs on shard 0', async () => {
    const sent = (await call(sandbox, 'POST', `/api/v10/channels/${CHANNELS.general}/messages`, { content: 'Tickets open at 9' }, bot)).json as APIMessage;
    // The bot's own message keeps its content even without MESSAGE_CONTENT.
    expect(await noContent.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE')).toMatchObject({ id: sent.id, content: 'Tickets open at 9', author: { id: BOT_ID, bot: true } });
    await call(sandbox, 'PATCH', `/api/v10/channels/${CHANNELS.general}/messages/${sent.id}`, { content: 'Tickets open at 10' }, bot);
    expect(await full.waitFor('MESSAGE_UPDATE')).toMatchObject({ id: sent.id, content: 'Tickets open at 10' });
    const second = (await call(sandbox, 'POST', `/api/v10/channels/${CHANNELS.general}/messages`, { content: 'again' }, bot)).json as APIMessage;
    expect((await call(sandbox, 'POST', `/api/v10/channels/${CHANNELS.general}/messages/bulk-delete`, { messages: [sent.id, second.id] }, bot)).status).toBe(204);
    expect(await full.waitFor<GatewayMessageDeleteBulkDispatchData>('MESSAGE_DELETE_BULK')).toEqual({ ids: [sent.id, second.id], channel_id: CHANNELS.general, guild_id: GUILDS.pixelForge });

    const dm = (await call(sandbox, 'POST', '/api/v10/users/@me/channels', { recipient_id: USERS.eli }, bot)).json as APIChannel;
    await call(sandbox, 'POST', `/api/v10/channels/${dm.id}/messages`, { content: 'Your ticket was closed' }, bot);
    const direct = await full.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.channel_id === dm.id);
    expect(direct).toMatchObject({ content: 'Your ticket was closed', channel_type: 1 });
    expect(direct).not.toHaveProperty('guild_id');
    // No DIRECT_MESSAGES intent, no DM events.
    expect(noContent.all<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.channel_id === dm.id)).toEqual([]);
  });

  it('its reactions, and its clearing of an emoji, arrive as reaction events', async () => {
    await call(sandbox, 'POST', `/_sandbox/channels/${CHANNELS.general}/messages`, { userId: USERS.eli, content: 'vote here' });
    const message = await lastMessage(CHANNELS.general);
    const base = `/api/v10/channels/${CHANNELS.general}/messages/${message.id}/reactions`;
    expect((await call(sandbox, 'PUT', `${base}/${encodeURIComponent('✅')}/@me`, undefined, bot)).status).toBe(204);
    expect(await full.waitFor('MESSAGE_REACTION_ADD')).toMatchObject({ user_id: BOT_ID, emoji: { id: null, name: '✅' }, message_author_id: USERS.eli });
    await call(sandbox, 'POST', `/_sandbox/channels/${CHANNELS.general}/messages/${message.id}/reactions`, { userId: USERS.eli, emoji: '✅' });
    const fetched = (await call(sandbox, 'GET', `/api/v10/channels/${CHANNELS.general}/messages/${message.id}`, undefined, bot)).json as APIMessage;
    expect(fetched.reactions).toEqual([{ count: 2, count_details: { burst: 0, normal: 2 }, me: true, me_burst: false, emoji: { id: null, name: '✅' }, burst_colors: [] }]);
    const users = (await call(sandbox, 'GET', `${base}/${encodeURIComponent('✅')}`, undefined, bot)).json as { id: string }[];
    expect(users.map((u) => u.id)).toEqual([BOT_ID, USERS.eli]);
    expect((await call(sandbox, 'DELETE', `${base}/${encodeURIComponent('✅')}`, undefined, bot)).status).toBe(204);
    expect(await full.waitFor('MESSAGE_REACTION_REMOVE_EMOJI')).toEqual({
      channel_id: CHANNELS.general,
      message_id: message.id,
      guild_id: GUILDS.pixelForge,
      emoji: { id: null, name: '✅' },
    });
    expect((await call(sandbox, 'PUT', `${base}/not-an-emoji/@me`, undefined, bot)).json).toEqual({ message: 'Unknown Emoji', code: 10014 });
  });

  it('channel create, update and delete arrive as CHANNEL_* events; a channel deleted by hand says who did it in the audit log', async () => {
    const created = (await call(sandbox, 'POST', `/api/v10/guilds/${GUILDS.pixelForge}/channels`, { name: 'ticket-eli', parent_id: '1300000000000000104' }, bot)).json as APIChannel;
    expect(await full.waitFor('CHANNEL_CREATE')).toMatchObject({ id: created.id, name: 'ticket-eli', guild_id: GUILDS.pixelForge, parent_id: '1300000000000000104' });
    await call(sandbox, 'PATCH', `/api/v10/channels/${created.id}`, { name: 'ticket-eli-closed' }, bot);
    expect(await full.waitFor('CHANNEL_UPDATE')).toMatchObject({ id: created.id, name: 'ticket-eli-closed' });

    // Bruno (Admin) deletes it in the client.
    const deleted = await call(sandbox, 'DELETE', `/_sandbox/channels/${created.id}`, { userId: USERS.bruno, reason: 'cleanup' });
    expect(deleted.status).toBe(200);
    expect(await full.waitFor<GatewayChannelDeleteDispatchData>('CHANNEL_DELETE')).toMatchObject({ id: created.id, guild_id: GUILDS.pixelForge });
    expect((await call(sandbox, 'GET', `/api/v10/channels/${created.id}`, undefined, bot)).status).toBe(404);

    const noAuditLog = await call(sandbox, 'GET', `/api/v10/guilds/${GUILDS.pixelForge}/audit-logs`, undefined, bot);
    expect(noAuditLog).toMatchObject({ status: 403, json: { code: 50013 } });
    await grantAuditLog();
    const log = (await call(sandbox, 'GET', `/api/v10/guilds/${GUILDS.pixelForge}/audit-logs?action_type=12`, undefined, bot)).json as APIAuditLog;
    expect(log.audit_log_entries).toEqual([
      expect.objectContaining({ action_type: 12, user_id: USERS.bruno, target_id: created.id, reason: 'cleanup', changes: expect.arrayContaining([{ key: 'name', old_value: 'ticket-eli-closed' }]) }),
    ]);
    expect(log.users.map((u) => u.id)).toContain(USERS.bruno);
    // eli has no Manage Channels.
    const refused = await call(sandbox, 'DELETE', `/_sandbox/channels/${CHANNELS.general}`, { userId: USERS.eli });
    expect(refused.status).toBe(403);
  });

  it('the channel view deletes a channel for a member with Manage Channels and lands on another channel', async () => {
    const created = (await call(sandbox, 'POST', `/api/v10/guilds/${GUILDS.pixelForge}/channels`, { name: 'ticket-gone' }, bot)).json as APIChannel;
    const location = await pageAction(created.id, 'delete', { as: USERS.alice });
    expect(location).toMatch(new RegExp(`^/app/channels/${GUILDS.pixelForge}/\\d+\\?as=${USERS.alice}$`));
    expect(await full.waitFor<GatewayChannelDeleteDispatchData>('CHANNEL_DELETE')).toMatchObject({ id: created.id });
  });
});

describe('control-route changes', () => {
  it('member and role changes reach sessions with GUILD_MEMBERS and GUILDS', async () => {
    await call(sandbox, 'PATCH', `/_sandbox/guilds/${GUILDS.pixelForge}/members/${USERS.eli}`, { roles: ['1300000000000000013'] });
    expect(await full.waitFor<GatewayGuildMemberUpdateDispatchData>('GUILD_MEMBER_UPDATE')).toMatchObject({
      guild_id: GUILDS.pixelForge,
      user: { id: USERS.eli },
      roles: ['1300000000000000013'],
    });
    await call(sandbox, 'DELETE', `/_sandbox/guilds/${GUILDS.pixelForge}/members/${USERS.eli}`);
    expect(await full.waitFor('GUILD_MEMBER_REMOVE')).toMatchObject({ guild_id: GUILDS.pixelForge, user: { id: USERS.eli } });
    await call(sandbox, 'POST', `/_sandbox/guilds/${GUILDS.pixelForge}/members/${USERS.eli}`, {});
    expect(await full.waitFor('GUILD_MEMBER_ADD')).toMatchObject({ guild_id: GUILDS.pixelForge, user: { id: USERS.eli }, roles: [] });

    const role = (await call(sandbox, 'POST', `/_sandbox/guilds/${GUILDS.pixelForge}/roles`, { name: 'Ticket Helpers', permissions: '8192' })).json as { id: string };
    expect(await noContent.waitFor('GUILD_ROLE_CREATE')).toMatchObject({ guild_id: GUILDS.pixelForge, role: { id: role.id, name: 'Ticket Helpers', permissions: '8192' } });
    await call(sandbox, 'PATCH', `/_sandbox/guilds/${GUILDS.pixelForge}/roles/${role.id}`, { permissions: '0' });
    expect(await noContent.waitFor('GUILD_ROLE_UPDATE')).toMatchObject({ role: { id: role.id, permissions: '0' } });
    await call(sandbox, 'DELETE', `/_sandbox/guilds/${GUILDS.pixelForge}/roles/${role.id}`);
    expect(await noContent.waitFor('GUILD_ROLE_DELETE')).toEqual({ guild_id: GUILDS.pixelForge, role_id: role.id });
    // Without GUILD_MEMBERS, member events never come.
    expect(noContent.all('GUILD_MEMBER_UPDATE')).toEqual([]);
    expect(noContent.all('GUILD_MEMBER_REMOVE')).toEqual([]);
  });

  it('the bot removed from and added back to a guild: GUILD_DELETE without unavailable, then GUILD_CREATE', async () => {
    await call(sandbox, 'POST', `/_sandbox/guilds/${GUILDS.nightOwls}/bot`, { member: false });
    const gone = await full.waitFor<GatewayGuildDeleteDispatchData>('GUILD_DELETE');
    expect(gone).toEqual({ id: GUILDS.nightOwls });
    await call(sandbox, 'POST', `/_sandbox/guilds/${GUILDS.quietGarden}/bot`, { member: true });
    const joined = await full.waitFor<GatewayGuildCreateDispatchData>('GUILD_CREATE', (g) => g.id === GUILDS.quietGarden);
    expect(joined).toMatchObject({ name: 'Quiet Garden', unavailable: false });
    // Events of the guild the bot left no longer come; those of the one it joined do.
    const { json } = await call(sandbox, 'GET', '/_sandbox/state');
    const owlsChannel = (json as { guilds: { id: string; channels: { id: string; type: number }[] }[] }).guilds
      .find((g) => g.id === GUILDS.nightOwls)!
      .channels.find((c) => c.type === 0)!.id;
    await call(sandbox, 'POST', `/_sandbox/channels/${owlsChannel}/messages`, { userId: USERS.bruno, content: 'owls news' });
    await call(sandbox, 'POST', `/_sandbox/channels/${CHANNELS.gardenGeneral}/messages`, { userId: USERS.alice, content: 'garden news' });
    await full.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.content === 'garden news');
    expect(full.all<GatewayMessageCreateDispatchData>('MESSAGE_CREATE').map((d) => d.content)).toEqual(['garden news']);

    // A reset puts the bot back where the fixtures have it, and the sessions hear what changed.
    const before = full.dispatches.items.at(-1)!.s;
    await call(sandbox, 'POST', '/_sandbox/reset');
    await full.dispatches.waitFor((p) => p.s > before && p.t === 'GUILD_DELETE' && (p.d as { id: string }).id === GUILDS.quietGarden, 'Quiet Garden gone');
    await full.dispatches.waitFor((p) => p.s > before && p.t === 'GUILD_CREATE' && (p.d as { id: string }).id === GUILDS.nightOwls, 'Night Owls back');
  });
});

describe('interactions without an interactions endpoint URL', () => {
  it('go out as INTERACTION_CREATE and are answered through the callback route', async () => {
    const panel = (
      await call(
        sandbox,
        'POST',
        `/api/v10/channels/${CHANNELS.openTicket}/messages`,
        { content: 'Need help?', components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Open a ticket', custom_id: 'ticket:open' }] }] },
        bot,
      )
    ).json as APIMessage;
    const click = call(sandbox, 'POST', '/_sandbox/interactions/component', {
      guildId: GUILDS.pixelForge,
      channelId: CHANNELS.openTicket,
      messageId: panel.id,
      userId: USERS.eli,
      customId: 'ticket:open',
    });
    const interaction = await full.waitFor<GatewayInteractionCreateDispatchData>('INTERACTION_CREATE');
    expect(interaction).toMatchObject({ type: 3, guild_id: GUILDS.pixelForge, data: { custom_id: 'ticket:open' }, member: { user: { id: USERS.eli } } });
    // Interactions need no intent.
    await noContent.waitFor('INTERACTION_CREATE');
    const answer = await call(sandbox, 'POST', `/api/v10/interactions/${interaction.id}/${interaction.token}/callback`, { type: 4, data: { content: 'Ticket opened', flags: 64 } });
    expect(answer.status).toBe(204);
    const { status, json } = await click;
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: null, interaction: { via: 'gateway', acknowledged: true, errors: [], ephemeral: [{ content: 'Ticket opened' }] } });
  });
});

describe('intents a raw client asks for', () => {
  it('GUILD_MODERATION brings audit log entries when the bot may view the audit log', async () => {
    const client = await RawGatewayClient.open(`${sandbox.gatewayUrl}?v=10&encoding=json`);
    try {
      client.identify({ intents: I.Guilds | I.GuildModeration });
      await client.dispatch('READY');
      await grantAuditLog();
      await call(sandbox, 'POST', `/_sandbox/guilds/${GUILDS.pixelForge}/roles`, { name: 'Audited', actorId: USERS.bruno });
      const entry = await client.dispatch('GUILD_AUDIT_LOG_ENTRY_CREATE', (d: { action_type: number }) => d.action_type === 30);
      expect(entry.d).toMatchObject({ guild_id: GUILDS.pixelForge, user_id: USERS.bruno, action_type: 30 });
    } finally {
      client.close();
    }
  });
});
