import { GatewayCloseCodes, GatewayIntentBits as I } from 'discord-api-types/v10';
import type { APIGatewayBotInfo, GatewayGuildCreateDispatchData, GatewayMessageCreateDispatchData, GatewayReadyDispatchData } from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CompressionMethod, RawGatewayClient, call, guildIdOnShard, startGatewaySandbox, startManager } from './gateway-test-support.ts';
import type { TestManager } from './gateway-test-support.ts';
import type { RunningSandbox } from './index.ts';
import { BOT_ID, BOT_TOKEN, CHANNELS, GUILDS, USERS } from './test-support.ts';

const BOT_GUILDS = [GUILDS.pixelForge, GUILDS.nightOwls, GUILDS.studyHall];
const ALL = I.Guilds | I.GuildMembers | I.GuildMessages | I.MessageContent | I.GuildMessageReactions | I.DirectMessages;

let sandbox: RunningSandbox;
const managers: TestManager[] = [];
const clients: RawGatewayClient[] = [];

beforeEach(async () => {
  sandbox = await startGatewaySandbox();
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(managers.splice(0).map((m) => m.manager.destroy()));
  await sandbox.close();
});

async function manager(options: Parameters<typeof startManager>[1]): Promise<TestManager> {
  const started = await startManager(sandbox, options);
  managers.push(started);
  return started;
}

async function raw(query = '?v=10&encoding=json'): Promise<RawGatewayClient> {
  const client = await RawGatewayClient.open(`${sandbox.gatewayUrl}${query}`);
  clients.push(client);
  await client.next((p) => p.op === 10, 'HELLO');
  return client;
}

const say = (channelId: string, userId: string, content: string) => call(sandbox, 'POST', `/_sandbox/channels/${channelId}/messages`, { userId, content });

describe('GET /gateway and /gateway/bot', () => {
  it('answers the WebSocket URL, and for the bot the recommended shards and session start limit', async () => {
    expect((await call(sandbox, 'GET', '/api/v10/gateway')).json).toEqual({ url: sandbox.gatewayUrl });
    const bot = await call(sandbox, 'GET', '/api/v10/gateway/bot', undefined, { authorization: `Bot ${BOT_TOKEN}` });
    expect(bot.status).toBe(200);
    expect(bot.json).toEqual({
      url: sandbox.gatewayUrl,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 1000, reset_after: 86_400_000, max_concurrency: 1 },
    } satisfies APIGatewayBotInfo);
    expect((await call(sandbox, 'GET', '/api/v10/gateway/bot')).status).toBe(401);
  });
});

describe('connecting with @discordjs/ws', () => {
  it('gets HELLO, READY with the guilds as unavailable, then a full GUILD_CREATE for each', async () => {
    const m = await manager({ intents: ALL });
    const ready = await m.waitFor<GatewayReadyDispatchData>('READY');
    expect(ready).toMatchObject({
      v: 10,
      user: { id: BOT_ID, bot: true, username: 'Ticket Bot' },
      resume_gateway_url: sandbox.gatewayUrl,
      shard: [0, 1],
      application: { id: BOT_ID },
    });
    expect(ready.session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(ready.guilds).toEqual(BOT_GUILDS.map((id) => ({ id, unavailable: true })));
    for (const id of BOT_GUILDS) await m.waitFor<GatewayGuildCreateDispatchData>('GUILD_CREATE', (g) => g.id === id);
    const forge = m.all<GatewayGuildCreateDispatchData>('GUILD_CREATE', (g) => g.id === GUILDS.pixelForge)[0]!;
    expect(forge).toMatchObject({ name: 'Pixel Forge', owner_id: USERS.alice, member_count: 19, large: false, unavailable: false });
    expect(forge.channels.map((c) => c.id)).toContain(CHANNELS.general);
    expect(forge.channels[0]).not.toHaveProperty('guild_id');
    expect(forge.roles.map((r) => r.name)).toContain('Support Staff');
    // No GUILD_PRESENCES: only the bot's own member, as Discord sends.
    expect(forge.members.map((mb) => mb.user.id)).toEqual([BOT_ID]);
    expect(m.all('GUILD_CREATE')).toHaveLength(3);
    // Sequence numbers start at 1 and have no gaps.
    expect(m.dispatches.items.map((p) => p.s)).toEqual([1, 2, 3, 4]);

    const { json } = await call(sandbox, 'GET', '/_sandbox/gateway/sessions');
    expect(json).toEqual({
      sessions: [expect.objectContaining({ id: ready.session_id, shard: [0, 1], intents: ALL, seq: 4, connected: true, resumes: 0 })],
    });
  });

  it('two shards, as two processes would run them, receive disjoint guilds and only their own events', async () => {
    const [elsewhere, here] = [guildIdOnShard(1, 2), guildIdOnShard(0, 2, 3)];
    for (const [id, name] of [
      [elsewhere, 'Shard One Club'],
      [here, 'Shard Zero Club'],
    ] as const) {
      expect((await call(sandbox, 'POST', '/_sandbox/guilds', { id, name, ownerId: USERS.eli, memberIds: [USERS.dana] })).status).toBe(201);
    }
    const zero = await manager({ intents: ALL, shardCount: 2, shardIds: [0] });
    const one = await manager({ intents: ALL, shardCount: 2, shardIds: [1] });
    const guildsOf = async (m: TestManager) => (await m.waitFor<GatewayReadyDispatchData>('READY')).guilds.map((g) => g.id).sort();
    expect(await guildsOf(zero)).toEqual([...BOT_GUILDS, here].sort());
    expect(await guildsOf(one)).toEqual([elsewhere]);
    await one.waitFor('GUILD_CREATE', (g: { id: string }) => g.id === elsewhere);
    await zero.waitFor('GUILD_CREATE', (g: { id: string }) => g.id === here);

    const general = (await call(sandbox, 'GET', '/_sandbox/state')).json as { guilds: { id: string; channels: { id: string; name: string }[] }[] };
    const oneGeneral = general.guilds.find((g) => g.id === elsewhere)!.channels.find((c) => c.name === 'general')!.id;
    await say(oneGeneral, USERS.dana, 'hello shard one');
    await say(CHANNELS.general, USERS.eli, 'hello shard zero');
    await one.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.content === 'hello shard one');
    await zero.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.content === 'hello shard zero');
    expect(one.all('MESSAGE_CREATE')).toHaveLength(1);
    expect(zero.all('MESSAGE_CREATE')).toHaveLength(1);
    expect(one.all<{ id: string }>('GUILD_CREATE').map((g) => g.id)).toEqual([elsewhere]);
  });

  it('a dropped connection resumes and gets every missed dispatch exactly once', async () => {
    const m = await manager({ intents: ALL });
    const ready = await m.waitFor<GatewayReadyDispatchData>('READY');
    await say(CHANNELS.general, USERS.eli, 'before the drop');
    await m.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.content === 'before the drop');

    expect((await call(sandbox, 'POST', `/_sandbox/gateway/sessions/${ready.session_id}/drop`)).status).toBe(200);
    // Written while the bot is away: the session keeps them for the resume.
    await say(CHANNELS.general, USERS.eli, 'missed one');
    await say(CHANNELS.general, USERS.dana, 'missed two');
    await m.waitFor('RESUMED');
    await say(CHANNELS.general, USERS.eli, 'after the resume');
    await m.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.content === 'after the resume');

    const contents = m.all<GatewayMessageCreateDispatchData>('MESSAGE_CREATE').map((d) => d.content);
    expect(contents).toEqual(['before the drop', 'missed one', 'missed two', 'after the resume']);
    expect(m.all('READY')).toHaveLength(1);
    const seqs = m.dispatches.items.map((p) => p.s);
    expect(new Set(seqs).size).toBe(seqs.length);
    const { json } = await call(sandbox, 'GET', '/_sandbox/gateway/sessions');
    expect(json).toEqual({ sessions: [expect.objectContaining({ id: ready.session_id, connected: true, resumes: 1 })] });
  });

  it('a reconnect request (op 7) is followed by a resume, with nothing lost', async () => {
    const m = await manager({ intents: ALL });
    const ready = await m.waitFor<GatewayReadyDispatchData>('READY');
    expect((await call(sandbox, 'POST', `/_sandbox/gateway/sessions/${ready.session_id}/reconnect`)).json).toEqual({ sessionId: ready.session_id, sent: 'RECONNECT' });
    await say(CHANNELS.general, USERS.eli, 'during the reconnect');
    await m.waitFor('RESUMED');
    await m.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.content === 'during the reconnect');
    expect(m.all('MESSAGE_CREATE')).toHaveLength(1);
    expect(m.all('READY')).toHaveLength(1);
  });

  it('an invalidated session makes the client identify again', async () => {
    const m = await manager({ intents: ALL });
    const ready = await m.waitFor<GatewayReadyDispatchData>('READY');
    await call(sandbox, 'POST', `/_sandbox/gateway/sessions/${ready.session_id}/invalidate`, { resumable: false });
    const second = await m.dispatches.waitFor((p) => p.t === 'READY' && (p.d as GatewayReadyDispatchData).session_id !== ready.session_id, 'second READY');
    expect((await call(sandbox, 'GET', '/_sandbox/gateway/sessions')).json).toEqual({
      sessions: [expect.objectContaining({ id: (second.d as GatewayReadyDispatchData).session_id })],
    });
  });

  it('speaks zlib-stream transport compression and identify payload compression', async () => {
    const stream = await manager({ intents: ALL, compression: CompressionMethod.ZlibNative });
    const payload = await manager({ intents: ALL, useIdentifyCompression: true });
    for (const m of [stream, payload]) {
      await m.waitFor('GUILD_CREATE', (g: { id: string }) => g.id === GUILDS.studyHall);
    }
    await say(CHANNELS.general, USERS.eli, 'compressed hello');
    for (const m of [stream, payload]) await m.waitFor<GatewayMessageCreateDispatchData>('MESSAGE_CREATE', (d) => d.content === 'compressed hello');
  });
});

describe('the protocol, byte by byte', () => {
  it('answers heartbeats, identifies and sends sequence numbers on dispatches only', async () => {
    const client = await raw();
    expect(client.payloads.items[0]).toEqual({ op: 10, d: { heartbeat_interval: 41_250 }, s: null, t: null });
    client.send({ op: 1, d: null });
    expect(await client.next((p) => p.op === 11, 'HEARTBEAT_ACK')).toMatchObject({ op: 11 });
    client.identify({ intents: I.Guilds });
    expect(await client.dispatch('READY')).toMatchObject({ s: 1, op: 0 });
    expect(await client.dispatch('GUILD_CREATE')).toMatchObject({ s: 2 });
  });

  it.each([
    ['a bad token', { intents: I.Guilds, token: 'not-the-token' }, GatewayCloseCodes.AuthenticationFailed],
    ['a shard id past the count', { intents: I.Guilds, shard: [2, 2] }, GatewayCloseCodes.InvalidShard],
    ['a malformed shard', { intents: I.Guilds, shard: [0] }, GatewayCloseCodes.InvalidShard],
    ['an unknown intent bit', { intents: 1 << 30 }, GatewayCloseCodes.InvalidIntents],
  ])('closes an IDENTIFY with %s', async (_what, fields, code) => {
    const client = await raw();
    client.identify(fields);
    expect((await client.closed).code).toBe(code);
  });

  it('closes with 4014 for a privileged intent the application has not enabled', async () => {
    const app = await call(sandbox, 'PATCH', '/_sandbox/application', { privilegedIntents: { messageContent: false } });
    expect(app.json).toEqual({ id: BOT_ID, privilegedIntents: { guildMembers: true, guildPresences: true, messageContent: false } });
    const client = await raw();
    client.identify({ intents: I.Guilds | I.MessageContent });
    expect(await client.closed).toEqual({ code: GatewayCloseCodes.DisallowedIntents, reason: 'Disallowed intent(s)' });

    const allowed = await raw();
    allowed.identify({ intents: I.Guilds | I.GuildMembers });
    const ready = await allowed.dispatch('READY');
    // The application's flags say which intents are on (the "limited" ones, as for an unverified app).
    expect((ready.d as GatewayReadyDispatchData).application.flags).toBe((1 << 13) | (1 << 15));
  });

  it.each([
    ['a payload before identifying', { op: 8, d: { guild_id: GUILDS.pixelForge, query: '', limit: 0 } }, GatewayCloseCodes.NotAuthenticated],
    ['an unknown opcode', { op: 42, d: null }, GatewayCloseCodes.UnknownOpcode],
    ['something that is not JSON', '{op: 1', GatewayCloseCodes.DecodeError],
    ['a payload over 4096 bytes', { op: 1, d: 'x'.repeat(5000) }, GatewayCloseCodes.DecodeError],
  ])('closes on %s', async (_what, payload, code) => {
    const client = await raw();
    client.send(payload);
    expect((await client.closed).code).toBe(code);
  });

  it('closes a second IDENTIFY with 4005 and a v=9 connection with 4012', async () => {
    const client = await raw();
    client.identify({ intents: I.Guilds });
    await client.dispatch('READY');
    client.identify({ intents: I.Guilds });
    expect((await client.closed).code).toBe(GatewayCloseCodes.AlreadyAuthenticated);

    const old = await RawGatewayClient.open(`${sandbox.gatewayUrl}?v=9&encoding=json`);
    clients.push(old);
    expect((await old.closed).code).toBe(GatewayCloseCodes.InvalidAPIVersion);
  });

  it('answers a RESUME of an unknown session with INVALID_SESSION false, and one from the future with 4007', async () => {
    const client = await raw();
    client.send({ op: 6, d: { token: BOT_TOKEN, session_id: 'f'.repeat(32), seq: 3 } });
    expect(await client.next((p) => p.op === 9, 'INVALID_SESSION')).toEqual({ op: 9, d: false, s: null, t: null });

    const first = await raw();
    first.identify({ intents: I.Guilds });
    const ready = (await first.dispatch('READY')).d as GatewayReadyDispatchData;
    await first.dispatch('GUILD_CREATE', (g: { id: string }) => g.id === GUILDS.studyHall);
    first.close();
    const second = await raw();
    second.send({ op: 6, d: { token: BOT_TOKEN, session_id: ready.session_id, seq: 99 } });
    expect((await second.closed).code).toBe(GatewayCloseCodes.InvalidSeq);
  });

  it('a session past its resume window is gone: RESUME answers INVALID_SESSION false', async () => {
    const first = await raw();
    first.identify({ intents: I.Guilds });
    const ready = (await first.dispatch('READY')).d as GatewayReadyDispatchData;
    first.close();
    await first.closed;
    await call(sandbox, 'POST', '/_sandbox/clock', { advanceSeconds: 181 });
    const second = await raw();
    second.send({ op: 6, d: { token: BOT_TOKEN, session_id: ready.session_id, seq: 1 } });
    expect(await second.next((p) => p.op === 9, 'INVALID_SESSION')).toMatchObject({ d: false });
  });

  it('answers Request Guild Members with chunks, and needs GUILD_MEMBERS for the whole list', async () => {
    const client = await raw();
    client.identify({ intents: I.Guilds | I.GuildMembers });
    await client.dispatch('READY');
    client.send({ op: 8, d: { guild_id: GUILDS.nightOwls, query: '', limit: 0, nonce: 'n1' } });
    const chunk = await client.dispatch('GUILD_MEMBERS_CHUNK');
    expect(chunk.d).toMatchObject({ guild_id: GUILDS.nightOwls, chunk_index: 0, chunk_count: 1, nonce: 'n1' });
    expect((chunk.d as { members: unknown[] }).members).toHaveLength(9);

    const without = await raw();
    without.identify({ intents: I.Guilds });
    await without.dispatch('READY');
    without.send({ op: 8, d: { guild_id: GUILDS.nightOwls, query: '', limit: 0 } });
    expect((await without.closed).code).toBe(GatewayCloseCodes.DisallowedIntents);
  });
});

describe('heartbeats', () => {
  it('closes a connection that stops heartbeating with 4009, and the session can still be resumed', async () => {
    await sandbox.close();
    sandbox = await startGatewaySandbox({ gateway: { heartbeatIntervalMs: 150, heartbeatTimeoutMs: 250 } });
    const client = await raw();
    expect(client.payloads.items[0]!.d).toEqual({ heartbeat_interval: 150 });
    client.identify({ intents: I.Guilds | I.GuildMessages | I.MessageContent });
    const ready = (await client.dispatch('READY')).d as GatewayReadyDispatchData;
    const last = (await client.dispatch('GUILD_CREATE', (g: { id: string }) => g.id === GUILDS.studyHall)).s!;
    expect((await client.closed).code).toBe(GatewayCloseCodes.SessionTimedOut);

    await say(CHANNELS.general, USERS.eli, 'while it was silent');
    const again = await raw();
    again.send({ op: 6, d: { token: BOT_TOKEN, session_id: ready.session_id, seq: last } });
    const missed = await again.dispatch('MESSAGE_CREATE');
    expect(missed).toMatchObject({ s: last + 1, d: { content: 'while it was silent' } });
    expect(await again.dispatch('RESUMED')).toMatchObject({ s: last + 2 });
  });
});
