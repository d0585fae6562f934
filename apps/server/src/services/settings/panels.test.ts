import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { ErrorBody, Panel, Subject } from '@ticket/contracts';
import { bearer, createTestApp, engines, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';

const sandbox = useSandbox();

const server = GUILDS.pixelForge;
const base = `/api/settings/servers/${server}`;
const CHANNELS = { openATicket: '1300000000000000105', general: '1300000000000000110', announcements: '1300000000000000103', category: '1300000000000000101', archive: '1300000000000000108', modLog: '1300000000000000115' };

interface SandboxMessage {
  id: string;
  channelId: string;
  content: string;
  embeds: { title?: string }[];
  components: { components: { type: number; label?: string; custom_id: string; options?: { value: string; label: string }[] }[] }[];
  deleted: boolean;
  editedTimestamp: string | null;
}

const messagesIn = async (channelId: string): Promise<SandboxMessage[]> => {
  const response = await fetch(`${sandbox.url}/_sandbox/messages?channelId=${channelId}`);
  return ((await response.json()) as { messages: SandboxMessage[] }).messages;
};

describe.each(engines)('panels on %s', (engine) => {
  let ctx: TestContext;
  let owner: string;
  let subjects: Subject[];
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    owner = (await signIn(ctx, USERS.alice)).token;
    subjects = [];
    for (const name of ['Billing', 'Bug reports']) {
      subjects.push((await ctx.built.app.inject({ method: 'POST', url: `${base}/subjects`, headers: bearer(owner), payload: { name } })).json<Subject>());
    }
  });
  afterEach(async () => {
    await ctx.close();
  });

  const as = (token: string, method: InjectOptions['method'], url: string, payload?: unknown) =>
    ctx.built.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const buttonPanel = (overrides: object = {}) => ({
    type: 'BUTTON',
    name: 'Support',
    draft: false,
    channelId: CHANNELS.openATicket,
    message: { content: 'Need help? Pick a topic.', embeds: [{ title: 'Support', description: 'Open a ticket below', color: 0x5865f2 }] },
    subjects: [
      { subjectId: subjects[0]!.subjectId, text: 'Billing', style: 'Primary', emoji: { id: null, name: '💳' } },
      { subjectId: subjects[1]!.subjectId, text: 'Bugs', style: 'Danger', emoji: null },
    ],
    ...overrides,
  });

  it('posts a button panel with one button per subject, each mapped back to panel and subject', async () => {
    const created = await as(owner, 'POST', `${base}/panels`, buttonPanel());
    expect(created.statusCode, created.body).toBe(201);
    const panel = created.json<Panel>();
    expect(panel.integrationDetails).toMatchObject({ channelId: CHANNELS.openATicket, serverId: server });
    expect(panel.integrationDetails.messageId).toBeTruthy();
    expect(panel.lastSent).toBeTruthy();
    const [message] = await messagesIn(CHANNELS.openATicket);
    expect(message!.id).toBe(panel.integrationDetails.messageId);
    expect(message!.content).toBe('Need help? Pick a topic.');
    expect(message!.embeds[0]!.title).toBe('Support');
    const buttons = message!.components.flatMap((row) => row.components);
    expect(buttons.map((b) => b.label)).toEqual(['Billing', 'Bugs']);
    expect(buttons.map((b) => b.custom_id)).toEqual([`panel:${panel.id}:${subjects[0]!.subjectId}`, `panel:${panel.id}:${subjects[1]!.subjectId}`]);
    expect((await as(owner, 'GET', `${base}/panels`)).json<Panel[]>().map((p) => p.id)).toEqual([panel.id]);
  });

  it('posts a dropdown panel with one option per subject', async () => {
    const panel = (
      await as(owner, 'POST', `${base}/panels`, {
        ...buttonPanel(),
        type: 'LIST',
        subjects: subjects.map((s, i) => ({ subjectId: s.subjectId, label: s.name, description: i === 0 ? 'Payments and invoices' : null, emoji: null })),
      })
    ).json<Panel>();
    const [message] = await messagesIn(CHANNELS.openATicket);
    const select = message!.components[0]!.components[0]!;
    expect(select.type).toBe(3);
    expect(select.custom_id).toBe(`panel:${panel.id}`);
    expect(select.options!.map((o) => [o.label, o.value])).toEqual(subjects.map((s) => [s.name, s.subjectId]));
  });

  it('takes a minimal panel: name, draft, style, emoji and embeds fall back to their documented defaults', async () => {
    const created = await as(owner, 'POST', `${base}/panels`, {
      type: 'BUTTON',
      subjects: [{ subjectId: subjects[0]!.subjectId, text: 'Billing' }],
      channelId: CHANNELS.openATicket,
      message: { content: 'Need help? Pick a topic.' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const panel = created.json<Panel>();
    expect(panel).toMatchObject({
      name: '',
      draft: false,
      message: { content: 'Need help? Pick a topic.', embeds: [] },
      subjects: [{ subjectId: subjects[0]!.subjectId, text: 'Billing', style: 'Primary', emoji: null }],
    });
    // Not a draft by default, so it was posted.
    expect(panel.integrationDetails.messageId).toBeTruthy();
    const [message] = await messagesIn(CHANNELS.openATicket);
    expect(message!.id).toBe(panel.integrationDetails.messageId);

    const list = await as(owner, 'POST', `${base}/panels`, {
      type: 'LIST',
      subjects: [{ subjectId: subjects[1]!.subjectId, label: 'Bug reports' }],
      channelId: CHANNELS.openATicket,
      message: { content: 'Found a bug?' },
    });
    expect(list.statusCode, list.body).toBe(201);
    expect(list.json<Panel>().subjects).toEqual([{ subjectId: subjects[1]!.subjectId, label: 'Bug reports', description: null, emoji: null }]);
  });

  it('edits the sent message in place, resends as a new message, and deletes it', async () => {
    const panel = (await as(owner, 'POST', `${base}/panels`, buttonPanel())).json<Panel>();
    const edited = await as(owner, 'PATCH', `${base}/panels/${panel.id}`, buttonPanel({ message: { content: 'Pick a topic below.', embeds: [] } }));
    expect(edited.statusCode).toBe(200);
    expect(edited.json<Panel>().integrationDetails.messageId).toBe(panel.integrationDetails.messageId);
    let messages = await messagesIn(CHANNELS.openATicket);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ content: 'Pick a topic below.', deleted: false });
    expect(messages[0]!.editedTimestamp).toBeTruthy();

    const resent = (await as(owner, 'POST', `${base}/panels/${panel.id}/resend`)).json<Panel>();
    expect(resent.integrationDetails.messageId).not.toBe(panel.integrationDetails.messageId);
    messages = await messagesIn(CHANNELS.openATicket);
    expect(messages.map((m) => m.deleted)).toEqual([true, false]);

    expect((await as(owner, 'DELETE', `${base}/panels/${panel.id}`)).statusCode).toBe(204);
    messages = await messagesIn(CHANNELS.openATicket);
    expect(messages.every((m) => m.deleted)).toBe(true);
    expect((await as(owner, 'GET', `${base}/panels/${panel.id}`)).statusCode).toBe(404);
  });

  it('moves the message when the channel changes, and reposts one deleted on the platform', async () => {
    const panel = (await as(owner, 'POST', `${base}/panels`, buttonPanel())).json<Panel>();
    const moved = (await as(owner, 'PATCH', `${base}/panels/${panel.id}`, buttonPanel({ channelId: CHANNELS.general }))).json<Panel>();
    expect((await messagesIn(CHANNELS.openATicket))[0]!.deleted).toBe(true);
    expect((await messagesIn(CHANNELS.general))[0]!.id).toBe(moved.integrationDetails.messageId);
    // Someone deletes the message in the chat app; the panel still resends, edits and deletes.
    await fetch(`${sandbox.url}/api/v10/channels/${CHANNELS.general}/messages/${moved.integrationDetails.messageId}`, {
      method: 'DELETE',
      headers: { authorization: 'Bot sandbox-bot-token' },
    });
    const reposted = (await as(owner, 'PATCH', `${base}/panels/${panel.id}`, buttonPanel({ channelId: CHANNELS.general }))).json<Panel>();
    expect(reposted.integrationDetails.messageId).not.toBe(moved.integrationDetails.messageId);
    await fetch(`${sandbox.url}/api/v10/channels/${CHANNELS.general}/messages/${reposted.integrationDetails.messageId}`, {
      method: 'DELETE',
      headers: { authorization: 'Bot sandbox-bot-token' },
    });
    expect((await as(owner, 'DELETE', `${base}/panels/${panel.id}`)).statusCode).toBe(204);
  });

  it('keeps drafts without posting, with the rules relaxed', async () => {
    const draft = await as(owner, 'POST', `${base}/panels`, { type: 'BUTTON', name: '', draft: true, channelId: null, message: null, subjects: [] });
    expect(draft.statusCode).toBe(201);
    expect(draft.json<Panel>().integrationDetails.messageId).toBeNull();
    expect(await messagesIn(CHANNELS.openATicket)).toEqual([]);
    expect((await as(owner, 'POST', `${base}/panels/${draft.json<Panel>().id}/resend`)).statusCode).toBe(400);
  });

  it('validates the panel rules with their exact messages', async () => {
    const noText = await as(owner, 'POST', `${base}/panels`, buttonPanel({ subjects: [{ subjectId: subjects[0]!.subjectId, text: '', style: 'Primary', emoji: null }] }));
    expect(noText.statusCode).toBe(400);
    expect(noText.json<ErrorBody>().message).toBe('body.subjects.0.text: Button 1 needs button text');
    const noSubject = await as(owner, 'POST', `${base}/panels`, buttonPanel({ subjects: [{ subjectId: null, text: 'Hi', style: 'Primary', emoji: null }] }));
    expect(noSubject.json<ErrorBody>().message).toBe('body.subjects.0.subjectId: Button 1 needs a subject selected');
    expect((await as(owner, 'POST', `${base}/panels`, buttonPanel({ subjects: [] }))).json<ErrorBody>().message).toMatch(/Add at least one button/);
    expect((await as(owner, 'POST', `${base}/panels`, buttonPanel({ channelId: null }))).json<ErrorBody>().message).toMatch(/A channel must be selected/);
    expect((await as(owner, 'POST', `${base}/panels`, buttonPanel({ message: { content: '', embeds: [] } }))).json<ErrorBody>().message).toMatch(/The message needs content or an embed/);
    const tooLong = await as(owner, 'POST', `${base}/panels`, buttonPanel({ message: { content: '', embeds: [{ title: 'x'.repeat(257) }] } }));
    expect(tooLong.json<ErrorBody>().field).toBe('body.message.embeds.0.title');
    const foreign = await as(owner, 'POST', `${base}/panels`, buttonPanel({ subjects: [{ subjectId: 'not-here', text: 'X', style: 'Primary', emoji: null }] }));
    expect(foreign.json<ErrorBody>()).toMatchObject({ field: 'body.subjects.0.subjectId', message: 'Button 1 opens a subject that does not exist in this server' });
    expect((await as(owner, 'POST', `${base}/panels`, buttonPanel({ channelId: CHANNELS.category }))).json<ErrorBody>().message).toBe('The selected channel must be a text or announcement channel');
    expect((await as(owner, 'POST', `${base}/panels`, buttonPanel({ channelId: '1999999999999999999' }))).json<ErrorBody>().message).toBe('The selected channel is not in this server');
    expect((await as(owner, 'GET', `${base}/panels`)).json<Panel[]>()).toEqual([]);
  });

  it('refuses a channel the bot may not post in, before asking the platform, and saves nothing', async () => {
    const needs = 'The selected channel does not let the bot post there (it needs View Channel, Send Messages and Embed Links)';
    const noPerm = await as(owner, 'POST', `${base}/panels`, buttonPanel({ channelId: CHANNELS.archive }));
    expect(noPerm.statusCode).toBe(400);
    expect(noPerm.json<ErrorBody>()).toMatchObject({ field: 'body.channelId', message: needs });
    const noAccess = await as(owner, 'POST', `${base}/panels`, buttonPanel({ channelId: CHANNELS.modLog }));
    expect(noAccess.json<ErrorBody>().message).toBe(needs);
    expect((await as(owner, 'GET', `${base}/panels`)).json<Panel[]>()).toEqual([]);
    const panel = (await as(owner, 'POST', `${base}/panels`, buttonPanel())).json<Panel>();
    const moveRefused = await as(owner, 'PATCH', `${base}/panels/${panel.id}`, buttonPanel({ channelId: CHANNELS.archive }));
    expect(moveRefused.json<ErrorBody>().message).toBe(needs);
    expect((await as(owner, 'GET', `${base}/panels/${panel.id}`)).json<Panel>().integrationDetails.channelId).not.toBe(CHANNELS.archive);
  });

  it('is for admins only, and scoped by server', async () => {
    const panel = (await as(owner, 'POST', `${base}/panels`, buttonPanel())).json<Panel>();
    const member = (await signIn(ctx, USERS.eli)).token;
    expect((await as(member, 'GET', `${base}/panels`)).statusCode).toBe(403);
    const chen = (await signIn(ctx, USERS.chen)).token;
    expect((await as(chen, 'GET', `/api/settings/servers/${GUILDS.studyHall}/panels/${panel.id}`)).statusCode).toBe(404);
  });
});
