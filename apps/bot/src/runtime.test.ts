import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { loadDemoFixtures, startSandbox, type RunningSandbox } from '@ticket/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { startRuntime, type BotRuntime } from './runtime';
import { FakeTicketApi } from './test/fake-ticket-api';
import { memoryLogger, tempDir, waitFor } from './test/helpers';

const GUILD = '1300000000000000001';
const OWNER = '1200000000000000001';
const TICKET_CHANNEL = '1300000000000000110';
const OTHER_CHANNEL = '1300000000000000111';
const MEMBER = '1200000000000000104';
const LEAVER = '1200000000000000114';
const KEY = 'test-operator-key';
const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

describe('the runtime against the sandbox’s gateway', () => {
  let sandbox: RunningSandbox;
  const api = new FakeTicketApi();
  const { application } = loadDemoFixtures();
  const cleanups: (() => unknown)[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1', gateway: { heartbeatIntervalMs: 1000 } });
    await api.start();
    api.ticketChannels.set(GUILD, [{ channelId: TICKET_CHANNEL, ticketId: TICKET_CHANNEL, subjectId: 'subject-1' }]);
  });
  afterEach(async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn();
  });
  afterAll(async () => {
    await api.stop();
    await sandbox.close();
  });

  const env = (dataDir: string, extra: Record<string, string> = {}) => ({
    DISCORD_BOT_TOKEN: application.botToken,
    DISCORD_API_URL: `${sandbox.url}/api`,
    TICKET_API_URL: api.url,
    ADMIN_KEYS: KEY,
    BOT_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    REPORT_RETRY_MAX_MS: '500',
    LOG_LEVEL: 'silent',
    ...extra,
  });

  const dataDir = () => {
    const d = tempDir();
    cleanups.push(() => d.remove());
    return d.dir;
  };

  /** Starts a runtime and waits until its shard is ready. */
  const startBot = async (dir: string): Promise<BotRuntime> => {
    const runtime = await startRuntime(loadConfig(env(dir)), { logger: memoryLogger('warn').log, retryBaseDelayMs: 50, auditLogRetryMs: 50 });
    cleanups.push(() => runtime.close());
    await waitFor(async () => (await runtime.health()).status === 'ok', 10_000, 'shard ready');
    return runtime;
  };

  const control = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${sandbox.url}/_sandbox${url}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const write = async (content: string, channelId = TICKET_CHANNEL, userId = MEMBER): Promise<string> =>
    ((await control('POST', `/channels/${channelId}/messages`, { userId, content })).message as { id: string }).id;
  const connectedSessions = async () =>
    ((await control('GET', '/gateway/sessions')).sessions as { id: string; connected: boolean; resumes: number; shard: number[] }[]).filter((s) => s.connected);
  const count = (content: string) => api.postedContents().filter((c) => c === content).length;
  /** Waits for the reports, then a little more so that a late duplicate would be seen too. */
  const arrived = async (contents: string[], runtime?: BotRuntime) => {
    await waitFor(() => contents.every((c) => count(c) >= 1), 15_000, `reports of ${contents.join(', ')}`);
    if (runtime) await waitFor(() => runtime.queueDepth() === 0, 5000, 'empty queue');
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const c of contents) expect(count(c), `"${c}" reported`).toBe(1);
  };

  it('reports what a member does in a ticket channel (message, edit, reaction, deletion), once each and in order, and nothing from other channels', async () => {
    const runtime = await startBot(dataDir());
    await write('not a ticket', OTHER_CHANNEL);
    const id = await write('hello from a member');
    await control('PATCH', `/channels/${TICKET_CHANNEL}/messages/${id}`, { userId: MEMBER, content: 'hello, edited' });
    await control('POST', `/channels/${TICKET_CHANNEL}/messages/${id}/reactions`, { userId: MEMBER, emoji: '👍' });
    await control('DELETE', `/channels/${TICKET_CHANNEL}/messages/${id}`, { userId: MEMBER });
    await arrived(['hello from a member'], runtime);
    const mine = api.reports().filter((r) => r.path.includes(`/tickets/${TICKET_CHANNEL}/messages`));
    const base = `/api/support/servers/${GUILD}/tickets/${TICKET_CHANNEL}/messages`;
    expect(mine.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${base}`, `PUT ${base}/${id}`, `POST ${base}/${id}/reactions`, `DELETE ${base}/${id}`]);
    expect(mine[0]!.body).toMatchObject({ messageType: 'User', authorId: MEMBER, externalId: id, message: { content: 'hello from a member' } });
    expect(mine[1]!.body).toEqual({ message: { content: 'hello, edited', embeds: [] } });
    expect(mine[2]!.body).toEqual({ reactorId: MEMBER, emoji: { id: null, name: '👍' } });
    expect(api.postedContents()).not.toContain('not a ticket');
    // The bot's servers were reported active for this session.
    expect(api.reports({ pathEndsWith: '/events' }).some((r) => (r.body as { type: string }).type === 'botAdded')).toBe(true);
  });

  it('resumes after the gateway drops the connection, and nothing is missed or doubled', async () => {
    const runtime = await startBot(dataDir());
    await write('before the drop');
    await arrived(['before the drop']);
    const [session] = await connectedSessions();
    await control('POST', `/gateway/sessions/${session!.id}/drop`);
    // Written while the runtime has no connection: replayed on resume.
    await write('during the drop 1');
    await write('during the drop 2');
    await arrived(['during the drop 1', 'during the drop 2'], runtime);
    const after = await connectedSessions();
    expect(after.map((s) => s.id)).toEqual([session!.id]);
    expect(after[0]!.resumes).toBeGreaterThanOrEqual(1);
  });

  it('keeps reports while the Ticket API is down and delivers each once, in order, when it is back', async () => {
    const runtime = await startBot(dataDir());
    await api.stop();
    try {
      for (const n of [1, 2, 3]) await write(`while down ${n}`);
      await waitFor(async () => (await runtime.health()).queue.depth >= 3, 10_000, 'three queued reports');
      const health = (await (await fetch(`${runtime.healthUrl}/health/detailed`)).json()) as { queue: { depth: number; lastError: { message: string } | null } };
      expect(health.queue.depth).toBeGreaterThanOrEqual(3);
      expect(health.queue.lastError?.message).toMatch(/ECONNREFUSED|fetch failed/);
      expect(JSON.stringify(health)).not.toContain(KEY);
    } finally {
      await api.start();
    }
    await arrived(['while down 1', 'while down 2', 'while down 3'], runtime);
    const order = api.postedContents().filter((c) => c.startsWith('while down'));
    expect(order).toEqual(['while down 1', 'while down 2', 'while down 3']);
  });

  it('resumes its stored session after a restart and reports what was written meanwhile', async () => {
    const dir = dataDir();
    const first = await startBot(dir);
    await write('before the restart');
    await arrived(['before the restart']);
    const [session] = await connectedSessions();
    await first.close();
    await write('while stopped');
    const second = await startBot(dir);
    await arrived(['while stopped'], second);
    const after = await connectedSessions();
    expect(after.map((s) => s.id)).toEqual([session!.id]);
  });

  it('survives SIGKILL: restarted within the resume window, it reports what was written meanwhile, once', async () => {
    const dir = dataDir();
    const port = await freePort();
    const spawnBot = () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/bot/src/main.ts'], {
        cwd: REPO_ROOT,
        env: { ...process.env, ...env(dir, { BOT_PORT: String(port) }) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      cleanups.push(() => killed(child));
      return child;
    };
    const ready = () =>
      waitFor(
        async () => {
          const health = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.json() as Promise<{ status: string }>, () => null);
          return health?.status === 'ok';
        },
        20_000,
        'child runtime ready',
      );
    const first = spawnBot();
    await ready();
    await write('before the kill');
    await arrived(['before the kill']);
    first.kill('SIGKILL');
    await killed(first);
    await write('after the kill');
    spawnBot();
    await ready();
    await arrived(['after the kill']);
    expect(count('before the kill')).toBe(1);
  });

  it('follows a ticket opened while it runs, and reports the channel deleted by hand with who did it', async () => {
    const runtime = await startBot(dataDir());
    // The API makes the channel with the bot's token, then records the ticket.
    const channel = (await (
      await fetch(`${sandbox.url}/api/v10/guilds/${GUILD}/channels`, {
        method: 'POST',
        headers: { authorization: `Bot ${application.botToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'ticket-0001', type: 0 }),
      })
    ).json()) as { id: string };
    await new Promise((resolve) => setTimeout(resolve, 100));
    api.ticketChannels.get(GUILD)!.push({ channelId: channel.id, ticketId: `T-${channel.id}`, subjectId: 'subject-1' });
    await write('in the new ticket', channel.id);
    await arrived(['in the new ticket'], runtime);
    expect(api.reports({ method: 'POST', pathEndsWith: '/messages' }).find((r) => r.path.includes(`/tickets/T-${channel.id}/`))).toBeDefined();

    // With View Audit Log the runtime can tell who deleted it.
    const botPermissions = '361046207568';
    await control('POST', `/guilds/${GUILD}/bot`, { member: true, permissions: String(BigInt(botPermissions) | 128n) });
    cleanups.push(() => control('POST', `/guilds/${GUILD}/bot`, { member: true, permissions: botPermissions }));
    await control('DELETE', `/channels/${channel.id}`, { userId: OWNER });
    await waitFor(() => api.reports({ pathEndsWith: '/events' }).some((r) => (r.body as { type: string }).type === 'channelDeleted'), 10_000, 'channelDeleted');
    const deleted = api.reports({ pathEndsWith: '/events' }).filter((r) => (r.body as { type: string }).type === 'channelDeleted');
    expect(deleted.map((r) => r.body)).toEqual([{ eventId: `channelDeleted:${channel.id}`, type: 'channelDeleted', channelId: channel.id, deletedBy: OWNER }]);
    // The bot's role changed on the way: the API hears that roles changed.
    expect(api.reports({ pathEndsWith: '/events' }).some((r) => (r.body as { type: string }).type === 'rolesChanged')).toBe(true);
  });

  it('answers an interaction that came over the gateway through the platform’s callback', async () => {
    await startBot(dataDir());
    const posted = (await (
      await fetch(`${sandbox.url}/api/v10/channels/${TICKET_CHANNEL}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${application.botToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Press it', components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: 'press', label: 'Press' }] }] }),
      })
    ).json()) as { id: string };
    const result = await control('POST', '/interactions/component', { guildId: GUILD, channelId: TICKET_CHANNEL, messageId: posted.id, userId: MEMBER, customId: 'press' });
    expect(JSON.stringify(result)).toContain('Handled by the fake API');
    const relayed = api.reports({ method: 'POST', pathEndsWith: '/interactions' });
    expect(relayed).toHaveLength(1);
    expect(relayed[0]!.body).toMatchObject({ type: 3, data: { custom_id: 'press' } });
  });

  it('splits the servers over two processes by shard, and nothing is reported twice', async () => {
    const dir = dataDir();
    const bots: BotRuntime[] = [];
    for (const id of ['0', '1']) {
      const runtime = await startRuntime(loadConfig(env(dir, { SHARD_COUNT: '2', SHARD_IDS: id })), { logger: memoryLogger('warn').log, retryBaseDelayMs: 50 });
      cleanups.push(() => runtime.close());
      bots.push(runtime);
    }
    for (const bot of bots) await waitFor(async () => (await bot.health()).status === 'ok', 10_000, 'shards ready');
    expect((await bots[1]!.health()).shards.map((s) => s.id)).toEqual([1]);
    const shards = (await connectedSessions()).map((s) => s.shard.join('/'));
    expect(shards.sort()).toEqual(['0/2', '1/2']);
    // The fixtures' servers all fall on shard 0 ((id >> 22) % 2).
    await write('sharded');
    await arrived(['sharded']);
  });

  it('reports a member leaving the server', async () => {
    await startBot(dataDir());
    await control('DELETE', `/guilds/${GUILD}/members/${LEAVER}`);
    await waitFor(() => api.reports({ pathEndsWith: '/events' }).some((r) => (r.body as { type: string }).type === 'memberLeft'), 10_000, 'memberLeft');
    const left = api.reports({ pathEndsWith: '/events' }).filter((r) => (r.body as { type: string }).type === 'memberLeft');
    expect(left.map((r) => (r.body as { userId: string }).userId)).toEqual([LEAVER]);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
