import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { GatewayCloseCodes, GatewayIntentBits as I } from 'discord-api-types/v10';
import type { APIMessage, APIUser, GatewayGuildCreateDispatchData, GatewayMessageCreateDispatchData, GatewayReadyDispatchData } from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RawGatewayClient, call, startGatewaySandbox } from './gateway-test-support.ts';
import type { GatewayPayload } from './gateway-test-support.ts';
import type { RunningSandbox } from './index.ts';
import { startEndpoint } from './test-endpoint.ts';
import type { TestEndpoint } from './test-endpoint.ts';
import { BOT_ID, BOT_TOKEN, GUILDS, USERS } from './test-support.ts';

/** The demo's white-label applications (fixtures/demo.json). */
const STUDY_BUDDY = {
  id: '1100000000000000101',
  token: 'MTEwMDAwMDAwMDAwMDAwMDEwMQ.E--lXY.A3AbhSLdCfjpzJY3v-QUqFoMAqo6qhdTLY5tuE',
  publicKey: 'c30da41f2f67324774c6bcf34b94ba033cb273614d9735f664cdb07d71f9bce3',
};
const NIGHT_WATCH = { id: '1100000000000000102', token: 'MTEwMDAwMDAwMDAwMDAwMDEwMg.QPuTNd.Yjs0I86u0qaKm5GvJmFo65lPtC1upRwKhepUWc' };
const HOMEWORK_HELP = '1300000000000000604';
const PIXEL_GENERAL = '1300000000000000110';
const UNAUTHORIZED = { message: '401: Unauthorized', code: 0 };
const INTENTS = I.Guilds | I.GuildMembers | I.GuildMessages | I.MessageContent;

interface ApplicationView {
  id: string;
  name: string;
  botToken: string | null;
  tokenRevoked: boolean;
  botUserId: string;
  publicKey: string;
  privateKey: string;
  whiteLabel: boolean;
  guilds: string[];
  privilegedIntents: Record<string, boolean>;
  interactionsUrl: string | null;
}

let sandbox: RunningSandbox;
const clients: RawGatewayClient[] = [];
let endpoint: TestEndpoint | null = null;

beforeEach(async () => {
  sandbox = await startGatewaySandbox();
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await endpoint?.close();
  endpoint = null;
  await sandbox.close();
});

const asBot = (token: string) => ({ authorization: `Bot ${token}` });
const rest = (method: string, path: string, token: string, body?: unknown) => call(sandbox, method, `/api/v10${path}`, body, asBot(token));
const control = (method: string, path: string, body?: unknown) => call(sandbox, method, `/_sandbox${path}`, body);

/** A session identified with the token, its READY read. */
async function connect(token: string, intents = INTENTS): Promise<{ client: RawGatewayClient; ready: GatewayReadyDispatchData }> {
  const client = await RawGatewayClient.open(`${sandbox.gatewayUrl}?v=10&encoding=json`);
  clients.push(client);
  await client.next((p) => p.op === 10, 'HELLO');
  client.identify({ intents, token });
  const ready = (await client.dispatch('READY')).d as GatewayReadyDispatchData;
  return { client, ready };
}

const guildCreates = (client: RawGatewayClient) => client.dispatches('GUILD_CREATE').map((p) => (p.d as GatewayGuildCreateDispatchData).id);
const messagesIn = (client: RawGatewayClient, channelId: string) =>
  client.dispatches('MESSAGE_CREATE').filter((p: GatewayPayload) => (p.d as GatewayMessageCreateDispatchData).channel_id === channelId);

describe('the white-label applications of the fixtures', () => {
  it('are listed with their tokens, ids and a key pair that signs as their public key says', async () => {
    const { status, json } = await control('GET', '/applications');
    expect(status).toBe(200);
    const apps = (json as { applications: ApplicationView[] }).applications;
    expect(apps.map((a) => [a.id, a.name, a.whiteLabel])).toEqual([
      [BOT_ID, 'Ticket Bot', false],
      [STUDY_BUDDY.id, 'Study Buddy', true],
      [NIGHT_WATCH.id, 'Night Watch', true],
    ]);
    const buddy = apps[1]!;
    expect(buddy).toMatchObject({ botToken: STUDY_BUDDY.token, botUserId: STUDY_BUDDY.id, publicKey: STUDY_BUDDY.publicKey, guilds: [GUILDS.studyHall] });
    expect(apps[2]).toMatchObject({ botToken: NIGHT_WATCH.token, guilds: [] });
    expect(apps[0]).toMatchObject({ botToken: BOT_TOKEN, guilds: [GUILDS.pixelForge, GUILDS.nightOwls, GUILDS.studyHall] });
    // The private key is the one behind the public key: a signature made with it verifies.
    const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(buddy.privateKey, 'hex')]);
    const signature = sign(null, Buffer.from('hello'), createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(buddy.publicKey, 'hex').toString('base64url') }, format: 'jwk' });
    expect(verify(null, Buffer.from('hello'), publicKey, signature)).toBe(true);
    expect((await control('GET', `/applications/${NIGHT_WATCH.id}`)).json).toMatchObject({ id: NIGHT_WATCH.id, botUsername: 'Night Watch' });
    expect((await control('GET', '/applications/1100000000000000999')).status).toBe(404);
  });
});

describe('REST with a white-label bot token', () => {
  it('acts as that bot: its user, its application (with its verify key), its guilds', async () => {
    const me = await rest('GET', '/users/@me', STUDY_BUDDY.token);
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ id: STUDY_BUDDY.id, username: 'Study Buddy', bot: true, avatar: '4ad4dd802c867e87cacabf1f7d156da2' } satisfies Partial<APIUser>);
    for (const path of ['/applications/@me', '/oauth2/applications/@me']) {
      const app = await rest('GET', path, STUDY_BUDDY.token);
      expect(app.status).toBe(200);
      expect(app.json).toMatchObject({
        id: STUDY_BUDDY.id,
        name: 'Study Buddy',
        icon: 'fe8183035cbe2ddb488460969daf95ce',
        verify_key: STUDY_BUDDY.publicKey,
        bot: { id: STUDY_BUDDY.id, username: 'Study Buddy', bot: true },
        approximate_guild_count: 1,
      });
    }
    // The main application's verify key is its own public key, not a placeholder.
    expect((await rest('GET', '/applications/@me', BOT_TOKEN)).json).toMatchObject({ id: BOT_ID, verify_key: sandbox.publicKey });
    expect(((await rest('GET', '/users/@me/guilds', STUDY_BUDDY.token)).json as { id: string }[]).map((g) => g.id)).toEqual([GUILDS.studyHall]);
    expect((await rest('GET', `/guilds/${GUILDS.studyHall}`, STUDY_BUDDY.token)).status).toBe(200);
    expect((await rest('GET', `/guilds/${GUILDS.pixelForge}`, STUDY_BUDDY.token)).json).toEqual({ message: 'Unknown Guild', code: 10004 });
    expect((await rest('GET', `/guilds/${GUILDS.pixelForge}/channels`, STUDY_BUDDY.token)).json).toEqual({ message: 'Missing Access', code: 50001 });
    // Both bots are members of Study Hall, each with its managed role.
    const members = (await rest('GET', `/guilds/${GUILDS.studyHall}/members?limit=1000`, BOT_TOKEN)).json as { user: APIUser; roles: string[] }[];
    expect(members.filter((m) => m.user.bot).map((m) => [m.user.id, m.roles])).toEqual([
      [BOT_ID, ['1300000000000000034']],
      [STUDY_BUDDY.id, ['1300000000000000035']],
    ]);
  });

  it('posts, edits and deletes messages as its own bot user, and cannot edit the other bot’s', async () => {
    const posted = await rest('POST', `/channels/${HOMEWORK_HELP}/messages`, STUDY_BUDDY.token, { content: 'Hi from Study Buddy' });
    expect(posted.status).toBe(200);
    const message = posted.json as APIMessage;
    expect(message.author).toMatchObject({ id: STUDY_BUDDY.id, username: 'Study Buddy', bot: true });
    const mainPost = (await rest('POST', `/channels/${HOMEWORK_HELP}/messages`, BOT_TOKEN, { content: 'Hi from the main bot' })).json as APIMessage;
    expect(mainPost.author.id).toBe(BOT_ID);
    expect((await rest('PATCH', `/channels/${HOMEWORK_HELP}/messages/${mainPost.id}`, STUDY_BUDDY.token, { content: 'taken over' })).json).toEqual({
      message: 'Cannot edit a message authored by another user',
      code: 50005,
    });
    expect((await rest('PATCH', `/channels/${HOMEWORK_HELP}/messages/${message.id}`, STUDY_BUDDY.token, { content: 'Edited' })).status).toBe(200);
    expect((await rest('DELETE', `/channels/${HOMEWORK_HELP}/messages/${message.id}`, STUDY_BUDDY.token)).status).toBe(204);
    // Where it is not a member, it has no access.
    expect((await rest('POST', `/channels/${PIXEL_GENERAL}/messages`, STUDY_BUDDY.token, { content: 'x' })).json).toEqual({ message: 'Missing Access', code: 50001 });
  });

  it('has its own DM channel with a user, which the main bot cannot post in', async () => {
    const dm = (await rest('POST', '/users/@me/channels', STUDY_BUDDY.token, { recipient_id: USERS.dana })).json as { id: string };
    const mainDm = (await rest('POST', '/users/@me/channels', BOT_TOKEN, { recipient_id: USERS.dana })).json as { id: string };
    expect(dm.id).not.toBe(mainDm.id);
    expect((await rest('POST', `/channels/${dm.id}/messages`, STUDY_BUDDY.token, { content: 'Your ticket is open' })).status).toBe(200);
    expect((await rest('POST', `/channels/${dm.id}/messages`, BOT_TOKEN, { content: 'hijack' })).status).toBe(403);
    const { messages } = (await control('GET', `/direct-messages?userId=${USERS.dana}`)).json as { messages: { applicationId: string; content: string }[] };
    expect(messages.map((m) => [m.applicationId, m.content])).toEqual([[STUDY_BUDDY.id, 'Your ticket is open']]);
  });

  it('joins a guild only when invited, through the install flow like the main bot', async () => {
    expect((await rest('GET', `/guilds/${GUILDS.studyHall}/channels`, NIGHT_WATCH.token)).status).toBe(403);
    // Chen manages Study Hall: he adds Night Watch with its own client id.
    const form = new URLSearchParams({ client_id: NIGHT_WATCH.id, scope: 'bot', permissions: '3072', guild_id: GUILDS.studyHall, user_id: USERS.chen, action: 'authorize' });
    const page = await fetch(`${sandbox.url}/oauth2/authorize?client_id=${NIGHT_WATCH.id}&scope=bot&permissions=3072`);
    expect(await page.text()).toContain('Night Watch');
    const installed = await fetch(`${sandbox.url}/oauth2/authorize`, { method: 'POST', body: form });
    expect(installed.status).toBe(200);
    expect(await installed.text()).toContain('Night Watch was added to Study Hall');
    expect((await rest('GET', `/guilds/${GUILDS.studyHall}/channels`, NIGHT_WATCH.token)).status).toBe(200);
    const roles = (await rest('GET', `/guilds/${GUILDS.studyHall}/roles`, NIGHT_WATCH.token)).json as { name: string; managed: boolean; permissions: string; tags?: { bot_id?: string } }[];
    expect(roles.find((r) => r.tags?.bot_id === NIGHT_WATCH.id)).toMatchObject({ name: 'Night Watch', managed: true, permissions: '3072' });
    // The control route does the same, for any application; leaving with REST takes only that bot out.
    expect((await control('POST', `/guilds/${GUILDS.pixelForge}/bot`, { member: true, applicationId: NIGHT_WATCH.id })).json).toEqual({
      guildId: GUILDS.pixelForge,
      applicationId: NIGHT_WATCH.id,
      botMember: true,
    });
    expect((await rest('DELETE', `/users/@me/guilds/${GUILDS.studyHall}`, NIGHT_WATCH.token)).status).toBe(204);
    const state = (await control('GET', '/state')).json as { guilds: { id: string; bots: string[] }[] };
    expect(state.guilds.find((g) => g.id === GUILDS.studyHall)!.bots).toEqual([BOT_ID, STUDY_BUDDY.id]);
    expect(state.guilds.find((g) => g.id === GUILDS.pixelForge)!.bots).toEqual([BOT_ID, NIGHT_WATCH.id]);
    expect((await control('POST', `/guilds/${GUILDS.pixelForge}/bot`, { member: true, applicationId: '1100000000000000999' })).status).toBe(404);
  });
});

describe('the gateway for a white-label bot', () => {
  it('answers READY with its user and application, and dispatches only its guilds', async () => {
    const buddy = await connect(STUDY_BUDDY.token);
    expect(buddy.ready).toMatchObject({
      user: { id: STUDY_BUDDY.id, username: 'Study Buddy', bot: true },
      application: { id: STUDY_BUDDY.id },
      guilds: [{ id: GUILDS.studyHall, unavailable: true }],
    });
    await buddy.client.dispatch('GUILD_CREATE');
    const main = await connect(BOT_TOKEN);
    await main.client.dispatch('GUILD_CREATE', (d: GatewayGuildCreateDispatchData) => d.id === GUILDS.studyHall);
    expect(guildCreates(buddy.client)).toEqual([GUILDS.studyHall]);
    expect((await call(sandbox, 'GET', '/api/v10/gateway/bot', undefined, asBot(STUDY_BUDDY.token))).json).toMatchObject({ shards: 1 });

    // A member writes in Study Hall: both bots hear it. In Pixel Forge: only the main one.
    await control('POST', `/channels/${HOMEWORK_HELP}/messages`, { userId: USERS.dana, content: 'Can someone help?' });
    await control('POST', `/channels/${PIXEL_GENERAL}/messages`, { userId: USERS.alice, content: 'Hello Pixel Forge' });
    await main.client.dispatch('MESSAGE_CREATE', (d: GatewayMessageCreateDispatchData) => d.channel_id === PIXEL_GENERAL);
    await buddy.client.dispatch('MESSAGE_CREATE', (d: GatewayMessageCreateDispatchData) => d.channel_id === HOMEWORK_HELP);
    expect(messagesIn(main.client, HOMEWORK_HELP)).toHaveLength(1);
    expect(messagesIn(buddy.client, PIXEL_GENERAL)).toHaveLength(0);

    // Night Watch joins Pixel Forge: GUILD_CREATE reaches its own session, not the others.
    const watch = await connect(NIGHT_WATCH.token);
    expect(watch.ready.guilds).toEqual([]);
    await control('POST', `/guilds/${GUILDS.pixelForge}/bot`, { member: true, applicationId: NIGHT_WATCH.id });
    const joined = (await watch.client.dispatch('GUILD_CREATE')).d as GatewayGuildCreateDispatchData;
    expect(joined).toMatchObject({ id: GUILDS.pixelForge, members: expect.arrayContaining([expect.objectContaining({ user: expect.objectContaining({ id: NIGHT_WATCH.id }) })]) });
    await control('POST', `/guilds/${GUILDS.pixelForge}/bot`, { member: false, applicationId: NIGHT_WATCH.id });
    await watch.client.dispatch('GUILD_DELETE');
    expect(main.client.dispatches('GUILD_DELETE')).toHaveLength(0);
    expect(guildCreates(buddy.client)).toEqual([GUILDS.studyHall]);
    const sessions = (await control('GET', '/gateway/sessions')).json as { sessions: { applicationId: string }[] };
    expect(sessions.sessions.map((s) => s.applicationId).sort()).toEqual([BOT_ID, STUDY_BUDDY.id, NIGHT_WATCH.id].sort());
  });

  it('closes with 4014 when a privileged intent is switched off for that application only', async () => {
    const changed = await control('PATCH', `/applications/${STUDY_BUDDY.id}`, { privilegedIntents: { messageContent: false } });
    expect(changed.json).toMatchObject({ privilegedIntents: { guildMembers: true, guildPresences: true, messageContent: false } });
    const client = await RawGatewayClient.open(`${sandbox.gatewayUrl}?v=10&encoding=json`);
    clients.push(client);
    await client.next((p) => p.op === 10, 'HELLO');
    client.identify({ intents: INTENTS, token: STUDY_BUDDY.token });
    expect(await client.closed).toEqual({ code: GatewayCloseCodes.DisallowedIntents, reason: 'Disallowed intent(s)' });
    // Without the intent it connects; the main bot still may ask for it.
    await connect(STUDY_BUDDY.token, I.Guilds | I.GuildMessages);
    await connect(BOT_TOKEN);
    expect((await control('PATCH', `/applications/${STUDY_BUDDY.id}`, { privilegedIntents: { messageContent: 'no' } })).status).toBe(400);
    expect((await control('PATCH', `/applications/${STUDY_BUDDY.id}`, { colour: 'red' })).status).toBe(400);
  });
});

describe('revoking and resetting a bot token', () => {
  it('answers 401 to the old token and closes its gateway sessions with 4004, leaving other bots alone', async () => {
    const buddy = await connect(STUDY_BUDDY.token);
    const main = await connect(BOT_TOKEN);
    const revoked = await control('DELETE', `/applications/${STUDY_BUDDY.id}/token`);
    expect(revoked.json).toMatchObject({ id: STUDY_BUDDY.id, botToken: null, tokenRevoked: true });
    expect(await buddy.client.closed).toEqual({ code: GatewayCloseCodes.AuthenticationFailed, reason: 'Authentication failed' });
    const refused = await rest('GET', '/users/@me', STUDY_BUDDY.token);
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual(UNAUTHORIZED);
    expect((await rest('GET', '/applications/@me', STUDY_BUDDY.token)).json).toEqual(UNAUTHORIZED);
    // Identifying (or resuming) with it fails the same way.
    const again = await RawGatewayClient.open(`${sandbox.gatewayUrl}?v=10&encoding=json`);
    clients.push(again);
    await again.next((p) => p.op === 10, 'HELLO');
    again.identify({ intents: INTENTS, token: STUDY_BUDDY.token });
    expect((await again.closed).code).toBe(GatewayCloseCodes.AuthenticationFailed);
    // The main bot's session is untouched.
    expect(main.client.socket.readyState).toBe(main.client.socket.OPEN);
    expect((await rest('GET', '/users/@me', BOT_TOKEN)).status).toBe(200);

    // A reset brings a new token; a reset of the sandbox brings back the fixture's.
    const reset = (await control('POST', `/applications/${STUDY_BUDDY.id}/token`)).json as ApplicationView;
    expect(reset.botToken).toMatch(/^MTEwMDAwMDAwMDAwMDAwMDEwMQ\.[\w-]{6}\.[\w-]{38}$/);
    expect((await rest('GET', '/users/@me', reset.botToken!)).json).toMatchObject({ id: STUDY_BUDDY.id });
    const renewed = await connect(reset.botToken!);
    await control('POST', '/reset');
    expect((await renewed.client.closed).code).toBe(GatewayCloseCodes.AuthenticationFailed);
    expect((await rest('GET', '/users/@me', reset.botToken!)).status).toBe(401);
    expect((await rest('GET', '/users/@me', STUDY_BUDDY.token)).status).toBe(200);
  });
});

describe('a new application', () => {
  it('answers its token, ids and keys; its bot works at once and is gone after a reset', async () => {
    const created = await control('POST', '/applications', { name: 'Garden Helper', privilegedIntents: { guildPresences: false } });
    expect(created.status).toBe(201);
    const app = created.json as ApplicationView;
    expect(app).toMatchObject({ name: 'Garden Helper', whiteLabel: true, guilds: [], tokenRevoked: false, privilegedIntents: { guildPresences: false } });
    expect(app.botUserId).toBe(app.id);
    expect(app.botToken).toMatch(/^[\w-]{20,}\.[\w-]{6}\.[\w-]{38}$/);
    expect(app.publicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(app.privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect((await rest('GET', '/applications/@me', app.botToken!)).json).toMatchObject({ id: app.id, name: 'Garden Helper', verify_key: app.publicKey, approximate_guild_count: 0 });
    const session = await connect(app.botToken!, I.Guilds);
    expect(session.ready).toMatchObject({ user: { id: app.id, username: 'Garden Helper' }, guilds: [] });
    expect((await control('POST', '/applications', {})).status).toBe(400);
    expect((await control('POST', '/applications', { name: 'x', token: 'mine' })).status).toBe(400);

    await control('POST', '/reset');
    expect((await session.client.closed).code).toBe(GatewayCloseCodes.AuthenticationFailed);
    expect((await rest('GET', '/users/@me', app.botToken!)).status).toBe(401);
    expect((await control('GET', `/applications/${app.id}`)).status).toBe(404);
  });
});

describe('interactions with a white-label bot’s messages', () => {
  const PANEL = { content: 'Need help?', components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Open ticket', custom_id: 'ticket:open' }] }] };

  it('are signed with that application’s key and carry its application id; its bot answers', async () => {
    endpoint = await startEndpoint(() => ({ status: 200, body: { type: 4, data: { content: 'Ticket opened', flags: 64 } } }));
    await control('PUT', '/config', { interactionsUrl: `${endpoint.url}/interactions` });
    const panel = (await rest('POST', `/channels/${HOMEWORK_HELP}/messages`, STUDY_BUDDY.token, PANEL)).json as APIMessage;
    const click = await control('POST', '/interactions/component', { guildId: GUILDS.studyHall, channelId: HOMEWORK_HELP, messageId: panel.id, userId: USERS.dana, customId: 'ticket:open' });
    expect(click.status).toBe(200);
    const [request] = endpoint.requests;
    expect(request!.json).toMatchObject({ application_id: STUDY_BUDDY.id, message: { id: panel.id, author: { id: STUDY_BUDDY.id } } });
    const signed = Buffer.from(String(request!.headers['x-signature-timestamp']) + request!.body);
    const signature = Buffer.from(String(request!.headers['x-signature-ed25519']), 'hex');
    const keyOf = (hex: string) => createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') }, format: 'jwk' });
    expect(verify(null, signed, keyOf(STUDY_BUDDY.publicKey), signature)).toBe(true);
    expect(verify(null, signed, keyOf(sandbox.publicKey), signature)).toBe(false);
    const { interaction } = click.json as { interaction: { applicationId: string; token: string; original: APIMessage } };
    expect(interaction.applicationId).toBe(STUDY_BUDDY.id);
    expect(interaction.original).toMatchObject({ author: { id: STUDY_BUDDY.id }, application_id: STUDY_BUDDY.id, webhook_id: STUDY_BUDDY.id });
    // Follow-ups go through that application's webhook; another application's id is an unknown webhook.
    expect((await call(sandbox, 'POST', `/api/v10/webhooks/${BOT_ID}/${interaction.token}`, { content: 'x' })).json).toEqual({ message: 'Unknown Webhook', code: 10015 });
    const followUp = await call(sandbox, 'POST', `/api/v10/webhooks/${STUDY_BUDDY.id}/${interaction.token}`, { content: 'More help' });
    expect(followUp.json).toMatchObject({ author: { id: STUDY_BUDDY.id }, content: 'More help' });
  });

  it('go to its gateway sessions alone when it has no endpoint of its own', async () => {
    endpoint = await startEndpoint();
    await control('PUT', '/config', { interactionsUrl: `${endpoint.url}/interactions` });
    const cleared = await control('PATCH', `/applications/${STUDY_BUDDY.id}`, { interactionsUrl: null });
    expect(cleared.json).toMatchObject({ interactionsUrl: null, interactionsUrlSource: 'application' });
    const panel = (await rest('POST', `/channels/${HOMEWORK_HELP}/messages`, STUDY_BUDDY.token, PANEL)).json as APIMessage;
    const click = () => control('POST', '/interactions/component', { guildId: GUILDS.studyHall, channelId: HOMEWORK_HELP, messageId: panel.id, userId: USERS.dana, customId: 'ticket:open' });
    // No session of Study Buddy: nothing would receive it, whatever the main bot holds.
    const main = await connect(BOT_TOKEN);
    expect((await click()).status).toBe(409);
    const buddy = await connect(STUDY_BUDDY.token);
    const clicked = click();
    const created = (await buddy.client.dispatch('INTERACTION_CREATE')).d as { id: string; token: string; application_id: string };
    expect(created.application_id).toBe(STUDY_BUDDY.id);
    await call(sandbox, 'POST', `/api/v10/interactions/${created.id}/${created.token}/callback`, { type: 6 });
    expect((await clicked).status).toBe(200);
    expect(main.client.dispatches('INTERACTION_CREATE')).toHaveLength(0);
    expect(endpoint.requests).toHaveLength(0);
    expect((await control('PATCH', `/applications/${BOT_ID}`, { interactionsUrl: null })).status).toBe(400);
  });
});
