import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { ErrorBody, Language, LegacyConversionResult, TranslationFileInLanguage, UploadTranslationResult } from '@ticket/contracts';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';

const sandbox = useSandbox();
const A = GUILDS.pixelForge; // Alice owns it, Bruno is an admin, Eli a member
const OPERATOR = { authorization: `Admin ${ADMIN_KEY}` };
const fixture = (name: string) => JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8')) as Record<string, unknown>;

const HELP = {
  'greeting': 'Hello {{name}}',
  'tickets_one': 'One ticket',
  'tickets_other': '{{count}} tickets',
  'farewell': 'Goodbye',
};

describe.each(engines)('translations service on %s', (engine) => {
  let ctx: TestContext;
  let bruno: string;
  let eli: string;

  const call = (options: InjectOptions) => ctx.built.app.inject(options);
  const asOperator = (method: InjectOptions['method'], url: string, payload?: unknown) =>
    call({ method, url: `/api/localization${url}`, headers: OPERATOR, ...(payload === undefined ? {} : { payload: payload as object }) });
  const upload = (document: Record<string, string>, sourceLanguage = 'en', fileName = 'help-center') =>
    asOperator('POST', '/translations', { sourceLanguage, fileName, addToLocalazy: false, document, fileDescription: 'Help center' });
  const read = async (fileName: string, language?: string) => {
    const response = await call({ method: 'GET', url: `/api/localization/translations/${fileName}${language ? `?language=${language}` : ''}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TranslationFileInLanguage>();
  };

  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    bruno = (await signIn(ctx, USERS.bruno)).token;
    eli = (await signIn(ctx, USERS.eli)).token;
  });
  afterEach(async () => {
    await ctx?.close();
  });

  it('lists the 39 UI languages to anyone, and lets operators alone add and remove languages', async () => {
    const listed = await call({ method: 'GET', url: '/api/localization/languages' });
    expect(listed.statusCode).toBe(200);
    const languages = listed.json<Language[]>();
    expect(languages).toHaveLength(39);
    expect(languages).toContainEqual({ languageCode: 'de', name: 'Deutsch' });

    const klingon = { languageCode: 'tlh', name: 'tlhIngan Hol' };
    for (const token of [eli, bruno]) {
      for (const options of [
        { method: 'POST' as const, url: '/api/localization/languages', payload: klingon },
        { method: 'DELETE' as const, url: '/api/localization/languages/de' },
        { method: 'POST' as const, url: '/api/localization/translations', payload: { sourceLanguage: 'en', fileName: 'x', addToLocalazy: false, document: { a: 'b' } } },
        { method: 'POST' as const, url: '/api/localization/translations/legacy', payload: { sourceLanguage: 'en', fileName: 'x', document: { a: 'b' } } },
      ]) {
        expect((await call({ ...options, headers: bearer(token) })).statusCode, `${options.method} ${options.url}`).toBe(403);
        expect((await call(options)).statusCode, `${options.method} ${options.url} without a key`).toBe(401);
      }
    }

    expect((await asOperator('POST', '/languages', klingon)).statusCode).toBe(201);
    const again = await asOperator('POST', '/languages', klingon);
    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorBody>().message).toBe('Language tlh exists already');
    expect((await call({ method: 'GET', url: '/api/localization/languages' })).json<Language[]>().at(-1)).toEqual(klingon);
    expect((await asOperator('DELETE', '/languages/tlh')).statusCode).toBe(204);
    expect((await asOperator('DELETE', '/languages/tlh')).statusCode).toBe(404);
  });

  it('refuses to remove English or a language a server or subject speaks, naming them', async () => {
    const english = await asOperator('DELETE', '/languages/en');
    expect(english.statusCode).toBe(409);
    expect(english.json<ErrorBody>().message).toContain('English (en) cannot be removed');

    const settings = `/api/settings/servers/${A}`;
    const patch = await call({ method: 'PATCH', url: `${settings}/settings`, headers: OPERATOR, payload: { serverId: A, path: 'language', operation: 'set', value: 'de' } });
    expect(patch.statusCode, patch.body).toBe(200);
    const subject = await call({ method: 'POST', url: `${settings}/subjects`, headers: OPERATOR, payload: { name: 'Billing' } });
    expect(subject.statusCode, subject.body).toBe(201);
    const subjectId = subject.json<{ subjectId: string }>().subjectId;
    const language = await call({
      method: 'PATCH',
      url: `${settings}/subjects/${subjectId}`,
      headers: OPERATOR,
      payload: { serverId: A, subjectId, path: 'language', operation: 'set', value: 'de' },
    });
    expect(language.statusCode, language.body).toBe(200);

    const refused = await asOperator('DELETE', '/languages/de');
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorBody>().message).toBe('Language de is used by 1 server and 1 subject: Pixel Forge, Billing (Pixel Forge)');
    expect((await call({ method: 'GET', url: '/api/localization/languages' })).json<Language[]>().map((l) => l.languageCode)).toContain('de');
    // A language nobody speaks goes.
    expect((await asOperator('DELETE', '/languages/vi')).statusCode).toBe(204);
  });

  it('serves the shipped bot and dashboard files, falls back to the source text, and answers 404 for unknown files', async () => {
    const bot = await read('bot', 'en');
    expect(bot.translations['button.close']).toBe('Close');
    const shell = await read('web-shell', 'de');
    expect(shell.sourceLanguage).toBe('en');
    expect(Object.keys(shell.translations).length).toBeGreaterThan(10);
    expect(shell.translations['menu.logout']).toBeDefined();
    expect((await call({ method: 'GET', url: '/api/localization/translations/no-such-file' })).statusCode).toBe(404);
    expect((await call({ method: 'GET', url: '/api/localization/translations/bot?language=xx' })).statusCode).toBe(404);
  });

  it('answers with a strong ETag and Cache-Control, and 304 while the file is unchanged', async () => {
    expect((await upload(HELP)).statusCode).toBe(201);
    const first = await call({ method: 'GET', url: '/api/localization/translations/help-center?language=de' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const again = await call({ method: 'GET', url: '/api/localization/translations/help-center?language=de', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    // A translation changes the answer, and its tag.
    expect((await upload({ greeting: 'Hallo {{name}}' }, 'de')).statusCode).toBe(201);
    const changed = await call({ method: 'GET', url: '/api/localization/translations/help-center?language=de', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json<TranslationFileInLanguage>().translations.greeting).toBe('Hallo {{name}}');
  });

  it('stores translations checked against the source: placeholders and plural forms, naming each bad key', async () => {
    await upload(HELP);
    const bad = await upload({ greeting: 'Hallo {{nom}}', tickets_one: 'Ein Ticket', farewell: '{{count}} Tschüss' }, 'de');
    expect(bad.statusCode).toBe(400);
    const body = bad.json<ErrorBody>();
    expect([...new Set(body.issues?.map((i) => i.field))].sort()).toEqual(['document.farewell', 'document.greeting', 'document.tickets_other']);
    expect(body.message).toContain('greeting');
    expect(body.issues?.find((i) => i.field === 'document.greeting')?.message).toContain('{{nom}}');
    expect(body.issues?.find((i) => i.field === 'document.tickets_other')?.message).toContain('tickets_one, tickets_other');

    const russian = await upload({ tickets_one: '{{count}} тикет', tickets_few: '{{count}} тикета', tickets_other: '{{count}} тикетов' }, 'ru');
    expect(russian.statusCode).toBe(400);
    expect(russian.json<ErrorBody>().issues).toEqual([{ field: 'document.tickets_many', message: expect.stringContaining('ru needs the plural forms tickets_one, tickets_few, tickets_many, tickets_other') }]);

    const source = await upload({ ...HELP, 'broken': 'Hello {{name}' });
    expect(source.statusCode).toBe(400);
    expect(source.json<ErrorBody>().issues?.[0]?.field).toBe('document.broken');
    const plural = await upload({ ...HELP, 'items_one': 'One item' });
    expect(plural.statusCode).toBe(400);
    expect(plural.json<ErrorBody>().issues?.[0]).toEqual({ field: 'document.items_other', message: expect.stringContaining('en needs the plural forms items_one, items_other') });

    const good = await upload({ greeting: 'Hallo {{name}}', tickets_one: 'Ein Ticket', tickets_other: '{{count}} Tickets' }, 'de');
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json<UploadTranslationResult>()).toMatchObject({ language: 'de', untranslated: ['farewell'], translations: { farewell: 'Goodbye', greeting: 'Hallo {{name}}' } });
  });

  it('marks translations of changed source texts as needed again, keeps the others, and drops removed keys', async () => {
    await upload(HELP);
    await upload({ greeting: 'Hallo {{name}}', tickets_one: 'Ein Ticket', tickets_other: '{{count}} Tickets', farewell: 'Tschüss' }, 'de');
    const changed = await upload({ greeting: 'Hi {{name}}!', tickets_one: 'One ticket', tickets_other: '{{count}} tickets', closing: 'Closed' });
    expect(changed.statusCode, changed.body).toBe(201);
    expect(changed.json<UploadTranslationResult>().needsTranslation).toEqual(['greeting']);

    const german = await read('help-center', 'de');
    expect(german.translations).toEqual({ greeting: 'Hi {{name}}!', tickets_one: 'Ein Ticket', tickets_other: '{{count}} Tickets', closing: 'Closed' });
    expect(german.untranslated.sort()).toEqual(['closing', 'greeting']);

    // Translated again, it reads translated.
    await upload({ greeting: 'Hi {{name}}, willkommen!' }, 'de');
    expect((await read('help-center', 'de')).untranslated).toEqual(['closing']);
  });

  it('marks the shipped translations of a changed bot text, which then read in English', async () => {
    const german = await read('bot', 'de');
    const source = await read('bot');
    const key = Object.keys(source.translations).find((k) => !k.includes('_') && german.translations[k] !== source.translations[k])!;
    expect(key).toBeDefined();
    const response = await upload({ ...source.translations, [key]: `${source.translations[key]} (new)` }, 'en', 'bot');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<UploadTranslationResult>().needsTranslation).toEqual([key]);
    const after = await read('bot', 'de');
    expect(after.translations[key]).toBe(`${source.translations[key]} (new)`);
    expect(after.untranslated).toContain(key);
    // The bot speaks it too.
    expect(ctx.built.services.botWords.text('de', key as never)).toBe(`${source.translations[key]} (new)`);
  });

  it('says Localazy is not configured when asked to push without LOCALAZY_TOKEN', async () => {
    const response = await asOperator('POST', '/translations', { sourceLanguage: 'en', fileName: 'help-center', addToLocalazy: true, document: HELP });
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>().message).toContain('Localazy is not configured');
  });

  it('converts legacy i18next v3 documents, listing what it cannot convert', async () => {
    const convert = async (language: string, document: Record<string, unknown>) => {
      const response = await asOperator('POST', '/translations/legacy', { sourceLanguage: language, fileName: 'inbox', document });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<LegacyConversionResult>();
    };
    const ar = await convert('ar', fixture('legacy-ar.json'));
    expect(ar.translations).toEqual({
      'inbox.title': 'صندوق الوارد',
      'inbox.tickets_zero': 'لا توجد تذاكر',
      'inbox.tickets_one': 'تذكرة واحدة',
      'inbox.tickets_two': 'تذكرتان',
      'inbox.tickets_few': '{{count}} تذاكر',
      'inbox.tickets_many': '{{count}} تذكرة',
      'inbox.tickets_other': '{{count}} تذكرة',
    });
    expect(ar.unconverted.map((note) => note.key).sort()).toEqual(['colors', 'inbox.tickets_6', 'limit']);
    expect(ar.unconverted.find((note) => note.key === 'inbox.tickets_6')?.reason).toContain('beyond the 6 form(s) of ar');
    expect(ar.needsReview).toEqual([]);

    const ru = await convert('ru', fixture('legacy-ru.json'));
    expect(ru.translations).toEqual({
      'inbox.title': 'Входящие',
      'inbox.tickets_one': '{{count}} тикет',
      'inbox.tickets_few': '{{count}} тикета',
      'inbox.tickets_many': '{{count}} тикетов',
      'inbox.tickets_other': '{{count}} тикетов',
      'common.save': 'Сохранить',
    });
    expect(ru.needsReview).toEqual([{ key: 'inbox.tickets_other', reason: expect.stringContaining('filled from inbox.tickets_2') }]);
    expect(ru.unconverted).toEqual([{ key: 'old_plural', reason: expect.stringContaining('ru had numbered forms') }]);

    const pl = await convert('pl', fixture('legacy-pl.json'));
    expect(pl.translations).toMatchObject({
      'inbox.tickets_one': '{{count}} zgłoszenie',
      'inbox.tickets_few': '{{count}} zgłoszenia',
      'inbox.tickets_many': '{{count}} zgłoszeń',
      // No `step_0`: an ordinary key.
      step_1: 'Krok pierwszy',
    });

    const ja = await convert('ja', fixture('legacy-ja.json'));
    expect(ja.translations).toEqual({ 'inbox.title': '受信トレイ', 'inbox.tickets_other': '{{count}} 件のチケット' });
    expect(ja.unconverted).toEqual([{ key: 'flags.beta', reason: 'is a boolean, not a text' }]);

    const en = await convert('en', fixture('legacy-en.json'));
    expect(en.translations).toEqual({ 'inbox.title': 'Inbox', 'inbox.tickets_one': '{{count}} ticket', 'inbox.tickets_other': '{{count}} tickets', step_1: 'First step' });
  });
});

describe('pushing to Localazy', () => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx?.close();
  });

  it('pushes the source texts through Localazy’s client, as the sandbox records', async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, 'sqlite', { localazy: { token: 'localazy-project-token', apiUrl: `${sandbox.url}/localazy` } });
    const response = await ctx.built.app.inject({
      method: 'POST',
      url: '/api/localization/translations',
      headers: OPERATOR,
      payload: { sourceLanguage: 'en', fileName: 'help-center', addToLocalazy: true, document: HELP },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<UploadTranslationResult>().pushedToLocalazy).toBe(true);
    const recorded = (await (await fetch(`${sandbox.url}/_sandbox/localazy`)).json()) as { imports: { token: string; body: { files: { name: string; content: Record<string, unknown> }[] } }[] };
    expect(recorded.imports).toHaveLength(1);
    expect(recorded.imports[0]!.token).toBe('localazy-project-token');
    expect(recorded.imports[0]!.body.files[0]).toMatchObject({ name: 'help-center.json', content: { type: 'json', en: HELP } });
  });
});
