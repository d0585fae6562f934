import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { ConfigurationChanges, ConfigurationDocument, ErrorBody, Panel, ServerSettings, Subject, Template } from '@ticket/contracts';
import { now } from '../../db/database';
import type * as PanelRepository from './panel-repository';
import { bearer, createTestApp, engines, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, SUPPORT_STAFF_ROLE, USERS } from '../../test/demo-world';

// A write that fails halfway through an import: the panels are written last, after subjects,
// questions and server settings, so everything before them must be taken back.
const failing = vi.hoisted(() => ({ panelInsert: false }));
vi.mock('./panel-repository', async (original) => {
  const actual = await original<typeof PanelRepository>();
  return {
    ...actual,
    insertPanel: async (...args: Parameters<typeof actual.insertPanel>) => {
      if (failing.panelInsert) throw new Error('disk full');
      return actual.insertPanel(...args);
    },
  };
});

const sandbox = useSandbox();

const forge = GUILDS.pixelForge; // alice owns it, bruno administers it
const owls = GUILDS.nightOwls; // bruno owns it; alice is a member
const FORGE = {
  openATicket: '1300000000000000105',
  supportCategory: '1300000000000000104',
  staffRoom: '1300000000000000107',
  hammerEmoji: '1300000000000000301',
};
const OWLS_SUPPORT_CHANNEL = '1300000000000000406';
const settingsOf = (serverId: string) => `/api/settings/servers/${serverId}`;

describe.each(engines)('configuration export and import on %s', (engine) => {
  let ctx: TestContext;
  let alice: string;
  let bruno: string;
  let chen: string; // admin of Study Hall only
  let eli: string; // a member everywhere
  beforeEach(async () => {
    failing.panelInsert = false;
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    alice = (await signIn(ctx, USERS.alice)).token;
    bruno = (await signIn(ctx, USERS.bruno)).token;
    chen = (await signIn(ctx, USERS.chen)).token;
    eli = (await signIn(ctx, USERS.eli)).token;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const as = (token: string | null, method: InjectOptions['method'], url: string, payload?: unknown) =>
    ctx.built.app.inject({ method, url, ...(token ? { headers: bearer(token) } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
  const ok = async <T>(token: string, method: InjectOptions['method'], url: string, payload?: unknown, status = 200): Promise<T> => {
    const response = await as(token, method, url, payload);
    expect(response.statusCode, response.body).toBe(status);
    return response.json<T>();
  };
  const setPlan = (serverId: string, plan: string) => ctx.built.database.db.updateTable('servers').set({ plan, updated_at: now() }).where('id', '=', serverId).execute();
  const createSubject = (serverId: string, name: string, token = bruno) => ok<Subject>(token, 'POST', `${settingsOf(serverId)}/subjects`, { name }, 201);
  const set = (serverId: string, subjectId: string, path: string, value: unknown) =>
    ok(bruno, 'PATCH', `${settingsOf(serverId)}/subjects/${subjectId}`, { serverId, subjectId, path, operation: 'set', value });
  const exportOf = (serverId: string) => ok<ConfigurationDocument>(bruno, 'GET', `${settingsOf(serverId)}/configuration`);
  const preview = (serverId: string, doc: unknown, token = bruno) => as(token, 'POST', `${settingsOf(serverId)}/configuration/preview`, doc);
  const apply = (serverId: string, doc: unknown, token = bruno) => as(token, 'POST', `${settingsOf(serverId)}/configuration`, doc);
  const subjectsOf = (serverId: string) => ok<Subject[]>(bruno, 'GET', `${settingsOf(serverId)}/subjects`);
  const panelsOf = (serverId: string) => ok<Panel[]>(bruno, 'GET', `${settingsOf(serverId)}/panels`);
  const languageOf = async (serverId: string) => (await ok<ServerSettings>(bruno, 'GET', `${settingsOf(serverId)}/settings`)).language;

  /** Pixel Forge on Premium: two subjects (one inheriting), a form question, a panel, German as its language. */
  async function configureForge(): Promise<{ billing: Subject; bugs: Subject }> {
    await setPlan(forge, 'premium');
    const billing = await createSubject(forge, 'Billing');
    const bugs = await createSubject(forge, 'Bug reports');
    await set(forge, billing.subjectId, 'logging.channelId', FORGE.staffRoom);
    await set(forge, billing.subjectId, 'staffRoles.value', [SUPPORT_STAFF_ROLE.pixelForge]);
    await set(forge, billing.subjectId, 'categories.waitingForStaff', [{ id: FORGE.supportCategory, selfCreated: false }]);
    await set(forge, billing.subjectId, 'limitations.whitelist.ids', [SUPPORT_STAFF_ROLE.pixelForge, USERS.alice]);
    await set(forge, billing.subjectId, 'ticketNameFormat.value', 'billing-{number}');
    await set(forge, billing.subjectId, 'requireForm', true);
    await set(forge, bugs.subjectId, 'inheritsFrom', billing.subjectId);
    await set(forge, bugs.subjectId, 'ticketNameFormat.inherits', true);
    await ok<Template>(bruno, 'PUT', `${settingsOf(forge)}/templates`, {
      subjectId: billing.subjectId,
      template: { type: 'Text', question: 'Order number', slug: 'order', index: 0, values: { minLength: 6, maxLength: 20 } },
    }, 201);
    await ok<Panel>(bruno, 'POST', `${settingsOf(forge)}/panels`, {
      type: 'BUTTON',
      name: 'Help desk',
      draft: false,
      channelId: FORGE.openATicket,
      message: { content: 'Pick a topic', embeds: [] },
      subjects: [
        { subjectId: billing.subjectId, text: 'Billing', style: 'Primary', emoji: { id: FORGE.hammerEmoji, name: 'forge_hammer' } },
        { subjectId: bugs.subjectId, text: 'Bugs', style: 'Danger', emoji: { id: null, name: '🐛' } },
      ],
    }, 201);
    await ok(bruno, 'PATCH', `${settingsOf(forge)}/settings`, { serverId: forge, path: 'language', operation: 'set', value: 'de' });
    return { billing, bugs };
  }

  it('exports every setting, question and panel, and imports them into another server with its own ids, unsetting the ids it lacks', async () => {
    const { billing } = await configureForge();
    const file = await exportOf(forge);
    expect(file).toMatchObject({ format: 'ticket-dashboard-configuration', version: 1, serverSettings: { language: 'de', publicStats: false } });
    expect(file.subjects.map((s) => s.name)).toEqual(['Billing', 'Bug reports']);
    expect(file.subjects[0]).toMatchObject({ subjectId: billing.subjectId, requireForm: true, logging: { channelId: FORGE.staffRoom }, questions: [{ slug: 'order', question: 'Order number' }] });
    expect(file.panels).toHaveLength(1);

    await setPlan(owls, 'premium');
    const previewed = await preview(owls, file);
    expect(previewed.statusCode, previewed.body).toBe(200);
    const changes = previewed.json<ConfigurationChanges>();
    expect(changes).toMatchObject({
      applied: false,
      subjects: { created: ['Billing', 'Bug reports'], updated: [], deleted: [], unchanged: [] },
      panels: { created: ['Help desk'], updated: [], deleted: [], unchanged: [] },
      serverSettings: [{ setting: 'language', from: 'en', to: 'de' }],
    });
    // Alice is a member of Night Owls, so she stays on the access list; Pixel Forge's channels, category, role and emoji are not there.
    expect(changes.unsetIds.map((u) => [u.field, u.id, u.setting])).toEqual([
      ['subjects.0.logging.channelId', FORGE.staffRoom, 'logChannel'],
      ['subjects.0.categories.waitingForStaff.0', FORGE.supportCategory, 'ticketCategory'],
      ['subjects.0.staffRoles.value.0', SUPPORT_STAFF_ROLE.pixelForge, 'staffRole'],
      ['subjects.0.limitations.whitelist.ids.0', SUPPORT_STAFF_ROLE.pixelForge, 'accessList'],
      ['panels.0.channelId', FORGE.openATicket, 'panelChannel'],
      ['panels.0.subjects.0.emoji.id', FORGE.hammerEmoji, 'emoji'],
    ]);
    expect(changes.unsetIds[0]).toMatchObject({ subject: 'Billing', panel: null });
    // The preview wrote nothing.
    expect(await subjectsOf(owls)).toEqual([]);
    expect(await languageOf(owls)).toBe('en');

    const applied = await apply(owls, file);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json<ConfigurationChanges>()).toEqual({ ...changes, applied: true });

    const imported = await subjectsOf(owls);
    expect(imported.map((s) => s.name)).toEqual(['Billing', 'Bug reports']);
    const [newBilling, newBugs] = imported as [Subject, Subject];
    expect(newBilling.subjectId).not.toBe(billing.subjectId);
    expect(newBilling).toMatchObject({
      serverId: owls,
      requireForm: true,
      ticketNameFormat: { value: 'billing-{number}' },
      logging: { channelId: null },
      staffRoles: { value: [] },
      categories: { waitingForStaff: [] },
      limitations: { whitelist: { ids: [USERS.alice] } },
    });
    // Inheritance follows the new id, and the inherited value is in effect.
    expect(newBugs).toMatchObject({ inheritsFrom: newBilling.subjectId, ticketNameFormat: { value: 'billing-{number}', inherits: true } });
    const questions = await ok<Template[]>(bruno, 'GET', `${settingsOf(owls)}/templates?subjectId=${newBilling.subjectId}`);
    expect(questions.map((q) => [q.slug, q.question, q.index])).toEqual([['order', 'Order number', 0]]);
    const [panel] = await panelsOf(owls);
    expect(panel).toMatchObject({ name: 'Help desk', draft: true, integrationDetails: { channelId: null, messageId: null } });
    expect(panel!.subjects.map((s) => [s.subjectId, s.emoji])).toEqual([
      [newBilling.subjectId, null],
      [newBugs.subjectId, { id: null, name: '🐛' }],
    ]);
    expect(await languageOf(owls)).toBe('de');

    // The same file again changes nothing, and Night Owls' own export brings the same settings back.
    const again = (await apply(owls, file)).json<ConfigurationChanges>();
    expect(again.subjects).toEqual({ created: [], updated: [], deleted: [], unchanged: ['Billing', 'Bug reports'] });
    expect(again.panels.unchanged).toEqual(['Help desk']);
    const back = await exportOf(owls);
    expect(back.subjects[1]).toMatchObject({ inheritsFrom: back.subjects[0]!.subjectId, ticketNameFormat: file.subjects[1]!.ticketNameFormat });
    expect(back.subjects[0]!.messages).toEqual(file.subjects[0]!.messages);

    // Into the server it came from, nothing changes and nothing is unset.
    const home = (await preview(forge, file)).json<ConfigurationChanges>();
    expect(home).toMatchObject({ subjects: { unchanged: ['Billing', 'Bug reports'] }, panels: { unchanged: ['Help desk'] }, serverSettings: [], unsetIds: [] });
  });

  it('updates subjects matched by name, creates the others, and deletes what the file does not have, as a deletion by hand', async () => {
    await configureForge();
    const file = await exportOf(forge);
    await setPlan(owls, 'premium');
    const old = await createSubject(owls, 'Old subject');
    const billing = await createSubject(owls, 'billing');
    await ok<Template>(bruno, 'PUT', `${settingsOf(owls)}/templates`, {
      subjectId: billing.subjectId,
      template: { type: 'Text', question: 'Anything else?', slug: 'extra', index: 0 },
    }, 201);
    await ok<Panel>(bruno, 'POST', `${settingsOf(owls)}/panels`, {
      type: 'BUTTON',
      name: 'Old panel',
      draft: false,
      channelId: OWLS_SUPPORT_CHANNEL,
      message: { content: 'Old', embeds: [] },
      subjects: [{ subjectId: old.subjectId, text: 'Old', style: 'Primary' }],
    }, 201);

    const changes = (await apply(owls, file)).json<ConfigurationChanges>();
    expect(changes.subjects).toEqual({ created: ['Bug reports'], updated: ['Billing'], deleted: ['Old subject'], unchanged: [] });
    expect(changes.panels).toEqual({ created: ['Help desk'], updated: [], deleted: ['Old panel'], unchanged: [] });
    const after = await subjectsOf(owls);
    expect(after.map((s) => s.name)).toEqual(['Billing', 'Bug reports']);
    expect(after[0]!.subjectId).toBe(billing.subjectId); // kept its id, so its tickets stay with it
    expect((await as(bruno, 'GET', `${settingsOf(owls)}/subjects/${old.subjectId}`)).statusCode).toBe(404);
    const questions = await ok<Template[]>(bruno, 'GET', `${settingsOf(owls)}/templates?subjectId=${billing.subjectId}`);
    expect(questions.map((q) => q.slug)).toEqual(['order']);
    expect((await panelsOf(owls)).map((p) => p.name)).toEqual(['Help desk']);
    // The deleted panel's message left the channel too.
    const messages = (await (await fetch(`${sandbox.url}/_sandbox/messages?channelId=${OWLS_SUPPORT_CHANNEL}`)).json()) as { messages: { deleted: boolean }[] };
    expect(messages.messages.every((m) => m.deleted)).toBe(true);
  });

  it("refuses what the plan does not allow with editing's error, and writes nothing", async () => {
    await configureForge();
    await createSubject(forge, 'Feedback');
    await createSubject(forge, 'Partnerships');
    const file = await exportOf(forge);
    await createSubject(owls, 'Kept');

    // Night Owls is on Free: three subjects at most.
    const tooMany = await apply(owls, file);
    expect(tooMany.statusCode).toBe(402);
    expect(tooMany.json<ErrorBody>()).toMatchObject({ code: 'limit_reached', message: 'The Free plan allows up to 3 subjects; the configuration has 4. Upgrade to import it.' });
    expect((await preview(owls, file)).statusCode).toBe(402);

    // Forms are a Premium feature, as when switching them on by hand.
    const fewer = { ...file, subjects: file.subjects.slice(0, 2) };
    const forms = await apply(owls, fewer);
    expect(forms.statusCode).toBe(402);
    expect(forms.json<ErrorBody>().message).toBe('Requiring a form is part of the Premium plan; this server is on the Free plan');
    const noForm = { ...fewer, subjects: fewer.subjects.map((s) => ({ ...s, requireForm: false })) };
    expect((await apply(owls, noForm)).json<ErrorBody>().message).toBe('Form questions are part of the Premium plan; this server is on the Free plan');

    expect((await subjectsOf(owls)).map((s) => s.name)).toEqual(['Kept']);
    expect(await panelsOf(owls)).toEqual([]);
    expect(await languageOf(owls)).toBe('en');
  });

  it('answers 400 naming the field for a malformed file, before anything is written', async () => {
    await configureForge();
    const file = await exportOf(forge);
    const cases: [unknown, string][] = [
      [{ ...file, format: 'something-else' }, 'body.format'],
      [{ ...file, version: 2 }, 'body.version'],
      [{ ...file, subjects: [{ ...file.subjects[0], name: 'ab' }] }, 'body.subjects.0.name'],
      [{ ...file, subjects: [file.subjects[0], { ...file.subjects[1], name: 'BILLING' }] }, 'body.subjects.1.name'],
      [{ ...file, subjects: [file.subjects[0]] }, 'body.panels.0.subjects.1.subjectId'],
      [{ ...file, subjects: [{ ...file.subjects[0], logging: { ...file.subjects[0]!.logging, channelId: 'general' } }, file.subjects[1]] }, 'body.subjects.0.logging.channelId'],
      [{ ...file, panels: 'none' }, 'body.panels'],
    ];
    for (const [body, field] of cases) {
      for (const call of [preview, apply]) {
        const response = await call(owls, body);
        expect(response.statusCode, field).toBe(400);
        expect(response.json<ErrorBody>().field).toBe(field);
      }
    }
    expect(await subjectsOf(owls)).toEqual([]);
  });

  it('takes everything back when a write fails halfway', async () => {
    await configureForge();
    const file = await exportOf(forge);
    await setPlan(owls, 'premium');
    const kept = await createSubject(owls, 'Kept');
    failing.panelInsert = true;
    const response = await apply(owls, file);
    expect(response.statusCode).toBe(500);
    expect(response.json<ErrorBody>().message).not.toContain('disk full');
    const subjects = await subjectsOf(owls);
    expect(subjects.map((s) => [s.subjectId, s.name])).toEqual([[kept.subjectId, 'Kept']]);
    expect(await ok<Template[]>(bruno, 'GET', `${settingsOf(owls)}/templates`)).toEqual([]);
    expect(await languageOf(owls)).toBe('en');
    const audit = await ok<{ elements: { action: string }[] }>(bruno, 'GET', `${settingsOf(owls)}/audit-log`);
    expect(audit.elements.map((e) => e.action)).toEqual(['subject.create']);
  });

  it("lets only the server's admins export and import, and never another server's", async () => {
    await configureForge();
    const file = await exportOf(forge);
    expect((await as(null, 'GET', `${settingsOf(forge)}/configuration`)).statusCode).toBe(401);
    expect((await as(eli, 'GET', `${settingsOf(forge)}/configuration`)).statusCode).toBe(403);
    expect((await as(chen, 'GET', `${settingsOf(forge)}/configuration`)).statusCode).toBe(403);
    expect((await preview(forge, file, chen)).statusCode).toBe(403);
    expect((await apply(forge, file, chen)).statusCode).toBe(403);
    // Alice is only a member of Night Owls.
    expect((await apply(owls, file, alice)).statusCode).toBe(403);
    expect((await preview(owls, file, eli)).statusCode).toBe(403);
    expect(await subjectsOf(owls)).toEqual([]);
    expect((await exportOf(forge)).subjects).toHaveLength(2);
  });
});
