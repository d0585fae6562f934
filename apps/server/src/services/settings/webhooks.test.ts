import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { ErrorBody, PagedResult, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '@ticket/contracts';
import { now } from '../../db/database';
import { unseal } from '../../platform/crypto';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, signIn, testConfig, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { startReceiver, useReceiver, verifySignature, type Receiver } from '../../test/webhook-receiver';

const sandbox = useSandbox();

const server = GUILDS.pixelForge;
const base = `/api/settings/servers/${server}/webhooks`;
const operator = { authorization: `Admin ${ADMIN_KEY}` };

describe.each(engines)('webhook endpoints on %s', (engine) => {
  const encryptionKey = randomBytes(32);
  let ctx: TestContext;
  let owner: string; // alice owns Pixel Forge
  let admin: string; // bruno administers it
  let member: string; // eli is a plain member
  let otherAdmin: string; // chen administers Study Hall only
  const receiver = useReceiver();

  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine, { encryptionKey });
    owner = (await signIn(ctx, USERS.alice)).token;
    admin = (await signIn(ctx, USERS.bruno)).token;
    member = (await signIn(ctx, USERS.eli)).token;
    otherAdmin = (await signIn(ctx, USERS.chen)).token;
    await setPlan('enterprise');
  });
  afterEach(async () => {
    await ctx.close();
  });

  const setPlan = (plan: string) => ctx.built.database.db.updateTable('servers').set({ plan, updated_at: now() }).where('id', '=', server).execute();
  const as = (headers: Record<string, string>, method: InjectOptions['method'], url: string, payload?: unknown) =>
    ctx.built.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (body: object = { url: receiver.url, events: ['ticket.opened'] }, headers = bearer(admin)) => {
    const response = await as(headers, 'POST', base, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<WebhookEndpointWithSecret>();
  };

  it('lets the server’s admins and its API key manage endpoints, and nobody else', async () => {
    const key = (await as(bearer(owner), 'POST', `/api/authentication/api/${server}`)).json<{ key: string }>().key;
    const body = { url: receiver.url, events: ['ticket.opened'] };
    expect((await as({}, 'GET', base)).statusCode).toBe(401);
    for (const token of [member, otherAdmin]) {
      expect((await as(bearer(token), 'GET', base)).statusCode).toBe(403);
      expect((await as(bearer(token), 'POST', base, body)).statusCode).toBe(403);
    }
    const byAdmin = await create(body, bearer(admin));
    const byKey = await create(body, { authorization: `ApiKey ${key}` });
    const byOwner = await create(body, bearer(owner));
    const listed = (await as(bearer(admin), 'GET', base)).json<WebhookEndpoint[]>();
    expect(listed.map((e) => e.endpointId)).toEqual([byAdmin.endpointId, byKey.endpointId, byOwner.endpointId]);
    // Another server's path does not reach this server's endpoint.
    const elsewhere = await as(operator, 'GET', `/api/settings/servers/${GUILDS.studyHall}/webhooks/${byAdmin.endpointId}`);
    expect(elsewhere.statusCode).toBe(402); // Study Hall is not on Enterprise here
    await ctx.built.database.db.updateTable('servers').set({ plan: 'enterprise' }).where('id', '=', GUILDS.studyHall).execute();
    expect((await as(operator, 'GET', `/api/settings/servers/${GUILDS.studyHall}/webhooks/${byAdmin.endpointId}`)).statusCode).toBe(404);
  });

  it('answers 402 naming the plan on Free and Premium', async () => {
    const endpoint = await create();
    for (const [plan, name] of [
      ['premium', 'Premium'],
      ['free', 'Free'],
    ] as const) {
      await setPlan(plan);
      for (const [method, url] of [
        ['GET', base],
        ['POST', base],
        ['GET', `${base}/${endpoint.endpointId}/deliveries`],
        ['POST', `${base}/${endpoint.endpointId}/test`],
      ] as const) {
        const response = await as(bearer(admin), method, url, method === 'POST' && url === base ? { url: receiver.url, events: ['ticket.opened'] } : undefined);
        expect(response.statusCode, `${method} ${url}`).toBe(402);
        expect(response.json<ErrorBody>().message).toBe(`Webhooks are part of the Enterprise plan; this server is on the ${name} plan`);
      }
    }
  });

  it('refuses invalid input with 400 naming the field', async () => {
    const cases: [object, string][] = [
      [{ url: 'not a url', events: ['ticket.opened'] }, 'body.url'],
      [{ url: 'ftp://hooks.example.com/x', events: ['ticket.opened'] }, 'body.url'],
      [{ url: 'https://user:pass@hooks.example.com/x', events: ['ticket.opened'] }, 'body.url'],
      [{ url: receiver.url, events: [] }, 'body.events'],
      [{ url: receiver.url, events: ['ticket.exploded'] }, 'body.events.0'],
      [{ url: receiver.url, events: ['ticket.opened', 'ticket.opened'] }, 'body.events'],
      [{ url: receiver.url, events: ['ticket.opened'], description: 'x'.repeat(201) }, 'body.description'],
      [{ events: ['ticket.opened'] }, 'body.url'],
    ];
    for (const [body, field] of cases) {
      const response = await as(bearer(admin), 'POST', base, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<ErrorBody>().field, JSON.stringify(body)).toBe(field);
    }
    const endpoint = await create();
    const nothing = await as(bearer(admin), 'PATCH', `${base}/${endpoint.endpointId}`, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json<ErrorBody>().message).toContain('Nothing to update');
    const badUpdate = await as(bearer(admin), 'PATCH', `${base}/${endpoint.endpointId}`, { events: ['nope'] });
    expect(badUpdate.json<ErrorBody>().field).toBe('body.events.0');
    expect((await as(bearer(admin), 'GET', `${base}/${endpoint.endpointId}/deliveries?Amount=101`)).json<ErrorBody>().field).toBe('querystring.Amount');
    expect((await as(bearer(admin), 'GET', `${base}/no-such-endpoint`)).statusCode).toBe(404);
  });

  it('shows the secret once, stores it sealed, and rotates it', async () => {
    const created = await create({ url: receiver.url, events: ['ticket.opened'], description: 'Helpdesk sync' });
    expect(created.secret).toMatch(/^whsec_[\w-]{40,}$/);
    expect(created).toMatchObject({ serverId: server, url: receiver.url, events: ['ticket.opened'], enabled: true, description: 'Helpdesk sync', lastDelivery: null });
    expect(created.secretHint).toBe(`whsec_…${created.secret.slice(-4)}`);
    const read = await as(bearer(admin), 'GET', `${base}/${created.endpointId}`);
    expect(read.json()).not.toHaveProperty('secret');
    expect(read.body).not.toContain(created.secret);
    expect((await as(bearer(admin), 'GET', base)).body).not.toContain(created.secret);
    const row = await ctx.built.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', created.endpointId).executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(created.secret.slice(6));
    expect(unseal(row.secret, encryptionKey)).toBe(created.secret);

    const rotated = await as(bearer(admin), 'POST', `${base}/${created.endpointId}/secret`);
    expect(rotated.statusCode).toBe(200);
    const { secret } = rotated.json<WebhookEndpointWithSecret>();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.secret);
    expect((await as(bearer(admin), 'GET', `${base}/${created.endpointId}`)).json<WebhookEndpoint>().secretHint).toBe(`whsec_…${secret.slice(-4)}`);
    // What is sent from now on is signed with the new secret only.
    const test = await as(bearer(admin), 'POST', `${base}/${created.endpointId}/test`);
    expect(test.statusCode, test.body).toBe(201);
    expect(test.json<WebhookDelivery>()).toMatchObject({ event: 'webhook.test', status: 'delivered', statusCode: 200, attempts: 1 });
    const [delivery] = receiver.received;
    expect(verifySignature(secret, delivery!)).toBe(true);
    expect(verifySignature(created.secret, delivery!)).toBe(false);
    expect(JSON.parse(delivery!.body)).toMatchObject({ type: 'webhook.test', serverId: server, data: { endpointId: created.endpointId } });
  });

  it('updates, disables and deletes an endpoint with its deliveries', async () => {
    const endpoint = await create();
    const updated = await as(bearer(admin), 'PATCH', `${base}/${endpoint.endpointId}`, { events: ['ticket.closed', 'message.created'], enabled: false, description: 'Closed only' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<WebhookEndpoint>()).toMatchObject({ events: ['ticket.closed', 'message.created'], enabled: false, description: 'Closed only' });
    expect((await as(bearer(admin), 'POST', `${base}/${endpoint.endpointId}/test`)).statusCode).toBe(201);
    expect((await as(bearer(admin), 'DELETE', `${base}/${endpoint.endpointId}`)).statusCode).toBe(204);
    expect((await as(bearer(admin), 'GET', `${base}/${endpoint.endpointId}`)).statusCode).toBe(404);
    expect((await as(bearer(admin), 'DELETE', `${base}/${endpoint.endpointId}`)).statusCode).toBe(404);
    const left = await ctx.built.database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.endpointId).execute();
    expect(left).toEqual([]);
  });

  it('keeps a server to 10 endpoints', async () => {
    for (let i = 0; i < 10; i++) await create();
    const eleventh = await as(bearer(admin), 'POST', base, { url: receiver.url, events: ['ticket.opened'] });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json<ErrorBody>().message).toBe('A server can have up to 10 webhook endpoints; delete one to add another');
  });

  it('redelivers a finished delivery as a new one with the same event, and not a pending one', async () => {
    const endpoint = await create();
    receiver.answers.push(500);
    const first = (await as(bearer(admin), 'POST', `${base}/${endpoint.endpointId}/test`)).json<WebhookDelivery>();
    expect(first).toMatchObject({ status: 'pending', statusCode: 500, attempts: 1 });
    expect(first.nextAttemptAt).not.toBeNull();
    const early = await as(bearer(admin), 'POST', `${base}/${endpoint.endpointId}/deliveries/${first.deliveryId}/resend`);
    expect(early.statusCode).toBe(409);
    await ctx.built.database.db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null }).where('id', '=', first.deliveryId).execute();
    const again = await as(bearer(admin), 'POST', `${base}/${endpoint.endpointId}/deliveries/${first.deliveryId}/resend`);
    expect(again.statusCode, again.body).toBe(201);
    const resent = again.json<WebhookDelivery>();
    expect(resent).toMatchObject({ status: 'delivered', statusCode: 200, eventId: first.eventId, redeliveryOf: first.deliveryId, attempts: 1 });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([first.eventId, first.eventId]);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    const page = (await as(bearer(admin), 'GET', `${base}/${endpoint.endpointId}/deliveries?status=failed`)).json<PagedResult<WebhookDelivery>>();
    expect(page.elements.map((d) => d.deliveryId)).toEqual([first.deliveryId]);
    const missing = await as(bearer(admin), 'POST', `${base}/${endpoint.endpointId}/deliveries/nothing-here/resend`);
    expect(missing.statusCode).toBe(404);
  });
});

describe.each(engines)('webhook endpoint addresses on %s, private addresses not allowed', (engine) => {
  let ctx: TestContext;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    const { webhooks } = testConfig(sandbox);
    ctx = await createTestApp(sandbox, engine, { webhooks: { ...webhooks, allowPrivate: false, allowHttp: false } });
    await signIn(ctx, USERS.alice); // the dashboard learns of her servers
    await ctx.built.database.db.updateTable('servers').set({ plan: 'enterprise' }).where('id', '=', server).execute();
  });
  afterAll(async () => {
    await ctx?.close();
    await receiver.close();
  });

  const post = (url: string) => ctx.built.app.inject({ method: 'POST', url: base, headers: operator, payload: { url, events: ['ticket.opened'] } });

  it('refuses plain http, and hosts that are or resolve to private, loopback, link-local or reserved addresses', async () => {
    const refused: [string, RegExp][] = [
      ['http://hooks.example.com/x', /https/],
      ['https://127.0.0.1/hook', /127\.0\.0\.1 is a private, loopback, link-local or otherwise reserved address/],
      ['https://localhost/hook', /The host localhost resolves to (127\.0\.0\.1|::1), a private/],
      ['https://10.1.2.3/hook', /reserved address/],
      ['https://192.168.0.10/hook', /reserved address/],
      ['https://169.254.169.254/latest/meta-data', /reserved address/],
      ['https://[::1]/hook', /::1 is a private/],
      ['https://[fd00::1]/hook', /reserved address/],
      ['https://[::ffff:127.0.0.1]/hook', /reserved address/],
      ['https://0.0.0.0/hook', /reserved address/],
    ];
    for (const [url, message] of refused) {
      const response = await post(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json<ErrorBody>(), url).toMatchObject({ field: 'body.url', message: expect.stringMatching(message) });
    }
    // A public address passes (as an IP literal: nothing to resolve here).
    expect((await post('https://93.184.216.34/hook')).statusCode).toBe(201);
  });

  it('checks the address again when delivering: a host that now points inside is not reached', async () => {
    const created = (await post('https://93.184.216.34/hook')).json<WebhookEndpointWithSecret>();
    // The endpoint's host changed its mind (as DNS can): it now points at a loopback address.
    await ctx.built.database.db.updateTable('webhook_endpoints').set({ url: `https://localhost:${receiver.port}/hook` }).where('id', '=', created.endpointId).execute();
    const test = await ctx.built.app.inject({ method: 'POST', url: `${base}/${created.endpointId}/test`, headers: operator });
    expect(test.json<WebhookDelivery>()).toMatchObject({ status: 'pending', statusCode: null, error: expect.stringMatching(/resolves to .*reserved address/) });
    await ctx.built.database.db.updateTable('webhook_endpoints').set({ url: `https://127.0.0.1:${receiver.port}/hook` }).where('id', '=', created.endpointId).execute();
    const literal = await ctx.built.app.inject({ method: 'POST', url: `${base}/${created.endpointId}/test`, headers: operator });
    expect(literal.json<WebhookDelivery>()).toMatchObject({ statusCode: null, error: expect.stringMatching(/reserved address/) });
    expect(receiver.received).toEqual([]);
  });
});
