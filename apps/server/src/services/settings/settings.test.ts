import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { AuditEntry, ErrorBody, PagedResult, ServerSettings, Subject, SubjectShort, Template, UpdateResult } from '@ticket/contracts';
import { now } from '../../db/database';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, SUPPORT_STAFF_ROLE, USERS } from '../../test/demo-world';

const sandbox = useSandbox();

const server = GUILDS.pixelForge;
const base = `/api/settings/servers/${server}`;

describe.each(engines)('settings service on %s', (engine) => {
  let ctx: TestContext;
  let owner: string; // alice owns Pixel Forge
  let admin: string; // bruno administers Pixel Forge
  let member: string; // eli is a member
  let otherAdmin: string; // chen administers Study Hall only
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    owner = (await signIn(ctx, USERS.alice)).token;
    admin = (await signIn(ctx, USERS.bruno)).token;
    member = (await signIn(ctx, USERS.eli)).token;
    otherAdmin = (await signIn(ctx, USERS.chen)).token;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const inject = (options: InjectOptions) => ctx.built.app.inject(options);
  const as = (token: string, method: InjectOptions['method'], url: string, payload?: unknown) =>
    inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (name: string, token = owner) => {
    const response = await as(token, 'POST', `${base}/subjects`, { name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Subject>();
  };
  const patch = (subjectId: string, path: string, value: unknown, operation = 'set', extra: object = {}, token = owner) =>
    as(token, 'PATCH', `${base}/subjects/${subjectId}`, { serverId: server, subjectId, path, operation, value, ...extra });
  const setPlan = (plan: string) => ctx.built.database.db.updateTable('servers').set({ plan, updated_at: now() }).where('id', '=', server).execute();

  describe('subjects', () => {
    it('creates a subject from sensible defaults and lists it', async () => {
      const subject = await create('Billing');
      expect(subject).toMatchObject({ serverId: server, name: 'Billing', deleted: false, active: true, index: 0, questions: [] });
      expect(subject.ticketNameFormat).toEqual({ value: 'ticket-{number}', inherits: false });
      expect(subject.buttons.closeButton).toMatchObject({ text: '', style: 'Danger' });
      expect(subject.limitations.maxActivePerUser).toBe(1);
      expect(JSON.parse(subject.messages.initialMessage.value.serialized)).toEqual(subject.messages.initialMessage.value.message);
      const list = (await as(owner, 'GET', `${base}/subjects`)).json<Subject[]>();
      expect(list.map((s) => s.name)).toEqual(['Billing']);
      expect((await as(admin, 'GET', `${base}/subjects/${subject.subjectId}`)).json<Subject>().name).toBe('Billing');
    });

    it('refuses names that are too short, too long or taken (case-insensitively), naming the problem', async () => {
      const short = await as(owner, 'POST', `${base}/subjects`, { name: 'ab' });
      expect(short.statusCode).toBe(400);
      expect(short.json<ErrorBody>()).toMatchObject({ field: 'body.name', message: 'body.name: Subject name must be at least 3 characters' });
      const long = await as(owner, 'POST', `${base}/subjects`, { name: 'x'.repeat(120) });
      expect(long.json<ErrorBody>().message).toBe('body.name: Subject name must be under 120 characters');
      expect((await as(owner, 'POST', `${base}/subjects`, { name: 'x'.repeat(119) })).statusCode).toBe(201);
      await create('Billing');
      const taken = await as(owner, 'POST', `${base}/subjects`, { name: 'billing' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json<ErrorBody>().message).toBe('A subject named "billing" already exists in this server');
    });

    it("refuses the subject beyond the plan's limit with a message naming it, and counts the plan", async () => {
      await create('One');
      await create('Two');
      await create('Three');
      const fourth = await as(owner, 'POST', `${base}/subjects`, { name: 'Four' });
      expect(fourth.statusCode).toBe(402);
      expect(fourth.json<ErrorBody>().message).toBe('The Free plan allows up to 3 subjects; this server has 3. Upgrade to create more.');
      await setPlan('premium');
      expect((await as(owner, 'POST', `${base}/subjects`, { name: 'Four' })).statusCode).toBe(201);
    });

    it('deletes by marking deleted: the name is free again and the count drops', async () => {
      const a = await create('Alpha');
      await create('Beta');
      expect((await as(owner, 'DELETE', `${base}/subjects/${a.subjectId}`)).statusCode).toBe(204);
      expect((await as(owner, 'GET', `${base}/subjects/${a.subjectId}`)).statusCode).toBe(404);
      const list = (await as(owner, 'GET', `${base}/subjects`)).json<Subject[]>();
      expect(list.map((s) => [s.name, s.index])).toEqual([['Beta', 0]]);
      const row = await ctx.built.database.db.selectFrom('subjects').selectAll().where('id', '=', a.subjectId).executeTakeFirstOrThrow();
      expect(row.deleted).toBe(1);
      expect((await as(owner, 'POST', `${base}/subjects`, { name: 'Alpha' })).statusCode).toBe(201);
      expect((await as(owner, 'DELETE', `${base}/subjects/${a.subjectId}`)).statusCode).toBe(404);
    });

    it('reorders subjects through index', async () => {
      const a = await create('Alpha');
      await create('Beta');
      await create('Gamma');
      expect((await patch(a.subjectId, 'index', 2)).statusCode).toBe(200);
      const list = (await as(owner, 'GET', `${base}/subjects`)).json<Subject[]>();
      expect(list.map((s) => `${s.index}:${s.name}`)).toEqual(['0:Beta', '1:Gamma', '2:Alpha']);
    });

    it('lets admins write, staff read, and refuses members and other servers (403), anonymous callers (401)', async () => {
      const subject = await create('Billing', admin);
      expect((await as(member, 'GET', `${base}/subjects`)).statusCode).toBe(403);
      expect((await as(otherAdmin, 'GET', `${base}/subjects/${subject.subjectId}`)).statusCode).toBe(403);
      expect((await as(otherAdmin, 'POST', `${base}/subjects`, { name: 'Intrusion' })).statusCode).toBe(403);
      expect((await patch(subject.subjectId, 'name', 'Hacked', 'set', {}, member)).statusCode).toBe(403);
      expect((await inject({ method: 'GET', url: `${base}/subjects` })).statusCode).toBe(401);
      // A subject of server A is not reachable through server B's path.
      const chenServer = `/api/settings/servers/${GUILDS.studyHall}`;
      expect((await as(otherAdmin, 'GET', `${chenServer}/subjects/${subject.subjectId}`)).statusCode).toBe(404);
      // Operators reach everything.
      expect((await inject({ method: 'GET', url: `${base}/subjects`, headers: bearer(ADMIN_KEY) })).statusCode).toBe(200);
    });
  });

  describe('path updates', () => {
    it('sets a value and answers the value in effect', async () => {
      const s = await create('Billing');
      const response = await patch(s.subjectId, 'logging.channelId', '1300000000000000105');
      expect(response.statusCode).toBe(200);
      expect(response.json<UpdateResult>()).toEqual({ path: 'logging.channelId', value: '1300000000000000105', inherits: false });
      const again = (await as(owner, 'GET', `${base}/subjects/${s.subjectId}`)).json<Subject>();
      expect(again.logging.channelId).toBe('1300000000000000105');
    });

    it('adds and removes list elements idempotently', async () => {
      const s = await create('Billing');
      for (let i = 0; i < 2; i++) expect((await patch(s.subjectId, 'staffRoles.value', SUPPORT_STAFF_ROLE.pixelForge, 'add')).statusCode).toBe(200);
      let subject = (await as(owner, 'GET', `${base}/subjects/${s.subjectId}`)).json<Subject>();
      expect(subject.staffRoles.value).toEqual([SUPPORT_STAFF_ROLE.pixelForge]);
      for (let i = 0; i < 2; i++) expect((await patch(s.subjectId, 'staffRoles.value', SUPPORT_STAFF_ROLE.pixelForge, 'remove')).statusCode).toBe(200);
      subject = (await as(owner, 'GET', `${base}/subjects/${s.subjectId}`)).json<Subject>();
      expect(subject.staffRoles.value).toEqual([]);
    });

    it('replaces a list element matched by filterKey', async () => {
      const s = await create('Billing');
      const category = { id: '1300000000000000101', selfCreated: false };
      await patch(s.subjectId, 'categories.waitingForStaff', category, 'add', { filterKey: 'id' });
      await patch(s.subjectId, 'categories.waitingForStaff', { ...category, selfCreated: true }, 'add', { filterKey: 'id' });
      const subject = (await as(owner, 'GET', `${base}/subjects/${s.subjectId}`)).json<Subject>();
      expect(subject.categories.waitingForStaff).toEqual([{ id: '1300000000000000101', selfCreated: true }]);
      expect((await patch(s.subjectId, 'categories.waitingForStaff', { id: '1300000000000000101' }, 'remove', { filterKey: 'id' })).statusCode).toBe(200);
      expect((await as(owner, 'GET', `${base}/subjects/${s.subjectId}`)).json<Subject>().categories.waitingForStaff).toEqual([]);
    });

    it('keeps a permission in one list only: allowing it removes it from deny', async () => {
      const s = await create('Billing');
      await patch(s.subjectId, 'permissions.userPermissions.value.deny', 'AttachFiles', 'add');
      let subject = (await as(owner, 'GET', `${base}/subjects/${s.subjectId}`)).json<Subject>();
      expect(subject.permissions.userPermissions.value.allow).not.toContain('AttachFiles');
      expect(subject.permissions.userPermissions.value.deny).toEqual(['AttachFiles']);
      await patch(s.subjectId, 'permissions.userPermissions.value.allow', 'AttachFiles', 'add');
      subject = (await as(owner, 'GET', `${base}/subjects/${s.subjectId}`)).json<Subject>();
      expect(subject.permissions.userPermissions.value.allow).toContain('AttachFiles');
      expect(subject.permissions.userPermissions.value.deny).toEqual([]);
    });

    it('names an unknown path, a read-only one, a non-list and a wrong value', async () => {
      const s = await create('Billing');
      const unknown = await patch(s.subjectId, 'logging.colour', 1);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<ErrorBody>()).toMatchObject({ field: 'body.path', message: 'Unknown or read-only setting "logging.colour"' });
      expect((await patch(s.subjectId, 'deleted', true)).json<ErrorBody>().field).toBe('body.path');
      const notList = await patch(s.subjectId, 'logging.channelId', '1', 'add');
      expect(notList.json<ErrorBody>()).toMatchObject({ field: 'body.operation', message: '"logging.channelId" is not a list; use the set operation' });
      const wrong = await patch(s.subjectId, 'automation.closeDelay', { time: 'soon', unit: 'minutes' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json<ErrorBody>().field).toBe('body.value');
      expect(wrong.json<ErrorBody>().message).toMatch(/^automation\.closeDelay\.time: /);
      const style = await patch(s.subjectId, 'buttons.closeButton.style', 'Purple');
      expect(style.json<ErrorBody>().message).toMatch(/^buttons\.closeButton\.style: /);
    });

    it('renames through the name path, refusing a taken name', async () => {
      const a = await create('Alpha');
      await create('Beta');
      expect((await patch(a.subjectId, 'name', 'Gamma')).json<UpdateResult>().value).toBe('Gamma');
      const taken = await patch(a.subjectId, 'name', 'BETA');
      expect(taken.statusCode).toBe(409);
      expect((await patch(a.subjectId, 'name', 'no')).statusCode).toBe(400);
    });

    it('gates plan features when they are switched on', async () => {
      const s = await create('Billing');
      const autoClose = await patch(s.subjectId, 'automation.autoCloseTime.enabled', true);
      expect(autoClose.statusCode).toBe(402);
      expect(autoClose.json<ErrorBody>().message).toBe('Auto-close is part of the Premium plan; this server is on the Free plan');
      expect((await patch(s.subjectId, 'requireForm', true)).statusCode).toBe(402);
      await setPlan('premium');
      expect((await patch(s.subjectId, 'automation.autoCloseTime.enabled', true)).statusCode).toBe(200);
    });

    it('applies a bulk update all or none, in order', async () => {
      const s = await create('Billing');
      const update = (path: string, value: unknown) => ({ serverId: server, subjectId: s.subjectId, path, operation: 'set', value });
      const ok = await as(owner, 'PATCH', `${base}/subjects/bulk`, { updates: [update('logging.created', false), update('automation.closeDelay', { time: 10, unit: 'minutes' })] });
      expect(ok.statusCode).toBe(200);
      expect(ok.json<UpdateResult[]>()).toEqual([
        { path: 'logging.created', value: false, inherits: false },
        { path: 'automation.closeDelay', value: { time: 10, unit: 'minutes' }, inherits: false },
      ]);
      const bad = await as(owner, 'PATCH', `${base}/subjects/bulk`, { updates: [update('logging.claimed', false), update('logging.nope', 1)] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<ErrorBody>().field).toBe('body.updates.1.path');
      const subject = (await as(owner, 'GET', `${base}/subjects/${s.subjectId}`)).json<Subject>();
      expect(subject.logging.claimed).toBe(true); // the first update of the failed bulk did not stick
      const wrongServer = await as(owner, 'PATCH', `${base}/subjects/bulk`, { updates: [{ ...update('logging.claimed', false), serverId: GUILDS.studyHall }] });
      expect(wrongServer.json<ErrorBody>().field).toBe('body.updates.0.serverId');
    });
  });

  describe('inheritance', () => {
    it('resolves inheriting groups to the parent value while inherits is true', async () => {
      const parent = await create('Parent');
      const child = await create('Child');
      await patch(parent.subjectId, 'ticketNameFormat.value', 'support-{number}');
      await patch(child.subjectId, 'inheritsFrom', parent.subjectId);
      const inherit = await patch(child.subjectId, 'ticketNameFormat.inherits', true);
      expect(inherit.json<UpdateResult>()).toEqual({ path: 'ticketNameFormat.inherits', value: true, inherits: false });
      let read = (await as(owner, 'GET', `${base}/subjects/${child.subjectId}`)).json<Subject>();
      expect(read.ticketNameFormat).toEqual({ value: 'support-{number}', inherits: true });
      // Changing the parent shows through; the child's own value is kept but not in effect.
      await patch(parent.subjectId, 'ticketNameFormat.value', 'help-{number}');
      const own = await patch(child.subjectId, 'ticketNameFormat.value', 'mine-{number}');
      expect(own.json<UpdateResult>()).toEqual({ path: 'ticketNameFormat.value', value: 'help-{number}', inherits: true });
      read = (await as(owner, 'GET', `${base}/subjects/${child.subjectId}`)).json<Subject>();
      expect(read.ticketNameFormat.value).toBe('help-{number}');
      await patch(child.subjectId, 'ticketNameFormat.inherits', false);
      read = (await as(owner, 'GET', `${base}/subjects/${child.subjectId}`)).json<Subject>();
      expect(read.ticketNameFormat).toEqual({ value: 'mine-{number}', inherits: false });
    });

    it('refuses cycles and unknown parents', async () => {
      const a = await create('Alpha');
      const b = await create('Beta');
      const c = await create('Gamma');
      await patch(b.subjectId, 'inheritsFrom', a.subjectId);
      await patch(c.subjectId, 'inheritsFrom', b.subjectId);
      const cycle = await patch(a.subjectId, 'inheritsFrom', c.subjectId);
      expect(cycle.statusCode).toBe(400);
      expect(cycle.json<ErrorBody>().message).toBe('inheritsFrom: inheriting from "Gamma" would create a cycle');
      expect((await patch(a.subjectId, 'inheritsFrom', a.subjectId)).statusCode).toBe(400);
      const unknown = await patch(a.subjectId, 'inheritsFrom', 'no-such-subject');
      expect(unknown.json<ErrorBody>().message).toBe('inheritsFrom: no subject no-such-subject in this server');
    });
  });

  describe('staff and subjects/me', () => {
    it('makes holders of a subject staff role Staff of that subject only', async () => {
      const billing = await create('Billing');
      await create('Partners');
      await patch(billing.subjectId, 'staffRoles.value', SUPPORT_STAFF_ROLE.pixelForge, 'add');
      const dana = (await signIn(ctx, USERS.dana)).token;
      const mine = (await as(dana, 'GET', `${base}/subjects/me`)).json<SubjectShort[]>();
      expect(mine.map((s) => s.name)).toEqual(['Billing']);
      expect((await as(owner, 'GET', `${base}/subjects/me`)).json<SubjectShort[]>().map((s) => s.name)).toEqual(['Billing', 'Partners']);
      expect((await as(member, 'GET', `${base}/subjects/me`)).statusCode).toBe(403);
    });
  });

  describe('server settings', () => {
    it('reads defaults, creates, and changes the language', async () => {
      await create('Billing');
      const defaults = (await as(owner, 'GET', `${base}/settings`)).json<ServerSettings>();
      expect(defaults).toMatchObject({ serverId: server, language: 'en', subscription: 'free' });
      expect(defaults.subjects.map((s) => s.name)).toEqual(['Billing']);
      const changed = await as(owner, 'PATCH', `${base}/settings`, { serverId: server, path: 'language', operation: 'set', value: 'de' });
      expect(changed.json<UpdateResult>()).toEqual({ path: 'language', value: 'de', inherits: false });
      expect((await as(owner, 'GET', `${base}/settings`)).json<ServerSettings>().language).toBe('de');
      expect((await as(owner, 'POST', `${base}/settings`, {})).statusCode).toBe(409);
      const unknown = await as(owner, 'PATCH', `${base}/settings`, { serverId: server, path: 'subscription', operation: 'set', value: 'enterprise' });
      expect(unknown.json<ErrorBody>().field).toBe('body.path');
    });

    it('serves operators the bulk and paged calls', async () => {
      const s = await create('Billing');
      const op = bearer(ADMIN_KEY);
      const bulk = await inject({ method: 'POST', url: '/api/settings/bulk/subjects', headers: op, payload: { ids: [s.subjectId, 'missing'] } });
      expect(bulk.json<Subject[]>().map((x) => x.name)).toEqual(['Billing']);
      await as(owner, 'PATCH', `${base}/settings`, { serverId: server, path: 'language', operation: 'set', value: 'fr' });
      const settings = await inject({ method: 'POST', url: '/api/settings/bulk/settings', headers: op, payload: { ids: [server] } });
      expect(settings.json<ServerSettings[]>()[0]?.language).toBe('fr');
      const all = await inject({ method: 'GET', url: '/api/settings/?Page=1&Amount=10', headers: op });
      expect(all.json()).toMatchObject({ page: 1, maxPage: 1, elements: [expect.objectContaining({ serverId: server })] });
      expect((await as(owner, 'GET', '/api/settings/')).statusCode).toBe(403);
    });
  });

  describe('form questions (templates)', () => {
    const question = (slug: string, index = 0) => ({
      type: 'Text',
      question: 'What is your order number?',
      slug,
      index,
      answerFormat: 'CodeLine',
      values: { large: false, minLength: 3, maxLength: 20, placeholder: 'A-123' },
    });

    it('is part of the Premium plan', async () => {
      const s = await create('Billing');
      const response = await as(owner, 'PUT', `${base}/templates`, { template: question('order'), subjectId: s.subjectId });
      expect(response.statusCode).toBe(402);
      expect(response.json<ErrorBody>().message).toBe('Form questions are part of the Premium plan; this server is on the Free plan');
    });

    it('creates, orders, updates and deletes questions, listed in the subject', async () => {
      await setPlan('premium');
      const s = await create('Billing');
      const first = (await as(owner, 'PUT', `${base}/templates`, { template: question('order'), subjectId: s.subjectId })).json<Template>();
      const second = (await as(owner, 'PUT', `${base}/templates`, { template: question('email', 0), subjectId: s.subjectId })).json<Template>();
      expect(second.index).toBe(0);
      expect((await as(owner, 'GET', `${base}/subjects/${s.subjectId}`)).json<Subject>().questions).toEqual([second.questionId, first.questionId]);
      const updated = await as(owner, 'PATCH', `${base}/templates/${first.questionId}`, { ...question('order-no', 0), question: 'Order number?' });
      expect(updated.json<Template>()).toMatchObject({ slug: 'order-no', question: 'Order number?', index: 0 });
      expect((await as(owner, 'GET', `${base}/templates?subjectId=${s.subjectId}`)).json<Template[]>().map((t) => t.slug)).toEqual(['order-no', 'email']);
      const bulk = await as(owner, 'PATCH', `${base}/templates/bulk`, [
        { ...question('order-no', 1), questionId: first.questionId },
        { ...question('email', 0), questionId: second.questionId },
      ]);
      expect(bulk.statusCode).toBe(200);
      expect((await as(owner, 'GET', `${base}/templates`)).json<Template[]>().map((t) => t.slug)).toEqual(['email', 'order-no']);
      expect((await as(owner, 'DELETE', `${base}/templates/${second.questionId}`)).statusCode).toBe(204);
      expect((await as(owner, 'GET', `${base}/templates/${first.questionId}`)).json<Template>().index).toBe(0);
      expect((await as(owner, 'GET', `${base}/templates/${second.questionId}`)).statusCode).toBe(404);
    });

    it('validates questions per SPEC §5 and keeps slugs unique in a subject', async () => {
      await setPlan('premium');
      const s = await create('Billing');
      const emptySlug = await as(owner, 'PUT', `${base}/templates`, { template: question(''), subjectId: s.subjectId });
      expect(emptySlug.statusCode).toBe(400);
      expect(emptySlug.json<ErrorBody>()).toMatchObject({ field: 'body.template.slug', message: 'body.template.slug: Slug is required' });
      const bounds = await as(owner, 'PUT', `${base}/templates`, { template: { ...question('x'), values: { large: false, minLength: 9, maxLength: 3, placeholder: null } }, subjectId: s.subjectId });
      expect(bounds.json<ErrorBody>().message).toMatch(/Minimum length must be less than maximum length/);
      const noButtons = await as(owner, 'PUT', `${base}/templates`, { template: { type: 'Button', question: 'Pick', slug: 'pick', index: 0, answerFormat: 'None', values: [] }, subjectId: s.subjectId });
      expect(noButtons.json<ErrorBody>().message).toMatch(/Add at least one button/);
      await as(owner, 'PUT', `${base}/templates`, { template: question('order'), subjectId: s.subjectId });
      const dup = await as(owner, 'PUT', `${base}/templates`, { template: question('ORDER'), subjectId: s.subjectId });
      expect(dup.statusCode).toBe(409);
      expect(dup.json<ErrorBody>().message).toBe('A question with the slug "ORDER" already exists in this subject');
      const foreign = await as(owner, 'PUT', `${base}/templates`, { template: question('z'), subjectId: 'not-a-subject' });
      expect(foreign.statusCode).toBe(404);
    });
  });

  describe('audit log', () => {
    it('records who changed what, old and new, readable by admins only', async () => {
      const s = await create('Billing');
      await patch(s.subjectId, 'logging.created', false, 'set', {}, admin);
      const log = await as(owner, 'GET', `${base}/audit-log?Page=1&Amount=10`);
      expect(log.statusCode).toBe(200);
      const page = log.json<PagedResult<AuditEntry>>();
      expect(page.elements[0]).toMatchObject({
        action: 'subject.update',
        subjectId: s.subjectId,
        subjectName: 'Billing',
        path: 'logging.created',
        oldValue: true,
        newValue: false,
        actor: { kind: 'user', id: USERS.bruno, name: 'Bruno Baptiste' },
      });
      expect(page.elements[1]).toMatchObject({ action: 'subject.create', actor: { id: USERS.alice } });
      const dana = (await signIn(ctx, USERS.dana)).token;
      expect((await as(dana, 'GET', `${base}/audit-log`)).statusCode).toBe(403);
    });
  });
});
