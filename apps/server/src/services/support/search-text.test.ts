import { describe, expect, it } from 'vitest';
import { highlight, searchTerms } from './search-text';

/** What a highlight should hold, from the text split into words one by one (the words as `searchTerms` splits them). */
function expected(body: string, terms: string[], window = 160) {
  const starts: { start: number; length: number }[] = [];
  for (const m of body.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (terms.includes(m[0].toLowerCase())) starts.push({ start: m.index, length: m[0].length });
  }
  if (starts.length === 0) return null;
  const from = Math.max(0, Math.min(starts[0]!.start - Math.floor(window / 3), body.length - window));
  const to = Math.min(body.length, from + window);
  return {
    text: body.slice(from, to),
    matches: starts.filter((m) => m.start >= from && m.start + m.length <= to).map((m) => ({ start: m.start - from, length: m.length })),
  };
}

describe('highlight', () => {
  it('marks every whole word of the search, and no part of a longer word', () => {
    const found = highlight('message', 'Refund please: the refunds page says REFUND-42 failed', ['refund', '42']);
    expect(found).toEqual({
      field: 'message',
      text: 'Refund please: the refunds page says REFUND-42 failed',
      matches: [
        { start: 0, length: 6 },
        { start: 37, length: 6 },
        { start: 44, length: 2 },
      ],
    });
    expect(highlight('name', 'refunds only', ['refund'])).toBeNull();
  });

  it('gives a window of the text around the first match, with the matches inside it', () => {
    const body = `${'word '.repeat(60)}invoice ${'more '.repeat(60)}invoice`;
    const found = highlight('answer', body, ['invoice'])!;
    expect(found.text).toHaveLength(160);
    expect(found.matches).toEqual([{ start: 53, length: 7 }]);
    expect(found.text.slice(53, 60)).toBe('invoice');
  });

  it('keeps its offsets in the text where lower-casing changes a word length (a dotted capital I)', () => {
    // "İ" lower-cases to "i" and a combining dot: two characters for one.
    const body = 'İADE İSTANBUL şubesi: iade talebi';
    const found = highlight('message', body, searchTerms('iade'))!;
    expect(found.matches.map((m) => found.text.slice(m.start, m.start + m.length))).toEqual(['iade']);
    const mixed = highlight('message', 'İİ refund then Refund', ['refund'])!;
    expect(mixed.matches.map((m) => mixed.text.slice(m.start, m.start + m.length))).toEqual(['refund', 'Refund']);
  });

  it('reads letters and digits of any script, and characters outside the basic plane, as the index does', () => {
    const body = '𝒜refund 退款 refund𝒜 ök refund. ١٢٣ refund';
    expect(highlight('message', body, ['refund', '退款', '١٢٣'])).toEqual({ field: 'message', ...expected(body, ['refund', '退款', '١٢٣']) });
  });

  it('agrees with splitting the text into words, over many texts', () => {
    const pieces = ['refund', 'Refund', 'REFUNDS', 'pay', 'payment', ' ', '-', '.', 'é', 'ß', '𝒜', '42', '\u0301', '日本', '\n'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % pieces.length;
    for (let n = 0; n < 500; n++) {
      const body = Array.from({ length: 5 + (n % 60) }, () => pieces[next()]).join('');
      for (const terms of [['refund'], ['pay', '42'], ['日本', 'refund', 'ß']]) {
        const found = highlight('message', body, terms);
        expect(found === null ? null : { text: found.text, matches: found.matches }, body).toEqual(expected(body, terms));
      }
    }
  });
});
