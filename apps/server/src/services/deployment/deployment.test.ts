import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { WHITELABEL_CHANGES_CHANNEL, type ErrorBody, type PagedResult, type WhitelabelChangeNotice, type WhitelabelEntry } from '@ticket/contracts';
import { buildApp } from '../../app';
import { now } from '../../db/database';
import { unseal } from '../../platform/crypto';
import { ADMIN_KEY, bearer, createTestApp, engines, freshDatabase, resetSandbox, signIn, testConfig, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';

const sandbox = useSandbox();

/** The sandbox's white-label applications (apps/sandbox/fixtures/demo.json). */
const STUDY_BUDDY = {
  id: '1100000000000000101',
  token: 'MTEwMDAwMDAwMDAwMDAwMDEwMQ.E--lXY.A3AbhSLdCfjpzJY3v-QUqFoMAqo6qhdTLY5tuE',
  avatar: '4ad4dd802c867e87cacabf1f7d156da2',
};
const NIGHT_WATCH = { id: '1100000000000000102', token: 'MTEwMDAwMDAwMDAwMDAwMDEwMg.QPuTNd.Yjs0I86u0qaKm5GvJmFo65lPtC1upRwKhepUWc' };
/** Well formed, but no application's. */
const UNKNOWN_TOKEN = `${Buffer.from('1100000000000000999').toString('base64url')}.AbCdEf.${'x'.repeat(38)}`;
const A = GUILDS.pixelForge; // Alice owns it, Bruno is an admin, Dana staff, Eli a member
const PREMIUM = GUILDS.nightOwls; // Bruno owns it
const OPERATOR = { authorization: `Admin ${ADMIN_KEY}` };

const control = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
};
/** A new application at the platform, as another customer would make for their server. */
const newApplication = async (name: string) => (await control('POST', '/applications', { name })) as { id: string; botToken: string };

/** A snowflake whose server falls on `shard` of `count` by the platform's formula. */
const serverOnShard = (shard: number, count: number, salt: number) => ((BigInt((1_000_000 + salt) * count + shard) << 22n) | 7n).toString();

describe.each(engines)('white-label bots on %s', (engine) => {
  let ctx: TestContext;
  let alice: string;
  let bruno: string;
  let dana: string;
  let chen: string;
  let eli: string;

  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    const tokens: string[] = [];
    for (const id of [USERS.alice, USERS.bruno, USERS.dana, USERS.chen, USERS.eli]) tokens.push((await signIn(ctx, id)).token);
    [alice, bruno, dana, chen, eli] = tokens as [string, string, string, string, string];
    await setPlan(A, 'enterprise');
    await setPlan(PREMIUM, 'premium');
  });
  afterEach(async () => {
    await ctx?.close();
  });

  const setPlan = (serverId: string, plan: string) => ctx.built.database.db.updateTable('servers').set({ plan, updated_at: now() }).where('id', '=', serverId).execute();
  const inject = (options: InjectOptions) => ctx.built.app.inject(options);
  const as = (headers: Record<string, string>, method: InjectOptions['method'], url: string, payload?: unknown) =>
    inject({ method, url: `/api/deployment${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const user = (token: string) => bearer(token);
  const rows = () => ctx.built.database.db.selectFrom('whitelabel_bots').selectAll().execute();
  const setUp = (serverId: string = A, token: string = STUDY_BUDDY.token, who: Record<string, string> = user(alice)) => as(who, 'POST', `/whitelabel/${serverId}`, { token, activity: 'Helping with homework' });

  describe('setting a bot up', () => {
    it('reads the bot from the platform with its token and answers the entry, without the token', async () => {
      expect((await as(user(alice), 'GET', `/whitelabel/${A}`)).json<ErrorBody>()).toMatchObject({ statusCode: 404, message: 'This server has no white-label bot' });
      const created = await setUp();
      expect(created.statusCode).toBe(201);
      const entry = created.json<WhitelabelEntry>();
      expect(entry).toEqual({
        serverId: A,
        activity: 'Helping with homework',
        userId: STUDY_BUDDY.id,
        name: 'Study Buddy',
        avatarUrl: `${sandbox.url}/cdn/avatars/${STUDY_BUDDY.id}/${STUDY_BUDDY.avatar}.png`,
        status: 'NotRunning',
        statusMessage: null,
        clientId: STUDY_BUDDY.id,
        revision: 1,
      });
      expect((await as(user(bruno), 'GET', `/whitelabel/${A}`)).json()).toEqual(entry);
      // The application's public key is kept, for its signed interactions.
      const [row] = await rows();
      const app = (await control('GET', `/applications/${STUDY_BUDDY.id}`)) as { publicKey: string };
      expect(row).toMatchObject({ server_id: A, client_id: STUDY_BUDDY.id, public_key: app.publicKey, created_by: USERS.alice });
    });

    it('answers 400 "Invalid token" for a token the platform refuses, and stores nothing', async () => {
      const refused = await setUp(A, UNKNOWN_TOKEN);
      expect(refused.statusCode).toBe(400);
      expect(refused.json<ErrorBody>()).toMatchObject({ message: 'Invalid token', field: 'token' });
      // A revoked token is refused the same way, as the platform refuses it.
      await control('DELETE', `/applications/${STUDY_BUDDY.id}/token`);
      expect((await setUp()).json<ErrorBody>()).toMatchObject({ statusCode: 400, message: 'Invalid token' });
      expect(await rows()).toEqual([]);
      expect((await as(user(alice), 'GET', `/whitelabel/${A}`)).statusCode).toBe(404);
      // Not even shaped like a token: refused before the platform is asked.
      const malformed = await setUp(A, 'not-a-token');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json<ErrorBody>().field).toBe('body.token');
    });

    it('gives one application to one server', async () => {
      expect((await setUp()).statusCode).toBe(201);
      await setPlan(GUILDS.studyHall, 'enterprise');
      const taken = await setUp(GUILDS.studyHall, STUDY_BUDDY.token, user(chen));
      expect(taken.statusCode).toBe(409);
      expect(taken.json<ErrorBody>().message).toBe('This bot is already the white-label bot of another server');
      // Once removed from the first server it is free again.
      expect((await as(user(alice), 'DELETE', `/whitelabel/${A}`)).statusCode).toBe(204);
      expect((await setUp(GUILDS.studyHall, STUDY_BUDDY.token, user(chen))).statusCode).toBe(201);
    });
  });

  describe('who may', () => {
    it('is an admin of an Enterprise server, or an operator; never staff, members, other servers’ admins or the API key', async () => {
      expect((await setUp()).statusCode).toBe(201);
      const key = (await inject({ method: 'POST', url: `/api/authentication/api/${A}`, headers: user(alice) })).json<{ key: string }>().key;
      const calls: [InjectOptions['method'], string, unknown?][] = [
        ['GET', `/whitelabel/${A}`],
        ['POST', `/whitelabel/${A}`, { token: NIGHT_WATCH.token }],
        ['PATCH', `/whitelabel/${A}`, { activity: 'x' }],
        ['POST', `/whitelabel/${A}/start`],
        ['DELETE', `/whitelabel/${A}`],
      ];
      for (const [method, url, body] of calls) {
        for (const [who, headers] of [
          ['staff', user(dana)],
          ['member', user(eli)],
          ['another server’s admin', user(chen)],
          ['the server’s API key', bearer(key)],
        ] as const) {
          expect((await as(headers, method, url, body)).statusCode, `${method} ${url} as ${who}`).toBe(403);
        }
      }
      for (const [method, url] of [
        ['GET', '/whitelabel'],
        ['POST', '/whitelabel/bulk'],
        ['PUT', `/whitelabel/${A}/status`],
      ] as const) {
        expect((await as(user(alice), method, url, method === 'GET' ? undefined : method === 'PUT' ? { status: 'Running' } : { ids: [A] })).statusCode).toBe(403);
      }
      expect((await as(OPERATOR, 'PATCH', `/whitelabel/${A}`, { activity: 'Set by an operator' })).json<WhitelabelEntry>().activity).toBe('Set by an operator');
      expect((await as(user(bruno), 'POST', `/whitelabel/${A}/start`)).statusCode).toBe(202);
      expect((await as({}, 'GET', `/whitelabel/${A}`)).statusCode).toBe(401);
    });

    it('answers 402 naming the Enterprise plan on a Premium server, and stores nothing', async () => {
      const refused = await setUp(PREMIUM, STUDY_BUDDY.token, user(bruno));
      expect(refused.statusCode).toBe(402);
      expect(refused.json<ErrorBody>().message).toBe('The white-label bot is part of the Enterprise plan; this server is on the Premium plan');
      expect((await as(user(bruno), 'PATCH', `/whitelabel/${PREMIUM}`, { activity: 'x' })).statusCode).toBe(402);
      expect((await as(user(bruno), 'POST', `/whitelabel/${PREMIUM}/start`)).statusCode).toBe(402);
      expect((await as(user(bruno), 'GET', `/whitelabel/${PREMIUM}`)).statusCode).toBe(404);
      expect(await rows()).toEqual([]);
      // A server whose plan lapsed keeps its bot readable and removable, but cannot start it.
      expect((await setUp()).statusCode).toBe(201);
      await setPlan(A, 'free');
      expect((await as(user(alice), 'POST', `/whitelabel/${A}/start`)).json<ErrorBody>().message).toBe(
        'The white-label bot is part of the Enterprise plan; this server is on the Free plan',
      );
      expect((await as(user(alice), 'GET', `/whitelabel/${A}`)).statusCode).toBe(200);
      expect((await as(user(alice), 'DELETE', `/whitelabel/${A}`)).statusCode).toBe(204);
    });
  });

  describe('changing, starting and removing', () => {
    it('changes the activity alone, or the token after the platform accepts it (a refused one changes nothing)', async () => {
      await setUp();
      const activity = await as(user(alice), 'PATCH', `/whitelabel/${A}`, { activity: null });
      expect(activity.json<WhitelabelEntry>()).toMatchObject({ activity: null, revision: 1, clientId: STUDY_BUDDY.id });
      const refused = await as(user(alice), 'PATCH', `/whitelabel/${A}`, { token: UNKNOWN_TOKEN, activity: 'never stored' });
      expect(refused.json<ErrorBody>()).toMatchObject({ statusCode: 400, message: 'Invalid token' });
      const unchanged = (await as(OPERATOR, 'POST', '/whitelabel/bulk?includeToken=true', { ids: [A] })).json<WhitelabelEntry[]>();
      expect(unchanged).toMatchObject([{ token: STUDY_BUDDY.token, activity: null }]);
      // Another bot altogether: the entry follows the new application.
      const swapped = await as(user(alice), 'PATCH', `/whitelabel/${A}`, { token: NIGHT_WATCH.token });
      expect(swapped.json<WhitelabelEntry>()).toMatchObject({ userId: NIGHT_WATCH.id, name: 'Night Watch', clientId: NIGHT_WATCH.id, status: 'NotRunning', revision: 2 });
      expect((await as(user(alice), 'PATCH', `/whitelabel/${A}`, {})).statusCode).toBe(400);
      expect((await as(user(bruno), 'PATCH', `/whitelabel/${GUILDS.studyHall}`, { activity: 'x' })).statusCode).toBe(403);
    });

    it('goes NotRunning → Starting on start, and Running or Failed only as the runner reports it', async () => {
      await setUp();
      const started = await as(user(alice), 'POST', `/whitelabel/${A}/start`);
      expect(started.statusCode).toBe(202);
      const { revision } = started.json<WhitelabelEntry>();
      expect(started.json<WhitelabelEntry>()).toMatchObject({ status: 'Starting', revision: 2 });
      // Nothing guesses: it stays Starting until the runner says otherwise.
      expect((await as(user(alice), 'GET', `/whitelabel/${A}`)).json<WhitelabelEntry>().status).toBe('Starting');
      expect((await as(OPERATOR, 'PUT', `/whitelabel/${A}/status`, { status: 'Running', revision })).statusCode).toBe(204);
      expect((await as(user(alice), 'GET', `/whitelabel/${A}`)).json<WhitelabelEntry>()).toMatchObject({ status: 'Running', statusMessage: null });
      const noReason = await as(OPERATOR, 'PUT', `/whitelabel/${A}/status`, { status: 'Failed' });
      expect(noReason.json<ErrorBody>()).toMatchObject({ statusCode: 400, field: 'body.reason' });
      expect((await as(OPERATOR, 'PUT', `/whitelabel/${A}/status`, { status: 'Failed', reason: 'Disallowed intent(s): enable Message Content', revision })).statusCode).toBe(204);
      expect((await as(user(alice), 'GET', `/whitelabel/${A}`)).json<WhitelabelEntry>()).toMatchObject({
        status: 'Failed',
        statusMessage: 'Disallowed intent(s): enable Message Content',
      });
      // Starting again clears the failure; a late report about the earlier run is refused.
      const again = (await as(user(alice), 'POST', `/whitelabel/${A}/start`)).json<WhitelabelEntry>();
      expect(again).toMatchObject({ status: 'Starting', statusMessage: null, revision: revision! + 1 });
      const stale = await as(OPERATOR, 'PUT', `/whitelabel/${A}/status`, { status: 'Failed', reason: 'old', revision });
      expect(stale.statusCode).toBe(409);
      expect((await as(user(alice), 'GET', `/whitelabel/${A}`)).json<WhitelabelEntry>().status).toBe('Starting');
      // A new token while it starts or runs: it starts again with it.
      await as(OPERATOR, 'PUT', `/whitelabel/${A}/status`, { status: 'Running', revision: again.revision });
      const newToken = (await control('POST', `/applications/${STUDY_BUDDY.id}/token`)) as { botToken: string };
      const changed = (await as(user(alice), 'PATCH', `/whitelabel/${A}`, { token: newToken.botToken })).json<WhitelabelEntry>();
      expect(changed).toMatchObject({ status: 'Starting', revision: again.revision! + 1 });
      expect((await as(OPERATOR, 'PUT', `/whitelabel/${GUILDS.studyHall}/status`, { status: 'Running' })).statusCode).toBe(404);
    });

    it('removes the bot: stopped, its token forgotten, gone from every list', async () => {
      await setUp();
      await as(user(alice), 'POST', `/whitelabel/${A}/start`);
      expect((await as(user(alice), 'DELETE', `/whitelabel/${A}`)).statusCode).toBe(204);
      expect((await as(user(alice), 'GET', `/whitelabel/${A}`)).statusCode).toBe(404);
      expect((await as(user(alice), 'DELETE', `/whitelabel/${A}`)).statusCode).toBe(404);
      expect((await as(user(alice), 'POST', `/whitelabel/${A}/start`)).statusCode).toBe(404);
      expect((await as(OPERATOR, 'PUT', `/whitelabel/${A}/status`, { status: 'Running' })).statusCode).toBe(404);
      expect((await as(OPERATOR, 'GET', '/whitelabel?includeToken=true')).json<PagedResult<WhitelabelEntry>>().elements).toEqual([]);
      expect((await as(OPERATOR, 'POST', '/whitelabel/bulk?includeToken=true', { ids: [A] })).json()).toEqual([]);
      expect(await rows()).toMatchObject([{ server_id: A, status: 'NotRunning', token_sealed: null }]);
      // Set up again later, it goes on from the old revision.
      expect((await setUp()).json<WhitelabelEntry>()).toMatchObject({ status: 'NotRunning', revision: 4 });
    });
  });

  describe('the runner’s calls', () => {
    it('gives tokens only to operators who ask for them', async () => {
      await setUp();
      const plain = (await as(OPERATOR, 'GET', '/whitelabel')).json<PagedResult<WhitelabelEntry>>();
      expect(plain).toMatchObject({ page: 1, maxPage: 1 });
      expect(plain.elements[0]).not.toHaveProperty('token');
      const withTokens = (await as(OPERATOR, 'GET', '/whitelabel?includeToken=true')).json<PagedResult<WhitelabelEntry>>();
      expect(withTokens.elements).toMatchObject([{ serverId: A, token: STUDY_BUDDY.token }]);
      expect((await as(OPERATOR, 'POST', '/whitelabel/bulk', { ids: [A] })).json<WhitelabelEntry[]>()[0]).not.toHaveProperty('token');
      expect((await as(OPERATOR, 'POST', '/whitelabel/bulk?includeToken=true', { ids: [A, GUILDS.studyHall, A] })).json()).toMatchObject([{ serverId: A, token: STUDY_BUDDY.token }]);
      expect((await as(user(alice), 'GET', '/whitelabel?includeToken=true')).statusCode).toBe(403);
      expect((await as(user(alice), 'POST', '/whitelabel/bulk?includeToken=true', { ids: [A] })).statusCode).toBe(403);
    });

    it('lists the bots of one shard by the platform’s formula, a page at a time', async () => {
      const servers = [0, 1, 2, 1].map((shard, i) => serverOnShard(shard, 3, i));
      for (const [i, id] of servers.entries()) {
        await ctx.built.database.db
          .insertInto('servers')
          .values({ id, name: `Shard server ${i}`, icon: null, owner_id: USERS.alice, active: 1, plan: 'enterprise', created_at: now(), updated_at: now() })
          .execute();
        const app = await newApplication(`Runner test ${i}`);
        expect((await setUp(id, app.botToken, OPERATOR)).statusCode).toBe(201);
      }
      const list = (query: string) => as(OPERATOR, 'GET', `/whitelabel?${query}`);
      const ids = async (query: string) => (await list(query)).json<PagedResult<WhitelabelEntry>>().elements.map((e) => e.serverId);
      expect(await ids('shardId=1&shardCount=3')).toEqual([servers[1], servers[3]].sort());
      expect(await ids('shardId=0&shardCount=3')).toEqual([servers[0]]);
      expect(await ids('shardId=0&shardCount=1')).toEqual([...servers].sort());
      for (const id of servers) expect(Number((BigInt(id) >> 22n) % 3n)).toBe([0, 1, 2, 1][servers.indexOf(id)]);
      expect((await list('shardId=1')).json<ErrorBody>()).toMatchObject({ statusCode: 400, field: 'shardCount' });
      expect((await list('shardId=3&shardCount=3')).json<ErrorBody>()).toMatchObject({ statusCode: 400, field: 'shardId' });
      const first = (await list('Page=1&Amount=3')).json<PagedResult<WhitelabelEntry>>();
      const second = (await list('Page=2&Amount=3')).json<PagedResult<WhitelabelEntry>>();
      expect([first.maxPage, first.elements.length, second.elements.length]).toEqual([2, 3, 1]);
      expect([...first.elements, ...second.elements].map((e) => e.serverId)).toEqual([...servers].sort());
      const bulk = (await as(OPERATOR, 'POST', '/whitelabel/bulk', { ids: [servers[2], A, servers[0]] })).json<WhitelabelEntry[]>();
      expect(bulk.map((e) => e.serverId).sort()).toEqual([servers[0], servers[2]].sort());
    });

    it('tells every change to the runners as it is stored, without the token', async () => {
      const notices: WhitelabelChangeNotice[] = [];
      const stop = ctx.built.services.whitelabelChanges.subscribe((notice) => notices.push(notice));
      await setUp();
      await as(user(alice), 'PATCH', `/whitelabel/${A}`, { activity: 'Open for questions' });
      await as(user(alice), 'POST', `/whitelabel/${A}/start`);
      await as(OPERATOR, 'PUT', `/whitelabel/${A}/status`, { status: 'Running' });
      await as(user(alice), 'DELETE', `/whitelabel/${A}`);
      await setUp(A, UNKNOWN_TOKEN); // refused: no notice
      stop();
      expect(notices.map((n) => [n.serverId, n.change, n.status, n.revision])).toEqual([
        [A, 'created', 'NotRunning', 1],
        [A, 'updated', 'NotRunning', 1],
        [A, 'started', 'Starting', 2],
        [A, 'status', 'Running', 2],
        [A, 'deleted', 'NotRunning', 3],
      ]);
      expect(JSON.stringify(notices)).not.toContain(STUDY_BUDDY.token);
    });
  });

  describe('the token at rest and in logs', () => {
    it('is sealed in the database and appears in no table nor log line', async () => {
      const lines: string[] = [];
      const database = await freshDatabase(engine);
      const config = testConfig(sandbox, { logLevel: 'trace' });
      const built = await buildApp(config, { database, logStream: { write: (line) => void lines.push(line) } });
      try {
        await built.database.db
          .insertInto('servers')
          .values({ id: A, name: 'Pixel Forge', icon: null, owner_id: USERS.alice, active: 1, plan: 'enterprise', created_at: now(), updated_at: now() })
          .execute();
        const call = (method: InjectOptions['method'], url: string, payload?: unknown) =>
          built.app.inject({ method, url: `/api/deployment${url}`, headers: OPERATOR, ...(payload === undefined ? {} : { payload: payload as object }) });
        expect((await call('POST', `/whitelabel/${A}`, { token: STUDY_BUDDY.token })).statusCode).toBe(201);
        expect((await call('PATCH', `/whitelabel/${A}`, { token: UNKNOWN_TOKEN })).statusCode).toBe(400);
        expect((await call('PATCH', `/whitelabel/${A}`, { token: 'x'.repeat(30) })).statusCode).toBe(400);
        expect((await call('GET', '/whitelabel?includeToken=true')).body).toContain(STUDY_BUDDY.token);
        expect((await call('POST', '/whitelabel/bulk?includeToken=true', { ids: [A] })).body).toContain(STUDY_BUDDY.token);
        built.app.log.info({ token: STUDY_BUDDY.token, body: { token: UNKNOWN_TOKEN } }, 'anything that logs a token by mistake');

        // Every text of every table, whatever it is.
        const tables = await built.database.db.introspection.getTables();
        expect(tables.map((t) => t.name)).toContain('whitelabel_bots');
        let scanned = '';
        for (const table of tables) {
          const all = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(built.database.db);
          scanned += JSON.stringify(all.rows);
        }
        const [row] = await built.database.db.selectFrom('whitelabel_bots').selectAll().execute();
        expect(scanned).toContain(row!.token_sealed!);
        for (const secret of [STUDY_BUDDY.token, UNKNOWN_TOKEN, STUDY_BUDDY.token.split('.')[2]!]) expect(scanned).not.toContain(secret);
        // Sealed with the key the platform's OAuth tokens are sealed with.
        expect(row!.token_sealed).toMatch(/^v1\./);
        expect(unseal(row!.token_sealed!, config.encryptionKey)).toBe(STUDY_BUDDY.token);

        const log = lines.join('');
        expect(lines.length).toBeGreaterThan(5);
        expect(log).toContain('anything that logs a token by mistake');
        for (const secret of [STUDY_BUDDY.token, UNKNOWN_TOKEN, STUDY_BUDDY.token.split('.')[2]!]) expect(log).not.toContain(secret);
      } finally {
        await built.close();
        await database.destroy();
      }
    });
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('white-label change notices on Redis', () => {
  let ctx: TestContext;
  let listener: Redis;
  afterEach(async () => {
    await ctx?.close();
    await listener?.quit();
  });

  it('are published on the channel the runners subscribe to, and heard by every process', async () => {
    const redisUrl = process.env.TEST_REDIS_URL!;
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, 'sqlite', { redisUrl });
    const other = await createTestApp(sandbox, 'sqlite', { redisUrl, encryptionKey: randomBytes(32) });
    try {
      listener = new Redis(redisUrl);
      const received: WhitelabelChangeNotice[] = [];
      await listener.subscribe(WHITELABEL_CHANGES_CHANNEL);
      listener.on('message', (_channel: string, text: string) => received.push(JSON.parse(text) as WhitelabelChangeNotice));
      // A listener of another API process hears this process's notices through Redis.
      const heardElsewhere: WhitelabelChangeNotice[] = [];
      other.built.services.whitelabelChanges.subscribe((notice) => heardElsewhere.push(notice));
      await other.built.services.whitelabelChanges.listening();

      const { token } = await signIn(ctx, USERS.alice);
      await ctx.built.database.db.updateTable('servers').set({ plan: 'enterprise', updated_at: now() }).where('id', '=', A).execute();
      const created = await ctx.built.app.inject({ method: 'POST', url: `/api/deployment/whitelabel/${A}`, headers: bearer(token), payload: { token: STUDY_BUDDY.token } });
      expect(created.statusCode).toBe(201);
      await ctx.built.app.inject({ method: 'POST', url: `/api/deployment/whitelabel/${A}/start`, headers: bearer(token) });
      await expect.poll(() => received.length).toBe(2);
      await expect.poll(() => heardElsewhere.length).toBe(2);
      expect(received.map((n) => [n.serverId, n.change, n.status])).toEqual([
        [A, 'created', 'NotRunning'],
        [A, 'started', 'Starting'],
      ]);
      expect(heardElsewhere).toEqual(received);
      expect(JSON.stringify(received)).not.toContain(STUDY_BUDDY.token);
    } finally {
      await other.close();
    }
  });
});
