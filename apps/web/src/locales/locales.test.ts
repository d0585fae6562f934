import { describe, expect, it } from 'vitest';
import { UI_LANGUAGES } from 'virtual:ui-languages';

/**
 * Every UI language is complete (SPEC §9, DESIGN §6): the same keys as English, the same
 * placeholders in each text, and every text translated. Plural keys (`_one`, `_other`…) follow
 * each language's own plural categories.
 *
 * Run alone with: npx vitest run --project web src/locales/locales.test.ts
 */

type Messages = { [key: string]: string | Messages };

const files = import.meta.glob<Messages>('./*.json', { eager: true, import: 'default' });
const byCode = new Map(Object.entries(files).map(([path, messages]) => [path.slice(2, -'.json'.length), messages]));
const english = byCode.get('en');

/**
 * Texts that stay the same in every language. Keep this short: anything a translator could
 * translate does not belong here. Texts made of placeholders and punctuation only are allowed too.
 */
const SAME_AS_ENGLISH: ReadonlySet<string> = new Set(['Ticket Dashboard', 'Discord', 'OK', 'PayPal', 'Stripe', 'API']);

const PLURAL_SUFFIXES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const pluralBase = (key: string): string | undefined => {
  const match = /^(.*)_(zero|one|two|few|many|other)$/.exec(key);
  return match?.[1];
};

function flatten(messages: Messages, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [inner, text] of flatten(value, path)) out.set(inner, text);
  }
  return out;
}

/** The keys a language must have: English's, with each plural group in that language's categories. */
function expectedKeys(englishKeys: Iterable<string>, code: string): Set<string> {
  const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of englishKeys) {
    const base = pluralBase(key);
    if (base === undefined) keys.add(key);
    else for (const category of categories) keys.add(`${base}_${category}`);
  }
  return keys;
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1] as string).sort();
const onlyPlaceholders = (text: string): boolean => !/\p{L}/u.test(text.replace(/\{\{[^}]*\}\}/g, ''));

describe('locales', () => {
  it('has English, the reference', () => {
    expect(english).toBeDefined();
  });

  it('has a file for each of the 39 UI languages and no other', () => {
    expect(UI_LANGUAGES).toHaveLength(39);
    const codes = UI_LANGUAGES.map((language) => language.code);
    expect([...byCode.keys()].sort()).toEqual([...codes].sort());
  });

  const englishTexts = flatten(english ?? {});

  describe.each(UI_LANGUAGES.filter((language) => language.code !== 'en'))('$code ($name)', ({ code }) => {
    const messages = byCode.get(code);
    const texts = flatten(messages ?? {});

    it('exists', () => {
      expect(messages, `src/locales/${code}.json is missing`).toBeDefined();
    });

    it('has exactly the keys of en.json', () => {
      const wanted = expectedKeys(englishTexts.keys(), code);
      const missing = [...wanted].filter((key) => !texts.has(key));
      const extra = [...texts.keys()].filter((key) => !wanted.has(key));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it('keeps the placeholders of each English text', () => {
      const wrong: string[] = [];
      for (const [key, text] of texts) {
        const base = pluralBase(key);
        const source = englishTexts.get(key) ?? (base ? englishTexts.get(`${base}_other`) : undefined);
        if (source === undefined) continue;
        // A language's singular form may spell out the count ("one ticket") instead of {{count}}.
        const ignore = base ? ['count'] : [];
        const of = (value: string) => placeholders(value).filter((name) => !ignore.includes(name));
        if (of(text).join() !== of(source).join()) wrong.push(`${key}: ${of(source).join(', ')} → ${of(text).join(', ')}`);
      }
      expect(wrong).toEqual([]);
    });

    it('translates every text', () => {
      const untranslated = [...texts]
        .filter(([key, text]) => {
          const base = pluralBase(key);
          const source = englishTexts.get(key) ?? (base ? PLURAL_SUFFIXES.map((s) => englishTexts.get(`${base}_${s}`)).find(Boolean) : undefined);
          return text === source && !SAME_AS_ENGLISH.has(text) && !onlyPlaceholders(text);
        })
        .map(([key]) => key);
      expect(untranslated).toEqual([]);
    });
  });
});
