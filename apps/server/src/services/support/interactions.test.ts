import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GUILDS } from '../../test/demo-world';
import { createTestApp, interactionSigner, useSandbox, testConfig, type TestContext } from '../../test/harness';
import { storeWhitelabelBot, studyBuddy } from '../../test/whitelabel-fixture';

const sandbox = useSandbox();

const signer = interactionSigner();
const publicKeyHex = signer.publicKeyHex;
const signed = (body: string) => signer.headers(body);

describe('the interactions endpoint POST /discord', () => {
  let ctx: TestContext;
  beforeEach(async () => {
    const base = testConfig(sandbox);
    ctx = await createTestApp(sandbox, 'sqlite', { platform: { ...base.platform, publicKey: publicKeyHex } });
  });
  afterEach(async () => {
    await ctx.close();
  });
  const post = (body: string, headers: Record<string, string>) => ctx.built.app.inject({ method: 'POST', url: '/api/support/discord', payload: body, headers });

  it('answers a signed PING with PONG', async () => {
    const body = JSON.stringify({ type: 1, id: '1', application_id: '1100000000000000001' });
    const response = await post(body, signed(body));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ type: 1 });
  });

  it('refuses a signed interaction sent again: signed more than 5 minutes from now, or already received', async () => {
    const body = (id: string) => JSON.stringify({ type: 1, id, application_id: '1100000000000000001' });
    // Well beyond and well within the bound: a slow machine takes seconds between these calls.
    const now = Math.floor(Date.now() / 1000);
    const stale = await post(body('10'), signer.headers(body('10'), String(now - 400)));
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe('The interaction’s signed timestamp is more than 5 minutes from now');
    expect((await post(body('11'), signer.headers(body('11'), String(now + 400)))).statusCode).toBe(401);
    expect((await post(body('12'), signer.headers(body('12'), String(now - 240)))).statusCode).toBe(200);
    const replay = await post(body('12'), signer.headers(body('12')));
    expect(replay.statusCode).toBe(409);
    expect(replay.json().message).toBe('Interaction 12 was already received');
  });

  it('keeps the prototype-poisoning protection of the JSON parser', async () => {
    const body = '{"type":1,"id":"13","__proto__":{"admin":true}}';
    const response = await post(body, signed(body));
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('bad_request');
  });

  it('refuses a missing, malformed or wrong signature, and a tampered body, with 401', async () => {
    const body = JSON.stringify({ type: 1 });
    expect((await post(body, { 'content-type': 'application/json' })).statusCode).toBe(401);
    expect((await post(body, { ...signed(body), 'x-signature-ed25519': 'zz' })).statusCode).toBe(401);
    const other = generateKeyPairSync('ed25519').privateKey;
    const ts = String(Math.floor(Date.now() / 1000));
    const forged = sign(null, Buffer.from(ts + body), other).toString('hex');
    expect((await post(body, { 'x-signature-ed25519': forged, 'x-signature-timestamp': ts, 'content-type': 'application/json' })).statusCode).toBe(401);
    const headers = signed(body);
    const tampered = await post(JSON.stringify({ type: 1, extra: true }), headers);
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json().message).toBe('invalid request signature');
  });

  it('tells a member clicking a panel that no longer exists, privately', async () => {
    const member = { user: { id: '1200000000000000005', username: 'eli', global_name: 'Eli' }, roles: [] };
    const body = JSON.stringify({ type: 3, guild_id: '1300000000000000001', member, data: { custom_id: 'panel:gone:subject', component_type: 2 } });
    const response = await post(body, signed(body));
    expect(response.json()).toEqual({ type: 4, data: { content: 'This panel no longer exists. Ask the server staff to send it again.', flags: 64 } });
  });
});

describe('interactions of white-label bots at POST /discord', () => {
  const encryptionKey = randomBytes(32);
  const buddy = studyBuddy();
  let ctx: TestContext;
  beforeEach(async () => {
    const base = testConfig(sandbox);
    ctx = await createTestApp(sandbox, 'sqlite', { encryptionKey, platform: { ...base.platform, publicKey: publicKeyHex } });
    await storeWhitelabelBot(ctx, encryptionKey, GUILDS.studyHall, buddy);
  });
  afterEach(async () => {
    await ctx.close();
  });
  const post = (body: string, headers: Record<string, string>) => ctx.built.app.inject({ method: 'POST', url: '/api/support/discord', payload: body, headers });
  const ping = (id: string, applicationId: string) => JSON.stringify({ type: 1, id, application_id: applicationId });

  it('accepts an interaction signed with the white-label application’s own key', async () => {
    const body = ping('21', buddy.clientId);
    const response = await post(body, buddy.headers(body));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ type: 1 });
  });

  it('refuses, with 401, one naming the white-label application but signed with the main key, and the reverse', async () => {
    const forged = ping('22', buddy.clientId);
    const response = await post(forged, signed(forged));
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('invalid request signature');
    const main = ping('23', '1100000000000000001');
    expect((await post(main, buddy.headers(main))).statusCode).toBe(401);
    // The main application's key still works for its own.
    expect((await post(main, signed(main))).statusCode).toBe(200);
  });

  it('refuses an application it does not serve, and a white-label bot once removed', async () => {
    const unknown = ping('24', '1100000000000000999');
    expect((await post(unknown, signed(unknown))).statusCode).toBe(401);
    await ctx.built.database.db.updateTable('whitelabel_bots').set({ deleted_at: new Date().toISOString(), token_sealed: null }).execute();
    const removed = ping('25', buddy.clientId);
    expect((await post(removed, buddy.headers(removed))).statusCode).toBe(401);
  });
});
