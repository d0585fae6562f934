import { createHash } from 'node:crypto';

/*
 * The words of the search index, as both engines keep them. A word is a run of letters and
 * digits, lower-cased, of at most MAX_WORD characters (longer runs, such as pasted keys or
 * encoded data, are not words anyone searches for). Each indexed word is prefixed with its
 * server's scope, so that a search in one server reads that server's postings of a word, not every
 * server's (a common word's postings over a million tickets are millions long). Scopes of two
 * servers may coincide; queries still narrow to their server, so that only costs time.
 */

export const MAX_WORD = 100;

/** What words are made of: a letter or a digit, of any script. */
const WORD_CHARACTER = '[\\p{L}\\p{N}]';
const WORD = new RegExp(`${WORD_CHARACTER}+`, 'gu');
/** A letter or digit exactly at lastIndex (sticky: `test` reads that one place and allocates nothing). */
const wordCharacter = new RegExp(WORD_CHARACTER, 'uy');

/** Every run of letters and digits of a text, lower-cased, in order, however long. */
export const wordRuns = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

/** The distinct words of a text, in order of first appearance. */
export function wordsOf(text: string): string[] {
  return [...new Set(wordRuns(text).filter((w) => w.length <= MAX_WORD))];
}

/** Whether a letter or digit starts at `at` in the text. */
export function isWordCharacterAt(text: string, at: number): boolean {
  wordCharacter.lastIndex = at;
  return wordCharacter.test(text);
}

/** Whether the character that ends just before `at` is a letter or digit (a pair of surrogates is one character). */
export function isWordCharacterBefore(text: string, at: number): boolean {
  if (at === 0) return false;
  const low = text.charCodeAt(at - 1);
  const paired = at >= 2 && low >= 0xdc00 && low <= 0xdfff && text.charCodeAt(at - 2) >= 0xd800 && text.charCodeAt(at - 2) <= 0xdbff;
  return isWordCharacterAt(text, paired ? at - 2 : at - 1);
}

/**
 * The server's scope: a letter and the first six hex digits of the MD5 of its id. PostgreSQL
 * computes the same in SQL (migration 0026), so this stays in step with it.
 */
export function searchScope(serverId: string): string {
  return `z${createHash('md5').update(serverId).digest('hex').slice(0, 6)}`;
}

/** The indexed form of words in a server. */
export const scopedWords = (serverId: string, words: string[]): string[] => {
  const scope = searchScope(serverId);
  return words.map((w) => scope + w);
};

/** SQLite: what the index holds of a text (its distinct words, scoped), one space between words. */
export const scopedIndexText = (serverId: string, body: string): string => scopedWords(serverId, wordsOf(body)).join(' ');
