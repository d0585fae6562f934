import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { loadDemoFixtures, shardOf, startSandbox, type RunningSandbox } from '@ticket/sandbox';
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

  it('splits the servers over two runtimes of two shards each (SHARD_COUNT=4): each takes its own servers, and nothing is reported twice', async () => {
    const SHARD_COUNT = 4;
    const from = api.received.length;
    // One new server on each shard, with the bot and a member in it, its text channel an open ticket.
    const servers: { shard: number; guildId: string; channelId: string; content: string }[] = [];
    for (let shard = 0; shard < SHARD_COUNT; shard++) {
      const guildId = serverIdOnShard(shard, SHARD_COUNT);
      expect(shardOf(guildId, SHARD_COUNT)).toBe(shard);
      const created = await control('POST', '/guilds', { id: guildId, name: `Shard ${shard} server`, ownerId: OWNER, memberIds: [MEMBER], botMember: true });
      const channelId = (created.channels as { id: string; type: number }[]).find((c) => c.type === 0)!.id;
      api.ticketChannels.set(guildId, [{ channelId, ticketId: `T-${channelId}`, subjectId: 'subject-1' }]);
      servers.push({ shard, guildId, channelId, content: `written on shard ${shard}` });
    }
    // The fixtures' server is on shard 0 as well.
    servers.push({ shard: shardOf(GUILD, SHARD_COUNT), guildId: GUILD, channelId: TICKET_CHANNEL, content: 'written in the fixtures’ server' });

    // Two runtimes, each with its own shards, data file and operator key (the fake API records which key reported what).
    const specs = [
      { name: 'A', shardIds: [0, 1], key: 'runtime-a-key' },
      { name: 'B', shardIds: [2, 3], key: 'runtime-b-key' },
    ];
    for (const { key } of specs) {
      api.keys.add(key);
      cleanups.push(() => api.keys.delete(key));
    }
    // Started together: within one runtime the second shard waits out the identify limit (5 s per max_concurrency 1).
    const bots = await Promise.all(
      specs.map(async ({ shardIds, key }) => {
        const config = loadConfig(env(dataDir(), { SHARD_COUNT: String(SHARD_COUNT), SHARD_IDS: shardIds.join(','), BOT_API_KEY: key }));
        const runtime = await startRuntime(config, { logger: memoryLogger('warn').log, retryBaseDelayMs: 50 });
        cleanups.push(() => runtime.close());
        await waitFor(async () => (await runtime.health()).status === 'ok', 20_000, `shards ${shardIds.join(',')} ready`);
        return runtime;
      }),
    );
    const runtimeOf = (shard: number) => specs.findIndex((spec) => spec.shardIds.includes(shard));

    // Each runtime holds only its shards, and its stored sessions are the gateway's sessions of those shards.
    const connected = await connectedSessions();
    expect(connected.map((s) => s.shard.join('/')).sort()).toEqual(['0/4', '1/4', '2/4', '3/4']);
    for (const [i, { shardIds }] of specs.entries()) {
      const bot = bots[i]!;
      expect((await bot.health()).shards.map((s) => s.id)).toEqual(shardIds);
      const sessionIds: string[] = [];
      for (let shard = 0; shard < SHARD_COUNT; shard++) {
        const info = await bot.manager.options.retrieveSessionInfo(shard);
        if (shardIds.includes(shard)) sessionIds.push(info!.sessionId);
        else expect(info, `runtime ${specs[i]!.name}: no session of shard ${shard}`).toBeNull();
      }
      const own = connected.filter((s) => sessionIds.includes(s.id));
      expect(own.map((s) => s.shard.join('/')).sort()).toEqual(shardIds.map((id) => `${id}/${SHARD_COUNT}`));
    }

    for (const { channelId, content } of servers) await write(content, channelId);
    await waitFor(() => servers.every(({ content }) => count(content) >= 1), 15_000, 'a report from every server');
    for (const bot of bots) await waitFor(() => bot.queueDepth() === 0, 5000, 'empty queues');
    await arrived(servers.map((s) => s.content));

    // Everything about a server (its ticket list, its events, its messages) came from the runtime holding its shard.
    const since = api.received.slice(from);
    for (const { shard, guildId, content } of servers) {
      const expected = `Admin ${specs[runtimeOf(shard)]!.key}`;
      const posted = since.filter((r) => r.method === 'POST' && (r.body as { message?: { content?: string } } | null)?.message?.content === content);
      expect(posted.map((r) => [r.path.split('/')[4], r.authorization])).toEqual([[guildId, expected]]);
      const about = since.filter((r) => r.path.startsWith(`/api/support/servers/${guildId}/`));
      expect(about.length).toBeGreaterThan(1);
      expect(new Set(about.map((r) => r.authorization)), `server ${guildId} on shard ${shard}`).toEqual(new Set([expected]));
    }
  });

  it('reports a member leaving the server', async () => {
    await startBot(dataDir());
    await control('DELETE', `/guilds/${GUILD}/members/${LEAVER}`);
    await waitFor(() => api.reports({ pathEndsWith: '/events' }).some((r) => (r.body as { type: string }).type === 'memberLeft'), 10_000, 'memberLeft');
    const left = api.reports({ pathEndsWith: '/events' }).filter((r) => (r.body as { type: string }).type === 'memberLeft');
    expect(left.map((r) => (r.body as { userId: string }).userId)).toEqual([LEAVER]);
  });
});

/** A server id on `shard` of `count` shards, which the platform computes as `(id >> 22) % count`. */
function serverIdOnShard(shard: number, count: number): string {
  const base = 300_000_000_000n; // milliseconds after the platform's epoch, in 2024
  const high = base - (base % BigInt(count)) + BigInt(shard);
  return ((high << 22n) | 1n).toString();
}

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
