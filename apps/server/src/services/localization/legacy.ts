import type { ConversionNote } from '@ticket/contracts';
import { pluralCategories, pluralRules, type PluralCategory } from './plurals';

/**
 * i18next JSON v3's plural forms, per language: the number each numbered form (`key_0`, `key_1`…)
 * stood for, as i18next v3's plural sets list them. A form converts to the category
 * Intl.PluralRules gives that number, as i18next-v4-format-converter does. A language with two
 * forms led by 1 wrote them `key` and `key_plural` instead.
 */
const V3_NUMBERS: [languages: string[], numbers: number[]][] = [
  [['ach', 'ak', 'am', 'arn', 'br', 'fil', 'gun', 'ln', 'mfe', 'mg', 'mi', 'oc', 'pt', 'tg', 'tl', 'ti', 'tr', 'uz', 'wa'], [1, 2]],
  [
    ['af', 'an', 'ast', 'az', 'bg', 'bn', 'ca', 'da', 'de', 'el', 'en', 'eo', 'es', 'et', 'eu', 'fi', 'fo', 'fur', 'fy', 'gl', 'gu', 'ha', 'hi', 'hu', 'hy', 'ia', 'it', 'kk', 'kn', 'ku', 'lb', 'mai', 'ml', 'mn', 'mr', 'nah', 'nap', 'nb', 'ne', 'nl', 'nn', 'no', 'nso', 'pa', 'pap', 'pms', 'ps', 'rm', 'sco', 'se', 'si', 'so', 'son', 'sq', 'sv', 'sw', 'ta', 'te', 'tk', 'ur', 'yo'],
    [1, 2],
  ],
  [['ay', 'bo', 'cgg', 'fa', 'ht', 'id', 'ja', 'jbo', 'ka', 'km', 'ko', 'ky', 'lo', 'ms', 'sah', 'su', 'th', 'tt', 'ug', 'vi', 'wo', 'zh'], [1]],
  [['be', 'bs', 'cnr', 'dz', 'hr', 'ru', 'sr', 'uk'], [1, 2, 5]],
  [['ar'], [0, 1, 2, 3, 11, 100]],
  [['cs', 'sk'], [1, 2, 5]],
  [['csb', 'pl'], [1, 2, 5]],
  [['cy'], [1, 2, 3, 8]],
  [['fr'], [1, 2]],
  [['ga'], [1, 2, 3, 7, 11]],
  [['gd'], [1, 2, 3, 20]],
  [['is'], [1, 2]],
  [['jv'], [0, 1]],
  [['kw'], [1, 2, 3, 4]],
  [['lt'], [1, 2, 10]],
  [['lv'], [1, 2, 0]],
  [['mk'], [1, 2]],
  [['mnk'], [0, 1, 2]],
  [['mt'], [1, 2, 11, 20]],
  [['or'], [2, 1]],
  [['ro'], [1, 2, 20]],
  [['sl'], [5, 1, 2, 3]],
  [['he', 'iw'], [1, 2, 20, 21]],
];

const numbersOf = (language: string): number[] | null => {
  const base = language.split('-')[0]!.toLowerCase();
  return V3_NUMBERS.find(([languages]) => languages.includes(base))?.[1] ?? null;
};

/** Whether the language wrote its two forms as `key` / `key_plural` (i18next v3's simplified suffixes). */
const simplified = (numbers: number[] | null) => numbers === null || (numbers.length === 2 && numbers[0] === 1);

export interface LegacyConversion {
  translations: Record<string, string>;
  unconverted: ConversionNote[];
  needsReview: ConversionNote[];
}

/** Nested objects flattened to dot keys; every leaf that is not a string is left out and told. */
function flatten(document: Record<string, unknown>, unconverted: ConversionNote[]): Map<string, string> {
  const flat = new Map<string, string>();
  const walk = (value: unknown, key: string, depth: number) => {
    if (typeof value === 'string') {
      if (flat.has(key)) unconverted.push({ key, reason: 'appears twice once nested keys are flattened; the first text is kept' });
      else flat.set(key, value);
      return;
    }
    if (Array.isArray(value)) {
      unconverted.push({ key, reason: 'is an array; translation files hold one text per key' });
      return;
    }
    if (value !== null && typeof value === 'object') {
      if (depth >= 32) {
        unconverted.push({ key, reason: 'is nested too deeply' });
        return;
      }
      const entries = Object.entries(value);
      if (entries.length === 0) unconverted.push({ key, reason: 'is an empty object' });
      // A legacy namespace prefix (`common:title`) reads as one more level of nesting.
      for (const [inner, item] of entries) walk(item, `${key}.${inner.replaceAll(':', '.')}`, depth + 1);
      return;
    }
    unconverted.push({ key, reason: `is ${value === null ? 'null' : `a ${typeof value}`}, not a text` });
  };
  for (const [key, value] of Object.entries(document)) walk(value, key.replaceAll(':', '.'), 0);
  return flat;
}

/**
 * Converts an i18next JSON v3 document in `language` to the current format: keys flattened with
 * dots, plural forms named by the language's categories. Nothing is dropped silently: what cannot
 * be converted is listed in `unconverted`, and a category the legacy format had no form for (Russian
 * `other`, read for fractions) is filled with the form legacy i18next showed instead and listed in
 * `needsReview`.
 */
export function convertLegacyDocument(language: string, document: Record<string, unknown>): LegacyConversion {
  const unconverted: ConversionNote[] = [];
  const needsReview: ConversionNote[] = [];
  const flat = flatten(document, unconverted);
  const numbers = numbersOf(language);
  const rules = pluralRules(language);
  const categories = pluralCategories(language);
  const translations: Record<string, string> = {};

  // The plural groups: base → category → [legacy key, text].
  const groups = new Map<string, Map<PluralCategory, [string, string]>>();
  const addForm = (base: string, category: PluralCategory, legacyKey: string, text: string) => {
    const group = groups.get(base) ?? new Map<PluralCategory, [string, string]>();
    const taken = group.get(category);
    if (taken) {
      unconverted.push({ key: legacyKey, reason: `is the same plural form ("${category}") of ${language} as ${taken[0]}, which is kept` });
      return;
    }
    group.set(category, [legacyKey, text]);
    groups.set(base, group);
  };

  const numbered = /^(.+)_(\d+)$/;
  for (const [key, text] of flat) {
    if (key.endsWith('_plural') && key.length > '_plural'.length) {
      const base = key.slice(0, -'_plural'.length);
      if (!simplified(numbers)) {
        unconverted.push({ key, reason: `"_plural" is the plural of languages with two forms; ${language} had numbered forms (_0…_${numbers!.length - 1})` });
        continue;
      }
      addForm(base, rules.select(numbers?.[1] ?? 2) as PluralCategory, key, text);
      continue;
    }
    const match = numbered.exec(key);
    // `key_3` is a plural form only where the language numbered its forms and the group has its `_0`.
    if (match && !simplified(numbers) && flat.has(`${match[1]}_0`)) {
      const index = Number(match[2]);
      const base = match[1]!;
      if (index >= numbers!.length) {
        unconverted.push({ key, reason: `plural form ${index} is beyond the ${numbers!.length} form(s) of ${language} (_0…_${numbers!.length - 1})` });
        continue;
      }
      addForm(base, rules.select(numbers![index]!) as PluralCategory, key, text);
      continue;
    }
    if (simplified(numbers) && flat.has(`${key}_plural`)) {
      addForm(key, rules.select(numbers?.[0] ?? 1) as PluralCategory, key, text);
      continue;
    }
    translations[key] = text;
  }

  for (const [base, group] of groups) {
    for (const [category, [, text]] of group) translations[`${base}_${category}`] = text;
    const missing = categories.filter((category) => !group.has(category));
    // The form legacy i18next showed for the numbers of a missing category: its "other", else its
    // last numbered form (Russian and Polish fractions read the `_2` form).
    const stand = group.get('other') ?? [...group.values()].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })).at(-1);
    for (const category of missing) {
      if (!stand) continue;
      translations[`${base}_${category}`] = stand[1];
      needsReview.push({ key: `${base}_${category}`, reason: `${language} has a "${category}" plural form the legacy document did not have; filled from ${stand[0]}` });
    }
  }
  return { translations, unconverted, needsReview };
}
