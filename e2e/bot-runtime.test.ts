import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subject, Ticket } from '@ticket/contracts';
import { loadDemoFixtures } from '@ticket/sandbox';
import { loadConfig as loadBotConfig, startRuntime, type BotRuntime } from '../apps/bot/src/index';
import { ADMIN_KEY, createTestApp, signIn, startTestSandbox, type Sandbox, type TestContext } from '../apps/server/src/test/harness';
import { GUILDS, USERS } from '../apps/server/src/test/demo-world';

/**
 * The bot runtime between the sandbox's gateway and the real Ticket API: what members do in a
 * ticket's channel shows up in the ticket, and nothing else is reported.
 */
const server = GUILDS.pixelForge;
const CHANNELS = { welcome: '1300000000000000102', general: '1300000000000000110', staffRoom: '1300000000000000107' };

let sandbox: Sandbox;
let ctx: TestContext;
let bot: BotRuntime;
let apiUrl: string;
let dataDir: string;
let subject: Subject;

async function api<T>(method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await fetch(`${apiUrl}${url}`, {
    method,
    headers: { authorization: `Admin ${ADMIN_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as T };
}

async function control(method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.url}/_sandbox${url}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const ticket = async (id: string) => (await api<Ticket>('GET', `/api/support/servers/${server}/tickets/${id}`)).json;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  ctx = await createTestApp(sandbox, 'sqlite');
  await ctx.built.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.built.app.server.address();
  apiUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // The owner's sign-in makes the server known to the dashboard.
  await signIn(ctx, USERS.alice);
  subject = (await api<Subject>('POST', `/api/settings/servers/${server}/subjects`, { name: 'Billing' })).json;
  const closeOnLeave = { serverId: server, subjectId: subject.subjectId, path: 'automation.closeOnLeave', operation: 'set', value: true };
  const patched = await api('PATCH', `/api/settings/servers/${server}/subjects/${subject.subjectId}`, closeOnLeave);
  expect(patched.status, JSON.stringify(patched.json)).toBe(200);
  // Two channels of the server become tickets, as a bot runtime elsewhere might have registered them.
  for (const channel of [CHANNELS.welcome, CHANNELS.staffRoom]) {
    const opened = await api('POST', `/api/support/servers/${server}/tickets`, { ticketName: `t-${channel}`, subjectId: subject.subjectId, authorId: USERS.eli, ticketId: channel });
    // Its author is let into the channel with the subject's member permissions, as when the bot opens a ticket.
    expect(opened.status).toBe(201);
  }
  dataDir = mkdtempSync(path.join(tmpdir(), 'ticket-bot-'));
  bot = await startRuntime(
    loadBotConfig({
      DISCORD_BOT_TOKEN: loadDemoFixtures().application.botToken,
      DISCORD_API_URL: `${sandbox.url}/api`,
      TICKET_API_URL: apiUrl,
      BOT_API_KEY: ADMIN_KEY,
      DATA_DIR: dataDir,
      BOT_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    }),
  );
  await until(() => bot.health(), (health) => health.status === 'ok', 'the gateway to be ready');
}, 60_000);

afterAll(async () => {
  await bot?.close();
  await ctx?.close();
  await sandbox?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the bot runtime reports what happens in ticket channels', () => {
  it('records a member’s message, its edit, a reaction and its deletion in the ticket', async () => {
    const posted = await control('POST', `/channels/${CHANNELS.welcome}/messages`, { userId: USERS.eli, content: 'My order INV-9 never came' });
    const messageId = (posted.message as { id: string }).id;
    let shown = await until(() => ticket(CHANNELS.welcome), (t) => t.messages.some((m) => m.externalId === messageId), 'the message');
    expect(shown.messages.find((m) => m.externalId === messageId)).toMatchObject({ authorId: USERS.eli, messageType: 'User', message: { content: 'My order INV-9 never came' } });

    await control('PATCH', `/channels/${CHANNELS.welcome}/messages/${messageId}`, { userId: USERS.eli, content: 'My order INV-10 never came' });
    await control('POST', `/channels/${CHANNELS.welcome}/messages/${messageId}/reactions`, { userId: USERS.dana, emoji: '👀' });
    shown = await until(
      () => ticket(CHANNELS.welcome),
      (t) => t.messages.some((m) => m.externalId === messageId && m.modified && m.reactions.length === 1),
      'the edit and the reaction',
    );
    expect(shown.messages.find((m) => m.externalId === messageId)).toMatchObject({ message: { content: 'My order INV-10 never came' }, reactions: [{ count: 1, emoji: { name: '👀' } }] });

    await control('DELETE', `/channels/${CHANNELS.welcome}/messages/${messageId}`, { userId: USERS.eli });
    await until(() => ticket(CHANNELS.welcome), (t) => t.messages.some((m) => m.externalId === messageId && m.deleted), 'the deletion');
  });

  it('reports nothing from channels that are no ticket’s', async () => {
    await control('POST', `/channels/${CHANNELS.general}/messages`, { userId: USERS.eli, content: 'not a ticket' });
    // A message in the ticket after it shows the runtime has handled what came before.
    const after = await control('POST', `/channels/${CHANNELS.welcome}/messages`, { userId: USERS.eli, content: 'still here' });
    await until(() => ticket(CHANNELS.welcome), (t) => t.messages.some((m) => m.externalId === (after.message as { id: string }).id), 'the later message');
    const { count } = await ctx.built.database.db
      .selectFrom('ticket_messages')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('body', 'like', '%not a ticket%')
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(0);
  });

  it('closes a ticket whose channel a member deleted by hand', async () => {
    await control('DELETE', `/channels/${CHANNELS.staffRoom}`, { userId: USERS.alice });
    const closed = await until(() => ticket(CHANNELS.staffRoom), (t) => t.state === 'Closed', 'the close');
    expect(closed.closed).toMatchObject({ reason: 'The ticket channel was deleted', force: true });
  });

  it('closes the ticket of a member who left, where the subject closes on leave', async () => {
    await control('DELETE', `/guilds/${server}/members/${USERS.eli}`);
    const closed = await until(() => ticket(CHANNELS.welcome), (t) => t.state === 'Closed', 'the close on leave');
    expect(closed.closed).toMatchObject({ reason: 'The ticket owner left the server' });
  });
});
