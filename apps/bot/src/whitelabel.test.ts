import { loadDemoFixtures, startSandbox, type RunningSandbox } from '@ticket/sandbox';
import { WHITELABEL_CHANGES_CHANNEL } from '@ticket/contracts';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { startRuntime, type BotRuntime } from './runtime';
import { FakeTicketApi, type FakeWhitelabel } from './test/fake-ticket-api';
import { memoryLogger, tempDir, waitFor } from './test/helpers';
import { presenceOf } from './whitelabel-bots';

const STUDY_HALL = '1300000000000000003';
const HOMEWORK_HELP = '1300000000000000604';
const MEMBER = '1200000000000000005';
const KEY = 'test-operator-key';

describe('white-label bots in the runtime', () => {
  let sandbox: RunningSandbox;
  const api = new FakeTicketApi();
  const fixtures = loadDemoFixtures();
  const buddy = fixtures.whiteLabelApplications!.find((a) => a.clientId === '1100000000000000101')!;
  const cleanups: (() => unknown)[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1', gateway: { heartbeatIntervalMs: 1000 } });
    await api.start();
  });
  beforeEach(async () => {
    await control('POST', '/reset');
    api.whitelabels.clear();
    api.received.length = 0;
  });
  afterEach(async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn();
  });
  afterAll(async () => {
    await api.stop();
    await sandbox.close();
  });

  async function control(method: string, url: string, body?: unknown) {
    const response = await fetch(`${sandbox.url}/_sandbox${url}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
  }
  const sessionsOf = async (applicationId: string) =>
    ((await control('GET', '/gateway/sessions')).sessions as { id: string; applicationId: string; connected: boolean }[]).filter(
      (s) => s.applicationId === applicationId && s.connected,
    );

  const store = (overrides: Partial<FakeWhitelabel> = {}): FakeWhitelabel => {
    const bot: FakeWhitelabel = {
      serverId: STUDY_HALL,
      userId: buddy.botUserId,
      clientId: buddy.clientId,
      name: 'Study Buddy',
      activity: 'Helping with homework',
      status: 'Starting',
      statusMessage: null,
      revision: 1,
      token: buddy.botToken,
      ...overrides,
    };
    api.whitelabels.set(bot.serverId, bot);
    return bot;
  };

  const start = async (extra: Record<string, string> = {}): Promise<BotRuntime> => {
    const d = tempDir();
    cleanups.push(() => d.remove());
    const env = {
      DISCORD_BOT_TOKEN: fixtures.application.botToken,
      DISCORD_API_URL: `${sandbox.url}/api`,
      TICKET_API_URL: api.url,
      ADMIN_KEYS: KEY,
      BOT_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: d.dir,
      REPORT_RETRY_MAX_MS: '500',
      LOG_LEVEL: 'silent',
      WHITELABEL_POLL_MS: '200',
      ...extra,
    };
    const runtime = await startRuntime(loadConfig(env), { logger: memoryLogger('warn').log, retryBaseDelayMs: 50 });
    cleanups.push(() => runtime.close());
    return runtime;
  };
  const statusOf = (serverId = STUDY_HALL) => api.whitelabels.get(serverId)?.status;

  it('starts a bot the API says to start: Starting, then Running on READY, with its own gateway session', async () => {
    store();
    const runtime = await start();
    await waitFor(() => statusOf() === 'Running', 10_000, 'Running reported');
    const reported = api.received.filter((r) => r.method === 'PUT' && r.path === `/api/deployment/whitelabel/${STUDY_HALL}/status`).map((r) => r.body);
    expect(reported).toEqual([
      { status: 'Starting', reason: null, revision: 1 },
      { status: 'Running', reason: null, revision: 1 },
    ]);
    expect(await sessionsOf(buddy.clientId)).toHaveLength(1);
    expect((await runtime.health()).whitelabelBots).toMatchObject([{ serverId: STUDY_HALL, status: 'Running', userId: buddy.botUserId }]);
  });

  it('reports Failed with the reason when the token is revoked, and does not start it again until a new revision', async () => {
    store();
    await start();
    await waitFor(() => statusOf() === 'Running', 10_000, 'Running reported');
    await control('DELETE', `/applications/${buddy.clientId}/token`);
    await waitFor(() => statusOf() === 'Failed', 10_000, 'Failed reported');
    expect(api.whitelabels.get(STUDY_HALL)!.statusMessage).toBe('The bot token was revoked or is invalid');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(statusOf()).toBe('Failed');
    expect(await sessionsOf(buddy.clientId)).toHaveLength(0);
  });

  it('reports Failed when the token is refused before the gateway is reached (revoked while stopped)', async () => {
    await control('DELETE', `/applications/${buddy.clientId}/token`);
    store();
    await start();
    await waitFor(() => statusOf() === 'Failed', 10_000, 'Failed reported');
    expect(api.whitelabels.get(STUDY_HALL)!.statusMessage).toBe('The bot token was revoked or is invalid');
  });

  it('says which switch is missing when privileged intents are off (4014)', async () => {
    await control('PATCH', `/applications/${buddy.clientId}`, { privilegedIntents: { messageContent: false, guildMembers: false } });
    store();
    await start();
    await waitFor(() => statusOf() === 'Failed', 10_000, 'Failed reported');
    expect(api.whitelabels.get(STUDY_HALL)!.statusMessage).toMatch(/^Privileged intents are not enabled/);
  });

  it('closes the session of a bot that was removed, and starts one anew on a new revision', async () => {
    store();
    const runtime = await start();
    await waitFor(() => statusOf() === 'Running', 10_000, 'Running reported');
    const [first] = await sessionsOf(buddy.clientId);
    // Started again (a new revision): a new session replaces the old one.
    store({ revision: 2, status: 'Starting' });
    await waitFor(async () => statusOf() === 'Running' && (await sessionsOf(buddy.clientId)).some((s) => s.id !== first!.id), 10_000, 'restarted');
    expect(await sessionsOf(buddy.clientId)).toHaveLength(1);
    api.whitelabels.delete(STUDY_HALL);
    await waitFor(async () => (await sessionsOf(buddy.clientId)).length === 0, 10_000, 'session closed');
    expect((await runtime.health()).whitelabelBots).toEqual([]);
  });

  it('reports what a member writes in a ticket channel of the white-label bot’s server', async () => {
    api.ticketChannels.set(STUDY_HALL, [{ channelId: HOMEWORK_HELP, ticketId: HOMEWORK_HELP, subjectId: 'subject-1' }]);
    store();
    await start();
    await waitFor(() => statusOf() === 'Running', 10_000, 'Running reported');
    await control('POST', `/channels/${HOMEWORK_HELP}/messages`, { userId: MEMBER, content: 'a question for Study Buddy' });
    await waitFor(() => api.postedContents().includes('a question for Study Buddy'), 10_000, 'message reported');
    api.ticketChannels.delete(STUDY_HALL);
  });

  it('leaves the bots of other shards alone', async () => {
    store();
    // Study Hall is on shard 1 of 2 (its id >> 22 is odd or even: the runtime holds the other one).
    const shard = Number((BigInt(STUDY_HALL) >> 22n) % 2n);
    const runtime = await start({ SHARD_COUNT: '2', SHARD_IDS: String(1 - shard) });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(statusOf()).toBe('Starting');
    expect((await runtime.health()).whitelabelBots).toEqual([]);
    expect(api.received.some((r) => r.path === '/api/deployment/whitelabel' && r.method === 'GET')).toBe(true);
  });

  it('shows the stored activity as the bot’s custom status', () => {
    expect(presenceOf('Helping with homework')).toEqual({ since: null, activities: [{ name: 'Helping with homework', state: 'Helping with homework', type: 4 }], status: 'online', afk: false });
    expect(presenceOf(null).activities).toEqual([]);
  });

  it.runIf(process.env.TEST_REDIS_URL)('acts on a change notice from Redis at once, without waiting for the poll', async () => {
    store();
    await start({ REDIS_URL: process.env.TEST_REDIS_URL!, WHITELABEL_POLL_MS: '60000' });
    await waitFor(() => statusOf() === 'Running', 10_000, 'Running reported');
    api.whitelabels.delete(STUDY_HALL);
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    cleanups.push(() => redis.quit());
    const notice = { serverId: STUDY_HALL, change: 'deleted', status: 'NotRunning', revision: 2, at: new Date().toISOString() };
    // The subscription may take a moment to be in place: the notice is sent until it is acted on.
    await waitFor(
      async () => {
        await redis.publish(WHITELABEL_CHANGES_CHANNEL, JSON.stringify(notice));
        return (await sessionsOf(buddy.clientId)).length === 0;
      },
      5000,
      'session closed on the notice',
    );
  });
});
