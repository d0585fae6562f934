import type { Highlight } from '@ticket/contracts';
import { isWordCharacterAt, isWordCharacterBefore, wordRuns } from '../../db/search-terms';

/**
 * Words as both engines index them: runs of letters and digits, lower-cased. Splitting the query
 * here keeps FTS5 and tsvector answering the same way (no operators, no stemming).
 */
export function searchTerms(text: string): string[] {
  return [...new Set(wordRuns(text))].slice(0, 12);
}

/**
 * Where each position of the lower-cased text is in the text itself, where lower-casing changed
 * its length (a dotted capital I becomes two characters, "i" and a combining dot); null where it
 * did not, as for almost every text, and each position is its own.
 */
function positionsInText(body: string, lower: string): Int32Array | null {
  if (lower.length === body.length) return null;
  const at = new Int32Array(lower.length + 1);
  let l = 0;
  for (let b = 0; b < body.length; ) {
    const point = String.fromCodePoint(body.codePointAt(b)!);
    const lowered = point.toLowerCase().length;
    for (let k = 0; k < lowered; k++) at[l + k] = b;
    l += lowered;
    b += point.length;
  }
  at[l] = body.length;
  return at;
}

/**
 * Offsets of every whole-word occurrence of the terms (lower-cased words, as `searchTerms` gives
 * them) in the text, and a window of the text around the first. Each term is looked up as it is in
 * the lower-cased text, and kept where no letter or digit is on either side: a search's page holds
 * up to 75 texts, and splitting each into words made an object for every word.
 */
export function highlight(field: Highlight['field'], body: string, terms: string[], window = 160): Highlight | null {
  const lower = body.toLowerCase();
  const found: { start: number; end: number }[] = [];
  for (const term of terms) {
    if (term === '') continue;
    for (let at = lower.indexOf(term); at !== -1; at = lower.indexOf(term, at + term.length)) {
      if (!isWordCharacterBefore(lower, at) && !isWordCharacterAt(lower, at + term.length)) found.push({ start: at, end: at + term.length });
    }
  }
  if (found.length === 0) return null;
  found.sort((a, b) => a.start - b.start);
  const positions = positionsInText(body, lower);
  const inText = (at: number) => (positions ? positions[at]! : at);
  const first = inText(found[0]!.start);
  const from = Math.max(0, Math.min(first - Math.floor(window / 3), body.length - window));
  const to = Math.min(body.length, from + window);
  const matches: Highlight['matches'] = [];
  for (const { start, end } of found) {
    const startInText = inText(start);
    const endInText = inText(end);
    if (startInText >= from && endInText <= to) matches.push({ start: startInText - from, length: endInText - startInText });
  }
  return { field, text: body.slice(from, to), matches };
}
