import { UI_LANGUAGES } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { BOT_WORDS_FILE, BotWords, pluralBase, shippedBotWords } from './bot-words';

const shipped = shippedBotWords();
const en = shipped.en!;
const placeholders = (text: string) => new Set([...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]!));

/** en.json's keys, plural forms grouped under their base key. */
const singular = Object.keys(en).filter((key) => pluralBase(key) === null);
const plurals = [...new Set(Object.keys(en).flatMap((key) => pluralBase(key) ?? []))];

describe(`the shipped "${BOT_WORDS_FILE}" translation file`, () => {
  it('exists for each of the 39 languages', () => {
    expect(Object.keys(shipped).sort()).toEqual(UI_LANGUAGES.map((l) => l.code).sort());
  });

  describe.each(UI_LANGUAGES.map((l) => l.code))('in %s', (language) => {
    const texts = shipped[language]!;
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    const expected = [...singular, ...plurals.flatMap((base) => categories.map((category) => `${base}_${category}`))];

    it('has every key of en.json, a form for each plural category of the language, and nothing else', () => {
      expect(Object.keys(texts).sort()).toEqual(expected.sort());
      for (const key of expected) expect(texts[key]?.trim(), `${language} ${key}`).toBeTruthy();
    });

    it('keeps every placeholder of the English text', () => {
      for (const key of singular) expect([...placeholders(texts[key]!)].sort(), `${language} ${key}`).toEqual([...placeholders(en[key]!)].sort());
      // A plural form may spell its number out ("two days") instead of showing the count.
      for (const base of plurals) {
        const wanted = [...placeholders(en[`${base}_other`]!)].filter((name) => name !== 'count');
        for (const category of categories) {
          const got = placeholders(texts[`${base}_${category}`]!);
          for (const name of wanted) expect(got.has(name), `${language} ${base}_${category} {{${name}}}`).toBe(true);
        }
        expect(placeholders(texts[`${base}_other`]!).has('count'), `${language} ${base}_other`).toBe(true);
      }
    });

    it('is not left in English where the words differ', () => {
      if (language === 'en') return;
      const same = singular.filter((key) => texts[key] === en[key] && /[a-z]{4,}/i.test(en[key]!.replace(/\{\{[^}]+\}\}/g, '')));
      // Words several languages share with English (a "Link" button) may stay as they are.
      expect(same.filter((key) => key !== 'button.link')).toEqual([]);
    });
  });
});

describe('BotWords', () => {
  it('fills placeholders and chooses the plural form by count', () => {
    const words = new BotWords();
    expect(words.text('en', 'reply.alreadyClaimed', { user: '<@1>' })).toBe('This ticket is already claimed by <@1>.');
    expect(words.text('en', 'time.minutes', { count: 1 })).toBe('1 minute');
    expect(words.text('en', 'time.minutes', { count: 5 })).toBe('5 minutes');
    expect(words.text('ru', 'time.minutes', { count: 2 })).toBe('2 минуты');
    expect(words.text('ru', 'time.minutes', { count: 21 })).toBe('21 минуту');
    expect(words.text('ar', 'time.days', { count: 2 })).toBe('يومين');
    expect(words.text('ja', 'time.hours', { count: 3 })).toBe('3時間');
  });

  it('falls back per key: the subject’s language, then the server’s, then English', () => {
    const words = new BotWords();
    expect(words.for('de', 'fr')('button.close')).toBe('Schließen');
    expect(words.for(null, 'fr')('button.close')).toBe('Fermer');
    expect(words.for(undefined, null)('button.close')).toBe('Close');
    expect(words.for('xx', 'it')('button.close')).toBe('Chiudi');
    expect(words.text('pt-BR', 'button.close')).toBe('Fechar');

    words.replace('de', { 'button.close': '', 'button.claim': 'Nehmen' });
    // Empty in the corrected file: the shipped German stays; a corrected text takes its place.
    expect(words.for('de', 'fr')('button.close')).toBe('Schließen');
    expect(words.for('de', 'fr')('button.claim')).toBe('Nehmen');

    words.replace('eo', { 'button.claim': 'Preni' });
    expect(words.for('eo', 'fr')('button.claim')).toBe('Preni');
    expect(words.for('eo', 'fr')('button.close')).toBe('Fermer');
  });

  it('keeps each app’s corrections to itself', () => {
    const one = new BotWords();
    one.replace('en', { 'button.close': 'Shut' });
    expect(one.text('en', 'button.close')).toBe('Shut');
    expect(new BotWords().text('en', 'button.close')).toBe('Close');
    expect(shippedBotWords().en!['button.close']).toBe('Close');
  });
});
