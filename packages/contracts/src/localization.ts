import { z } from 'zod';
import { defineCall } from './common';

/** The 39 languages of the dashboard UI (SPEC §9), in the order the SPEC lists them. */
export const UI_LANGUAGES = [
  { code: 'ar', name: 'العربية', rtl: true },
  { code: 'bg', name: 'Български', rtl: false },
  { code: 'ca', name: 'Català', rtl: false },
  { code: 'cs', name: 'Čeština', rtl: false },
  { code: 'da', name: 'Dansk', rtl: false },
  { code: 'de', name: 'Deutsch', rtl: false },
  { code: 'el', name: 'Ελληνικά', rtl: false },
  { code: 'en', name: 'English', rtl: false },
  { code: 'es', name: 'Español', rtl: false },
  { code: 'et', name: 'Eesti', rtl: false },
  { code: 'fa', name: 'فارسی', rtl: true },
  { code: 'fi', name: 'Suomi', rtl: false },
  { code: 'fr', name: 'Français', rtl: false },
  { code: 'he', name: 'עברית', rtl: true },
  { code: 'hi', name: 'हिन्दी', rtl: false },
  { code: 'ht', name: 'Kreyòl ayisyen', rtl: false },
  { code: 'hu', name: 'Magyar', rtl: false },
  { code: 'id', name: 'Bahasa Indonesia', rtl: false },
  { code: 'is', name: 'Íslenska', rtl: false },
  { code: 'it', name: 'Italiano', rtl: false },
  { code: 'ja', name: '日本語', rtl: false },
  { code: 'ko', name: '한국어', rtl: false },
  { code: 'lt', name: 'Lietuvių', rtl: false },
  { code: 'lv', name: 'Latviešu', rtl: false },
  { code: 'ms', name: 'Bahasa Melayu', rtl: false },
  { code: 'nl', name: 'Nederlands', rtl: false },
  { code: 'no', name: 'Norsk', rtl: false },
  { code: 'pl', name: 'Polski', rtl: false },
  { code: 'pt', name: 'Português', rtl: false },
  { code: 'ro', name: 'Română', rtl: false },
  { code: 'ru', name: 'Русский', rtl: false },
  { code: 'sk', name: 'Slovenčina', rtl: false },
  { code: 'sl', name: 'Slovenščina', rtl: false },
  { code: 'sv', name: 'Svenska', rtl: false },
  { code: 'th', name: 'ไทย', rtl: false },
  { code: 'tr', name: 'Türkçe', rtl: false },
  { code: 'uk', name: 'Українська', rtl: false },
  { code: 'ur', name: 'اردو', rtl: true },
  { code: 'vi', name: 'Tiếng Việt', rtl: false },
] as const;

export type UiLanguage = (typeof UI_LANGUAGES)[number];

export const UiLanguageCode = z.enum(UI_LANGUAGES.map((l) => l.code) as [UiLanguage['code'], ...UiLanguage['code'][]]);
export type UiLanguageCode = z.infer<typeof UiLanguageCode>;

/** Default and fallback UI language (SPEC §9). */
export const DEFAULT_UI_LANGUAGE: UiLanguageCode = 'en';

/** A stored locale is used only if supported, otherwise English (SPEC §5). */
export const pickUiLanguage = (stored: string | null | undefined): UiLanguageCode => {
  const parsed = UiLanguageCode.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_UI_LANGUAGE;
};

export const isRtlLanguage = (code: string): boolean => UI_LANGUAGES.some((l) => l.code === code && l.rtl);

/**
 * A language the translations service knows, for bot messages. The set is open (languages can be
 * added), so this is a format check: `de`, `pt-BR`, `zh-Hant`.
 */
export const LanguageCode = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language code such as "de" or "pt-BR"')
  .describe('BCP-47 language code');
export type LanguageCode = z.infer<typeof LanguageCode>;

export const Language = z.object({
  languageCode: LanguageCode,
  name: z.string().trim().min(1).max(100).describe('Name of the language in that language'),
});
export type Language = z.infer<typeof Language>;

export const TranslationFileName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'may contain only letters, digits, ".", "_" and "-"')
  .describe('Name of a translation file, e.g. "bot-messages"');

/** Flat message keys in dot notation mapped to their text. */
export const Translations = z
  .record(z.string().min(1).max(200), z.string().max(10_000))
  .describe('Message key (dot notation) → translated text');
export type Translations = z.infer<typeof Translations>;

export const TranslationFile = z.object({
  fileName: TranslationFileName,
  sourceLanguage: LanguageCode.describe('Language the texts of this file were written in'),
  translations: Translations,
});
export type TranslationFile = z.infer<typeof TranslationFile>;

export const UploadTranslationRequest = z.object({
  sourceLanguage: LanguageCode,
  fileName: TranslationFileName,
  addToLocalazy: z.boolean().describe('Also push the file to the Localazy translation project'),
  document: Translations.describe('The messages of the file, key (dot notation) → source text'),
  fileDescription: z.string().max(500).nullable().optional().describe('Note for translators'),
});
export type UploadTranslationRequest = z.infer<typeof UploadTranslationRequest>;

/** A document in the legacy nested format: objects of objects whose leaves are strings. */
export const LegacyTranslationRequest = z.object({
  sourceLanguage: LanguageCode,
  fileName: TranslationFileName,
  document: z.record(z.string(), z.unknown()).describe('Nested messages; leaves are strings'),
});
export type LegacyTranslationRequest = z.infer<typeof LegacyTranslationRequest>;

export const localizationCalls = {
  getLanguages: defineCall({
    method: 'GET',
    path: '/languages',
    summary: 'Languages bot messages can be translated into',
    response: z.array(Language),
  }),
  createLanguage: defineCall({
    method: 'POST',
    path: '/languages',
    summary: 'Add a language (platform admin)',
    body: Language,
    response: Language,
    status: 201,
  }),
  deleteLanguage: defineCall({
    method: 'DELETE',
    path: '/languages/:languageCode',
    summary: 'Remove a language (platform admin)',
    params: z.object({ languageCode: LanguageCode }),
    response: null,
    status: 204,
  }),
  getTranslationFile: defineCall({
    method: 'GET',
    path: '/translations/:fileName',
    summary: 'A translation file, in the given language or else its source language',
    params: z.object({ fileName: TranslationFileName }),
    query: z.object({
      language: LanguageCode.optional().describe('Target language; the source language when absent'),
    }),
    response: TranslationFile,
  }),
  uploadTranslationFile: defineCall({
    method: 'POST',
    path: '/translations',
    summary: 'Store (or replace) the source texts of a translation file (platform admin)',
    body: UploadTranslationRequest,
    response: TranslationFile,
    status: 201,
  }),
  uploadLegacyTranslationFile: defineCall({
    method: 'POST',
    path: '/translations/legacy',
    summary: 'Flatten a legacy nested document into a translation file and store it (platform admin)',
    body: LegacyTranslationRequest,
    response: TranslationFile,
    status: 201,
  }),
};
