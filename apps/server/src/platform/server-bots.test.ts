import { randomBytes } from 'node:crypto';
import { loadDemoFixtures } from '@ticket/sandbox';
import type { Panel, Subject } from '@ticket/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GUILDS, USERS } from '../test/demo-world';
import { buildApp } from '../app';
import { bearer, createTestApp, resetSandbox, signIn, testConfig, useSandbox, type TestContext } from '../test/harness';
import { storeWhitelabelBot, studyBuddy } from '../test/whitelabel-fixture';

const sandbox = useSandbox();

/** Lets the notice's read of the bot (in the background) finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

const HOMEWORK_HELP = '1300000000000000604'; // a text channel of Study Hall
const base = `/api/settings/servers/${GUILDS.studyHall}`;

/** The channel's messages as the platform has them (read with the main bot's token), newest first. */
const messagesIn = async (channelId: string): Promise<{ id: string; content: string; author: { id: string } }[]> => {
  const response = await fetch(`${sandbox.url}/api/v10/channels/${channelId}/messages`, { headers: { authorization: `Bot ${loadDemoFixtures().application.botToken}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string; content: string; author: { id: string } }[];
};

describe('the bot that speaks on a server', () => {
  const encryptionKey = randomBytes(32);
  const buddy = studyBuddy();
  const main = loadDemoFixtures().application;
  let ctx: TestContext;
  let admin: string;
  let subject: Subject;

  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, 'sqlite', { encryptionKey });
    admin = (await signIn(ctx, USERS.chen)).token; // admin of Study Hall
    subject = (await ctx.built.app.inject({ method: 'POST', url: `${base}/subjects`, headers: bearer(admin), payload: { name: 'Homework' } })).json<Subject>();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const sendPanel = async (content: string) => {
    const response = await ctx.built.app.inject({
      method: 'POST',
      url: `${base}/panels`,
      headers: bearer(admin),
      payload: {
        type: 'BUTTON',
        name: 'Help',
        draft: false,
        channelId: HOMEWORK_HELP,
        message: { content, embeds: [] },
        subjects: [{ subjectId: subject.subjectId, text: 'Homework', style: 'Primary', emoji: null }],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Panel>();
  };
  /** The runner reported the bot running: the API hears the change notice and speaks as it. */
  const runBuddy = async () => {
    await storeWhitelabelBot(ctx, encryptionKey, GUILDS.studyHall, buddy, 'Running');
    await ctx.built.services.whitelabelChanges.publish({ serverId: GUILDS.studyHall, change: 'status', status: 'Running', revision: 1, at: new Date().toISOString() });
    await settle();
  };
  const author = async (messageId: string) => (await messagesIn(HOMEWORK_HELP)).find((m) => m.id === messageId)?.author.id;

  it('posts as the server’s white-label bot once it runs, and as the main bot otherwise', async () => {
    const before = await sendPanel('Posted by the main bot');
    expect(await author(before.integrationDetails.messageId!)).toBe(main.botUserId);

    await runBuddy();
    const panel = await sendPanel('Posted by Study Buddy');
    expect(await author(panel.integrationDetails.messageId!)).toBe(buddy.userId);

    // Stopped: the main bot speaks again at once (the change notice drops the white-label client).
    await ctx.built.services.deployment.reportStatus(GUILDS.studyHall, { status: 'NotRunning' });
    await settle();
    const after = await sendPanel('Posted by the main bot again');
    expect(await author(after.integrationDetails.messageId!)).toBe(main.botUserId);
  });

  it('edits a panel the main bot posted before the white-label bot ran (the main bot still does)', async () => {
    const panel = await sendPanel('Old panel');
    await runBuddy();
    const edited = await ctx.built.app.inject({
      method: 'PATCH',
      url: `${base}/panels/${panel.id}`,
      headers: bearer(admin),
      payload: {
        type: 'BUTTON',
        name: 'Help',
        draft: false,
        channelId: HOMEWORK_HELP,
        message: { content: 'Old panel, edited', embeds: [] },
        subjects: [{ subjectId: subject.subjectId, text: 'Homework', style: 'Primary', emoji: null }],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const message = (await messagesIn(HOMEWORK_HELP)).find((m) => m.id === edited.json<Panel>().integrationDetails.messageId);
    expect(message?.content).toBe('Old panel, edited');
  });

  it('falls back to the main bot when the white-label token was revoked', async () => {
    await runBuddy();
    const revoke = await fetch(`${sandbox.url}/_sandbox/applications/${buddy.clientId}/token`, { method: 'DELETE' });
    expect(revoke.status).toBe(200);
    const panel = await sendPanel('Posted after a revocation');
    expect(await author(panel.integrationDetails.messageId!)).toBe(main.botUserId);
  });
});

describe('the bots that speak, read when the app starts', () => {
  it('speaks as a white-label bot that was already running when the process started', async () => {
    const encryptionKey = randomBytes(32);
    const buddy = studyBuddy();
    await resetSandbox(sandbox);
    const first = await createTestApp(sandbox, 'sqlite', { encryptionKey });
    await storeWhitelabelBot(first, encryptionKey, GUILDS.studyHall, buddy, 'Running');
    // A second app on the same database, as another process (or a restart) would be.
    const second = await buildApp(testConfig(sandbox, { encryptionKey }), { database: first.built.database });
    try {
      const admin = (await signIn({ sandbox, built: second }, USERS.chen)).token;
      const subject = (await second.app.inject({ method: 'POST', url: `${base}/subjects`, headers: bearer(admin), payload: { name: 'Homework' } })).json<Subject>();
      const response = await second.app.inject({
        method: 'POST',
        url: `${base}/panels`,
        headers: bearer(admin),
        payload: {
          type: 'BUTTON',
          name: 'Help',
          draft: false,
          channelId: HOMEWORK_HELP,
          message: { content: 'Posted after a restart', embeds: [] },
          subjects: [{ subjectId: subject.subjectId, text: 'Homework', style: 'Primary', emoji: null }],
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      const id = response.json<Panel>().integrationDetails.messageId;
      expect((await messagesIn(HOMEWORK_HELP)).find((m) => m.id === id)?.author.id).toBe(buddy.userId);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('a panel resent by a process that has not seen its channel yet', () => {
  it('goes out as the white-label bot: the panel names its server', async () => {
    const encryptionKey = randomBytes(32);
    const buddy = studyBuddy();
    await resetSandbox(sandbox);
    const first = await createTestApp(sandbox, 'sqlite', { encryptionKey });
    const admin = (await signIn(first, USERS.chen)).token;
    const subject = (await first.built.app.inject({ method: 'POST', url: `${base}/subjects`, headers: bearer(admin), payload: { name: 'Homework' } })).json<Subject>();
    const created = await first.built.app.inject({
      method: 'POST',
      url: `${base}/panels`,
      headers: bearer(admin),
      payload: {
        type: 'BUTTON',
        name: 'Help',
        draft: false,
        channelId: HOMEWORK_HELP,
        message: { content: 'Posted before the restart', embeds: [] },
        subjects: [{ subjectId: subject.subjectId, text: 'Homework', style: 'Primary', emoji: null }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    await storeWhitelabelBot(first, encryptionKey, GUILDS.studyHall, buddy, 'Running');
    // A restart: the new process knows the running bot, but not which server the channel is in.
    const second = await buildApp(testConfig(sandbox, { encryptionKey }), { database: first.built.database });
    try {
      const resent = await second.app.inject({ method: 'POST', url: `${base}/panels/${created.json<Panel>().id}/resend`, headers: bearer(admin) });
      expect(resent.statusCode, resent.body).toBe(200);
      const id = resent.json<Panel>().integrationDetails.messageId;
      expect((await messagesIn(HOMEWORK_HELP)).find((m) => m.id === id)?.author.id).toBe(buddy.userId);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
