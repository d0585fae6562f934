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
  .describe(
    'Name of a translation file: "bot" (every text the bot writes on the platform), "web-shell" and "web-<area>" (the parts of the dashboard\'s own texts, see apps/web/src/locales/areas.ts), or any file an operator uploaded',
  );

/** Flat message keys in dot notation mapped to their text. */
export const Translations = z
  .record(z.string().min(1).max(200), z.string().max(10_000))
  .describe(
    'Message key (dot notation) → text. `{{name}}` is a placeholder; a plural text is one key per form of the language with the i18next v4 suffixes (`_zero`, `_one`, `_two`, `_few`, `_many`, `_other`, as Intl.PluralRules names them)',
  );
export type Translations = z.infer<typeof Translations>;

export const TranslationFile = z.object({
  fileName: TranslationFileName,
  sourceLanguage: LanguageCode.describe('Language the texts of this file were written in'),
  translations: Translations,
});
export type TranslationFile = z.infer<typeof TranslationFile>;

/** A translation file as read in one language. */
export const TranslationFileInLanguage = TranslationFile.extend({
  language: LanguageCode.describe('Language of these texts'),
  untranslated: z
    .array(z.string())
    .describe('Keys not (or no longer) translated in this language: they carry the source text until they are'),
});
export type TranslationFileInLanguage = z.infer<typeof TranslationFileInLanguage>;

export const UploadTranslationRequest = z
  .object({
    sourceLanguage: LanguageCode.describe(
      "The language of the document's texts. The file's own source language (or any language for a new file): the document is the file's complete set of source texts. Another language of an existing file: the document holds translations into that language, of some or all of the file's keys",
    ),
    fileName: TranslationFileName,
    addToLocalazy: z
      .boolean()
      .default(false)
      .describe('Also push the source texts to the Localazy translation project (needs LOCALAZY_TOKEN). Default: false'),
    document: Translations.describe(
      "The texts, key (dot notation) → text. Source texts replace the file's: a key left out is removed from every language, a key whose text changed needs translating again in every other language (until then it reads in the source language), translations of unchanged keys are kept. Translations are checked against the source: the same placeholders (a plural form may leave out `{{count}}`) and every plural form of the language",
    ),
    fileDescription: z.string().max(500).nullable().optional().describe('Note for translators'),
  })
  .describe('Stores source texts or translations of a translation file');
export type UploadTranslationRequest = z.infer<typeof UploadTranslationRequest>;

export const UploadTranslationResult = TranslationFileInLanguage.extend({
  needsTranslation: z
    .array(z.string())
    .describe('Source keys whose text changed with this upload: marked as needing translation in every other language'),
  pushedToLocalazy: z.boolean().describe('Whether the source texts were pushed to Localazy'),
});
export type UploadTranslationResult = z.infer<typeof UploadTranslationResult>;

/** A document in the legacy i18next JSON v3 format: nested objects whose leaves are strings. */
export const LegacyTranslationRequest = z.object({
  sourceLanguage: LanguageCode.describe('Language of the document: it decides how its legacy plural suffixes read'),
  fileName: TranslationFileName,
  document: z
    .record(z.string(), z.unknown())
    .describe('i18next JSON v3: nested messages (leaves are strings), plurals as `key`/`key_plural` or `key_0`, `key_1`…'),
});
export type LegacyTranslationRequest = z.infer<typeof LegacyTranslationRequest>;

export const ConversionNote = z.object({
  key: z.string().describe('The key as the legacy document has it (flattened), or the converted key'),
  reason: z.string(),
});
export type ConversionNote = z.infer<typeof ConversionNote>;

export const LegacyConversionResult = TranslationFile.extend({
  unconverted: z.array(ConversionNote).describe('What the conversion left out, and why'),
  needsReview: z
    .array(ConversionNote)
    .describe('Plural forms the legacy format did not have, filled with the form legacy i18next showed in their place'),
});
export type LegacyConversionResult = z.infer<typeof LegacyConversionResult>;

export const localizationCalls = {
  getLanguages: defineCall({
    method: 'GET',
    path: '/languages',
    summary: 'Languages the dashboard and the bot can be translated into',
    response: z.array(Language),
  }),
  createLanguage: defineCall({
    method: 'POST',
    path: '/languages',
    summary: 'Add a language (platform operators)',
    body: Language,
    response: Language,
    status: 201,
  }),
  deleteLanguage: defineCall({
    method: 'DELETE',
    path: '/languages/:languageCode',
    summary: 'Remove a language no server or subject uses, except English (platform operators)',
    params: z.object({ languageCode: LanguageCode }),
    response: null,
    status: 204,
  }),
  getTranslationFile: defineCall({
    method: 'GET',
    path: '/translations/:fileName',
    summary: 'A translation file in one language; untranslated keys read in the source language',
    params: z.object({ fileName: TranslationFileName }),
    query: z.object({
      language: LanguageCode.optional().describe('Target language; the source language when absent'),
    }),
    response: TranslationFileInLanguage,
  }),
  uploadTranslationFile: defineCall({
    method: 'POST',
    path: '/translations',
    summary: 'Store the source texts of a translation file, or its translations into one language (platform operators)',
    body: UploadTranslationRequest,
    response: UploadTranslationResult,
    status: 201,
  }),
  uploadLegacyTranslationFile: defineCall({
    method: 'POST',
    path: '/translations/legacy',
    summary: 'Convert a legacy i18next JSON v3 document into a translation file, without storing it (platform operators)',
    body: LegacyTranslationRequest,
    response: LegacyConversionResult,
  }),
};
