import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVICE_NAMES, type RuntimeConfig } from '@ticket/contracts';
import { i18n, localeLoaders, refreshShellFromService, setLocale } from './i18n';
import { setRuntimeConfig } from './runtime-config';

/**
 * The dashboard's texts come from the translations service (GET /api/localization/translations/web-<part>),
 * over the bundled ones, so a corrected translation reaches users without a new build; when the
 * service fails, the bundled texts stand.
 */
const config: RuntimeConfig = {
  services: Object.fromEntries(SERVICE_NAMES.map((name) => [name, `/api/${name}`])) as RuntimeConfig['services'],
  demo: false,
  version: 'test',
};

const answer = (translations: Record<string, string>) =>
  new Response(JSON.stringify({ fileName: 'x', sourceLanguage: 'en', language: 'de', translations, untranslated: [] }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

describe('texts from the translations service', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
    i18n.removeResourceBundle('de', 'translation');
  });

  it("loads each part from the service, the service's texts over the bundled ones", async () => {
    setRuntimeConfig(config);
    const fetch = vi.fn(async (url: string) =>
      url.includes('/web-settings?') ? answer({ 'settings.loading': 'Korrigierter Text' }) : url.includes('/web-shell?') ? answer({ 'menu.logout': 'Jetzt abmelden' }) : answer({}),
    );
    vi.stubGlobal('fetch', fetch);

    await setLocale('de');

    const urls = fetch.mock.calls.map(([url]) => url);
    expect(urls).toContain('/api/localization/translations/web-shell?language=de');
    expect(urls).toContain('/api/localization/translations/web-settings?language=de');
    expect(i18n.t('settings.loading')).toBe('Korrigierter Text');
    expect(i18n.t('menu.logout')).toBe('Jetzt abmelden');
    // Texts the service does not send keep their bundled translation.
    expect(i18n.t('menu.settings')).toBe('Einstellungen');
  });

  it('keeps the bundled texts when the service fails', async () => {
    setRuntimeConfig(config);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"statusCode":503}', { status: 503 })));
    await setLocale('de');
    expect(i18n.t('menu.logout')).toBe('Abmelden');
    expect(i18n.t('settings.loading')).toBe('Themeneinstellungen werden geladen…');

    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await refreshShellFromService();
    expect(i18n.t('menu.logout')).toBe('Abmelden');
  });

  it("shows the service's texts when the bundled part cannot be loaded", async () => {
    setRuntimeConfig(config);
    vi.stubGlobal('fetch', vi.fn(async () => answer({ 'menu.logout': 'Abmelden (vom Dienst)' })));
    const load = localeLoaders.get('de')!;
    localeLoaders.set('de', (part) => (part === 'shell' ? Promise.reject(new TypeError('chunk gone')) : load(part)));
    try {
      await setLocale('de');
      expect(i18n.t('menu.logout')).toBe('Abmelden (vom Dienst)');
    } finally {
      localeLoaders.set('de', load);
    }
  });

  it('corrects the first screen’s texts once the service is known', async () => {
    setRuntimeConfig(config);
    const fetch = vi.fn(async () => answer({ 'menu.logout': 'Sign out now' }));
    vi.stubGlobal('fetch', fetch);
    await refreshShellFromService();
    expect(fetch).toHaveBeenCalledWith('/api/localization/translations/web-shell?language=en', expect.anything());
    expect(i18n.t('menu.logout')).toBe('Sign out now');
    // Put English back as bundled for the other tests.
    const { default: english } = await localeLoaders.get('en')!('shell');
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });
});
