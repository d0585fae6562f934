import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type en from '../locales/en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // English is the reference: a key missing from en.json is a type error wherever it is used.
    resources: { translation: typeof en };
  }
}

type Translations = Record<string, unknown>;

// One chunk per language, fetched only when chosen: the first screen carries none of them.
const loaders = import.meta.glob<{ default: Translations }>('../locales/*.json');
const byLocale = new Map(
  Object.entries(loaders).map(([file, load]) => [file.slice(file.lastIndexOf('/') + 1, -'.json'.length), load]),
);

export const FALLBACK_LOCALE = 'en';
/** Every language with a file in src/locales. */
export const SUPPORTED_LOCALES: readonly string[] = [...byLocale.keys()].sort();
const STORAGE_KEY = 'locale';

export const isSupportedLocale = (value: unknown): value is string =>
  typeof value === 'string' && byLocale.has(value);

/** The stored locale when it is one we have, English otherwise (SPEC §5). */
export function storedLocale(): string {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isSupportedLocale(value) ? value : FALLBACK_LOCALE;
  } catch {
    return FALLBACK_LOCALE;
  }
}

async function loadTranslations(locale: string): Promise<Translations> {
  const load = byLocale.get(locale) ?? byLocale.get(FALLBACK_LOCALE);
  if (!load) throw new Error(`No translations for ${locale}`);
  return (await load()).default;
}

function applyToDocument(locale: string): void {
  document.documentElement.lang = locale;
  document.documentElement.dir = i18n.dir(locale);
}

export async function initI18n(locale = storedLocale()): Promise<typeof i18n> {
  const wanted = isSupportedLocale(locale) ? locale : FALLBACK_LOCALE;
  const [fallback, chosen] = await Promise.all([loadTranslations(FALLBACK_LOCALE), loadTranslations(wanted)]);
  i18n.on('languageChanged', applyToDocument);
  await i18n.use(initReactI18next).init({
    resources: { [FALLBACK_LOCALE]: { translation: fallback }, [wanted]: { translation: chosen } },
    lng: wanted,
    fallbackLng: FALLBACK_LOCALE,
    supportedLngs: [...SUPPORTED_LOCALES],
    load: 'currentOnly',
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
  });
  applyToDocument(wanted);
  return i18n;
}

/** Switches the UI language and remembers it; an unsupported locale falls back to English. */
export async function setLocale(locale: string): Promise<void> {
  const next = isSupportedLocale(locale) ? locale : FALLBACK_LOCALE;
  if (!i18n.hasResourceBundle(next, 'translation')) {
    i18n.addResourceBundle(next, 'translation', await loadTranslations(next));
  }
  await i18n.changeLanguage(next);
  localStorage.setItem(STORAGE_KEY, next);
}
