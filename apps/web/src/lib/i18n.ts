import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALE_SHELLS, loadLocaleAreas } from 'virtual:locale-parts';
import { UI_LANGUAGES } from 'virtual:ui-languages';
import type { TranslationFileInLanguage } from '@ticket/contracts';
import type { LocaleArea, LocalePart } from '../locales/areas';
import type en from '../locales/en.json';
import { peekRuntimeConfig } from './runtime-config';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // English is the reference: a key missing from en.json is a type error wherever it is used.
    resources: { translation: typeof en };
  }
}

export { i18n };

type Translations = Record<string, unknown>;

export type UiLanguage = (typeof UI_LANGUAGES)[number];
export type LocaleCode = UiLanguage['code'];

/** The 39 languages of the UI (SPEC §9), each with its native name. */
export const LANGUAGES: readonly UiLanguage[] = UI_LANGUAGES;
export const FALLBACK_LOCALE: LocaleCode = 'en';
export const SUPPORTED_LOCALES: readonly LocaleCode[] = UI_LANGUAGES.map((language) => language.code);
const STORAGE_KEY = 'locale';

// One chunk per language and part, fetched only when chosen: the first screen carries the shell
// part of the user's language (and English's, the fallback), and an area's part comes with its
// screens (`loadLocaleArea`).
/** Each language's loader of one part, by code (exported so that tests can make one fail). */
export const localeLoaders = new Map<string, (part: LocalePart) => Promise<{ default: Translations }>>(
  Object.entries(LOCALE_SHELLS).map(
    ([code, shell]) =>
      [
        code,
        async (part: LocalePart) => {
          if (part === 'shell') return shell();
          // The areas' loaders are a table of their own, which the first screen does not need.
          const { LOCALE_AREA_PARTS } = await loadLocaleAreas();
          const load = LOCALE_AREA_PARTS[code]?.[part];
          if (!load) throw new Error(`No ${part} messages for ${code}`);
          return load();
        },
      ] as const,
  ),
);

export const isSupportedLocale = (value: unknown): value is LocaleCode =>
  typeof value === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(value);

export const isRtlLocale = (locale: string): boolean =>
  UI_LANGUAGES.some((language) => language.code === locale && language.rtl);

export const directionOf = (locale: string): 'rtl' | 'ltr' => (isRtlLocale(locale) ? 'rtl' : 'ltr');

/** A language file could not be loaded; the UI keeps its current language. */
export class LocaleLoadError extends Error {
  override readonly name = 'LocaleLoadError';

  constructor(
    readonly locale: string,
    cause?: unknown,
  ) {
    super(`Could not load the ${locale} translations`, { cause });
  }
}

/** The stored locale when it is one of ours, English otherwise (SPEC §5). */
export function storedLocale(): LocaleCode {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isSupportedLocale(value) ? value : FALLBACK_LOCALE;
  } catch {
    return FALLBACK_LOCALE;
  }
}

/** How long a part waits for the translations service before it shows with its bundled texts. */
const SERVICE_TIMEOUT_MS = 4000;

/** The service's flat `group.key` texts, nested as the bundled parts are. */
function nest(flat: Record<string, string>): Translations {
  const nested: Translations = {};
  for (const [key, text] of Object.entries(flat)) {
    const path = key.split('.');
    let at = nested;
    for (const segment of path.slice(0, -1)) {
      const next = at[segment];
      at = (typeof next === 'object' && next !== null ? next : (at[segment] = {})) as Translations;
    }
    at[path.at(-1)!] = text;
  }
  return nested;
}

/**
 * A part's texts as the translations service has them now (`GET /translations/web-<part>`), so that
 * a corrected translation reaches users without a new build; null when the service cannot say (not
 * configured yet, down, slow, or the language unknown there), and the bundled texts stand.
 */
export async function fetchServiceTexts(locale: string, part: LocalePart): Promise<Translations | null> {
  const base = peekRuntimeConfig()?.services.localization;
  if (!base) return null;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SERVICE_TIMEOUT_MS);
  try {
    const response = await fetch(`${base}/translations/web-${part}?language=${encodeURIComponent(locale)}`, {
      headers: { Accept: 'application/json' },
      signal: controller.signal,
    });
    if (!response.ok) return null;
    const file = (await response.json()) as Partial<TranslationFileInLanguage> | null;
    return file?.translations && typeof file.translations === 'object' ? nest(file.translations) : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

async function loadBundled(locale: string, part: LocalePart): Promise<Translations> {
  const load = localeLoaders.get(locale);
  if (!load) throw new LocaleLoadError(locale);
  try {
    return (await load(part)).default;
  } catch (error) {
    throw new LocaleLoadError(locale, error);
  }
}

/**
 * A part's texts: the bundled ones, with the translations service's over them. The shell part at
 * start-up, which the first screen waits for, is bundled alone; `refreshShellFromService` brings its
 * corrections right after.
 */
async function loadTranslations(locale: string, part: LocalePart = 'shell', withService = part !== 'shell'): Promise<Translations> {
  if (!withService) return loadBundled(locale, part);
  const [bundled, served] = await Promise.allSettled([loadBundled(locale, part), fetchServiceTexts(locale, part)]);
  const corrections = served.status === 'fulfilled' ? served.value : null;
  if (bundled.status === 'rejected') {
    if (corrections) return corrections;
    throw bundled.reason;
  }
  return corrections ? mergeDeep(bundled.value, corrections) : bundled.value;
}

function mergeDeep(base: Translations, over: Translations): Translations {
  const merged: Translations = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const below = merged[key];
    merged[key] =
      typeof value === 'object' && value !== null && typeof below === 'object' && below !== null
        ? mergeDeep(below as Translations, value as Translations)
        : value;
  }
  return merged;
}

/**
 * Adds the translations service's shell texts of the current language (and English, the fallback)
 * once the dashboard knows where the service is; screens showing re-render with them.
 */
export async function refreshShellFromService(): Promise<void> {
  const locales = [...new Set([FALLBACK_LOCALE, i18n.language])].filter(Boolean);
  await Promise.all(
    locales.map(async (locale) => {
      const texts = await fetchServiceTexts(locale, 'shell');
      if (texts) i18n.addResourceBundle(locale, 'translation', texts, true, true);
    }),
  );
}

/** The areas some screen has needed so far: a language switched to later gets them too. */
const neededAreas = new Set<LocaleArea>();
/** Per language, the areas already added to its messages. */
const loadedAreas = new Map<string, Set<LocaleArea>>();

async function addArea(locale: string, area: LocaleArea): Promise<void> {
  // One set per language, made before any load: areas loaded at once each mark the same set.
  let loaded = loadedAreas.get(locale);
  if (!loaded) loadedAreas.set(locale, (loaded = new Set<LocaleArea>()));
  if (loaded.has(area)) return;
  const messages = await loadTranslations(locale, area);
  i18n.addResourceBundle(locale, 'translation', messages, true, true);
  loaded.add(area);
}

/**
 * Adds an area's messages (src/locales/areas.ts) in the current language and in English before a
 * screen of that area shows. When the current language's part cannot be loaded, the screen shows
 * in English rather than not at all; only a failure of the English part rejects.
 */
export async function loadLocaleArea(area: LocaleArea): Promise<void> {
  neededAreas.add(area);
  const current = i18n.language;
  const [fallback] = await Promise.allSettled([
    addArea(FALLBACK_LOCALE, area),
    current && current !== FALLBACK_LOCALE ? addArea(current, area) : Promise.resolve(),
  ]);
  if (fallback.status === 'rejected') throw fallback.reason;
}

function applyToDocument(locale: string): void {
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
}

let startupFailure: LocaleLoadError | undefined;

/**
 * The stored language could not be loaded at start-up (the UI is then in English). Read once by
 * the shell, which says so: 'Failed to load language settings'.
 */
export function takeStartupLocaleFailure(): LocaleLoadError | undefined {
  const failure = startupFailure;
  startupFailure = undefined;
  return failure;
}

let listening = false;

export async function initI18n(locale: string = storedLocale()): Promise<typeof i18n> {
  neededAreas.clear();
  loadedAreas.clear();
  const wanted = isSupportedLocale(locale) ? locale : FALLBACK_LOCALE;
  const [fallback, chosen] = await Promise.allSettled([
    loadTranslations(FALLBACK_LOCALE),
    wanted === FALLBACK_LOCALE ? Promise.resolve(undefined) : loadTranslations(wanted),
  ]);
  if (fallback.status === 'rejected') throw fallback.reason;
  const resources: Record<string, { translation: Translations }> = {
    [FALLBACK_LOCALE]: { translation: fallback.value },
  };
  let language: LocaleCode = FALLBACK_LOCALE;
  if (chosen.status === 'fulfilled' && chosen.value) {
    resources[wanted] = { translation: chosen.value };
    language = wanted;
  } else if (chosen.status === 'rejected') {
    startupFailure = chosen.reason as LocaleLoadError;
  }
  if (!listening) {
    i18n.on('languageChanged', applyToDocument);
    listening = true;
  }
  await i18n.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: FALLBACK_LOCALE,
    supportedLngs: [...SUPPORTED_LOCALES],
    load: 'currentOnly',
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    // Texts added later (an area's, or corrections from the translations service) show at once.
    react: { bindI18nStore: 'added' },
  });
  applyToDocument(language);
  return i18n;
}

/**
 * Switches the UI language and remembers it. Rejects with a `LocaleLoadError` when the language's
 * file cannot be loaded, and with the cause when switching fails otherwise; either way the UI
 * stays in its current language. An unsupported locale falls back to English.
 */
export async function setLocale(locale: string): Promise<void> {
  const next = isSupportedLocale(locale) ? locale : FALLBACK_LOCALE;
  const previous = i18n.language;
  if (!i18n.hasResourceBundle(next, 'translation')) {
    // Any areas it had went with its texts.
    loadedAreas.delete(next);
    // The user waits for the switch anyway: the service's corrections come with it.
    i18n.addResourceBundle(next, 'translation', await loadTranslations(next, 'shell', true));
  }
  await Promise.all([...neededAreas].map((area) => addArea(next, area)));
  try {
    await i18n.changeLanguage(next);
    localStorage.setItem(STORAGE_KEY, next);
  } catch (error) {
    if (i18n.language !== previous) await i18n.changeLanguage(previous).catch(() => undefined);
    throw error;
  }
}
