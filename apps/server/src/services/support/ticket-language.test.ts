import type { Panel, Subject } from '@ticket/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { now } from '../../db/database';
import { bearer, createTestApp, engines, interactionSigner, resetSandbox, signIn, testConfig, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, SUPPORT_STAFF_ROLE, USERS } from '../../test/demo-world';

const sandbox = useSandbox();
const signer = interactionSigner();

const SERVER = GUILDS.studyHall;
const OPEN_A_TICKET = '1300000000000000608';
const STAFF = SUPPORT_STAFF_ROLE.studyHall;

interface SandboxMessage {
  content: string;
  embeds: { title?: string; description?: string }[];
  components: { components: { custom_id?: string; label?: string; url?: string }[] }[];
}
interface Answer {
  type: number;
  data: { content?: string; title?: string; components?: { components: { label?: string; url?: string }[] }[] };
}

/**
 * What the bot writes on the platform follows the ticket's language: its subject's, else its
 * server's. Asserted on what the sandbox's platform received.
 */
describe.each(engines)('the language the bot speaks in tickets on %s', (engine) => {
  let ctx: TestContext;
  let admin: string;
  let subject: Subject;
  let panel: Panel;
  let interactionCount = 0;

  const api = (method: 'POST' | 'PATCH', url: string, payload: unknown) => ctx.built.app.inject({ method, url, headers: bearer(admin), payload: payload as object });
  const set = async (path: string, value: unknown) => {
    const response = await api('PATCH', `/api/settings/servers/${SERVER}/subjects/${subject.subjectId}`, { serverId: SERVER, subjectId: subject.subjectId, path, operation: 'set', value });
    expect(response.statusCode, response.body).toBe(200);
  };
  const setServerLanguage = async (language: string) => {
    const response = await api('PATCH', `/api/settings/servers/${SERVER}/settings`, { serverId: SERVER, path: 'language', operation: 'set', value: language });
    expect(response.statusCode, response.body).toBe(200);
  };
  const click = async (userId: string, customId: string, roles: string[] = []) => {
    const member = { user: { id: userId, username: `user${userId.slice(-3)}`, global_name: null }, roles };
    const body = JSON.stringify({
      id: String(++interactionCount),
      application_id: '1100000000000000001',
      version: 1,
      guild_id: SERVER,
      channel_id: OPEN_A_TICKET,
      type: 3,
      member,
      data: { custom_id: customId, component_type: 2 },
    });
    const response = await ctx.built.app.inject({ method: 'POST', url: '/api/support/discord', payload: body, headers: signer.headers(body) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Answer>();
  };
  const open = () => click(USERS.eli, `panel:${panel.id}:${subject.subjectId}`);
  const openedId = (answer: Answer) => /<#(\d+)>/.exec(answer.data.content ?? '')?.[1] ?? '';
  const messagesIn = async (channelId: string) =>
    ((await (await fetch(`${sandbox.url}/_sandbox/messages?channelId=${channelId}`)).json()) as { messages: SandboxMessage[] }).messages;
  const directTo = async (userId: string) =>
    ((await (await fetch(`${sandbox.url}/_sandbox/direct-messages?userId=${userId}`)).json()) as { messages: SandboxMessage[] }).messages;
  const labels = (message: SandboxMessage | undefined) => message?.components.flatMap((row) => row.components.map((c) => c.label));

  beforeEach(async () => {
    await resetSandbox(sandbox);
    const base = testConfig(sandbox);
    ctx = await createTestApp(sandbox, engine, { platform: { ...base.platform, publicKey: signer.publicKeyHex } });
    admin = (await signIn(ctx, USERS.chen)).token;
    await ctx.built.database.db.updateTable('servers').set({ plan: 'enterprise', updated_at: now() }).where('id', '=', SERVER).execute();
    subject = (await api('POST', `/api/settings/servers/${SERVER}/subjects`, { name: 'Orders' })).json<Subject>();
    await set('staffRoles', { value: [STAFF], inherits: false });
    await set('automation.dmAuthorOnClose', true);
    await set('automation.closeDelay', { time: 10, unit: 'minutes' });
    const created = await api('POST', `/api/settings/servers/${SERVER}/panels`, {
      name: 'Help',
      draft: false,
      type: 'BUTTON',
      channelId: OPEN_A_TICKET,
      message: { content: 'Open a ticket', embeds: [] },
      subjects: [{ subjectId: subject.subjectId, text: 'Orders', style: 'Primary', emoji: null }],
    });
    expect(created.statusCode, created.body).toBe(201);
    panel = created.json<Panel>();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('speaks German in a ticket of a subject set to German: system lines, buttons, the close message', async () => {
    await set('language', 'de');
    const opened = await open();
    expect(opened.data.content).toMatch(/^Dein Ticket ist eröffnet: <#\d+>$/);
    expect(opened.data.components?.[0]?.components[0]?.label).toBe('Zum Ticket');
    const id = openedId(opened);

    const [welcome] = await messagesIn(id);
    expect(welcome?.content).toBe(`<@${USERS.eli}>`);
    expect(welcome?.embeds[0]).toMatchObject({ title: 'Willkommen in deinem Ticket zu Orders', description: expect.stringContaining('Danke für deine Nachricht') });
    expect(labels(welcome)).toEqual(['Schließen', 'Übernehmen']);

    expect((await click(USERS.dana, `ticket:claim:${id}`, [STAFF])).data.content).toBe('Du hast dieses Ticket übernommen.');
    expect((await messagesIn(id)).at(-1)?.content).toBe(`Dieses Ticket wurde von <@${USERS.dana}> übernommen.`);

    expect((await click(USERS.eli, `ticket:close:${id}`)).data.content).toBe('Das Ticket wird in 10 Minuten geschlossen.');
    const closing = (await messagesIn(id)).at(-1);
    expect(closing?.content).toBe('Dieses Ticket wird in 10 Minuten geschlossen.');
    expect(labels(closing)).toEqual(['Schließen abbrechen', 'Jetzt schließen']);

    expect((await click(USERS.eli, `ticket:close-now:${id}`)).data.content).toBe('Ticket geschlossen.');
    const [dm] = await directTo(USERS.eli);
    expect(dm?.content).toBe('Dein Ticket #1 (ticket-0001) auf Study Hall wurde geschlossen.');
    expect(dm?.embeds[0]).toMatchObject({ title: 'Ticket geschlossen', description: 'Dieses Ticket wurde geschlossen. Danke, dass du uns kontaktiert hast.' });
  });

  it('speaks Arabic in a ticket of a subject set to Arabic, and asks for the close reason in Arabic', async () => {
    await set('language', 'ar');
    await set('automation.requireCloseReason', true);
    const opened = await open();
    expect(opened.data.content).toMatch(/^تم فتح تذكرتك: <#\d+>$/);
    const id = openedId(opened);

    const [welcome] = await messagesIn(id);
    expect(welcome?.embeds[0]?.title).toBe('مرحبًا بك في تذكرتك الخاصة بـ Orders');
    expect(labels(welcome)).toEqual(['إغلاق', 'استلام']);

    expect((await click(USERS.dana, `ticket:claim:${id}`, [STAFF])).data.content).toBe('لقد استلمت هذه التذكرة.');
    expect((await messagesIn(id)).at(-1)?.content).toBe(`استلم <@${USERS.dana}> هذه التذكرة.`);

    const modal = await click(USERS.eli, `ticket:close:${id}`);
    expect(modal).toMatchObject({ type: 9, data: { title: 'إغلاق التذكرة' } });
    expect(modal.data.components?.[0]?.components[0]?.label).toBe('السبب');

    await ctx.built.services.ticketClosing.close(USERS.eli, SERVER, id, null);
    const [dm] = await directTo(USERS.eli);
    expect(dm?.content).toBe('تم إغلاق تذكرتك رقم 1 (ticket-0001) في Study Hall.');
    expect(dm?.embeds[0]?.title).toBe('تم إغلاق التذكرة');
  });

  it('speaks the server’s language, French, where the subject chooses none', async () => {
    await setServerLanguage('fr');
    const opened = await open();
    expect(opened.data.content).toMatch(/^Votre ticket est ouvert : <#\d+>$/);
    const id = openedId(opened);
    const [welcome] = await messagesIn(id);
    expect(welcome?.embeds[0]?.title).toBe('Bienvenue dans votre ticket Orders');
    expect(labels(welcome)).toEqual(['Fermer', 'Prendre en charge']);
    expect((await click(USERS.eli, `ticket:claim:${id}`)).data.content).toBe('Seule l’équipe peut prendre en charge des tickets.');

    // The subject's own language wins over the server's.
    await set('language', 'de');
    expect((await click(USERS.eli, `ticket:claim:${id}`)).data.content).toBe('Nur das Team kann Tickets übernehmen.');
  });

  it('refuses in the subject’s language, and keeps the texts the server’s staff wrote as they are', async () => {
    await set('language', 'de');
    await set('limitations.maxActivePerUser', 1);
    expect(openedId(await open())).not.toBe('');
    expect(await open()).toEqual({ type: 4, data: { content: 'Du hast in Orders bereits die höchste erlaubte Zahl offener Tickets (1).', flags: 64 } });

    await set('disableCreation', true);
    expect((await click(USERS.dana, `panel:${panel.id}:${subject.subjectId}`)).data.content).toBe('In Orders können gerade keine neuen Tickets eröffnet werden.');

    await set('disableCreation', false);
    await set('limitations.maxActivePerUser', 5);
    await set('buttons.closeButton', { text: 'Fertig', style: 'Danger', url: null, emote: null });
    await set('messages.initialMessage', { value: { message: { content: 'Hallo {user}!', embeds: [] }, serialized: '' }, inherits: false, enabled: true });
    const id = openedId(await open());
    const [welcome] = await messagesIn(id);
    expect(welcome?.content).toBe(`Hallo <@${USERS.eli}>!`);
    expect(welcome?.embeds).toEqual([]);
    expect(labels(welcome)).toEqual(['Fertig', 'Übernehmen']);
  });
});
