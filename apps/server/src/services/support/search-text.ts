import type { Highlight } from '@ticket/contracts';

/**
 * Words as both engines index them: runs of letters and digits, lower-cased. Splitting the query
 * here keeps FTS5 and tsvector answering the same way (no operators, no stemming).
 */
export function searchTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, 12);
}

/** Offsets of every whole-word occurrence of the terms, and a window of text around the first. */
export function highlight(field: Highlight['field'], body: string, terms: string[], window = 160): Highlight | null {
  const matches: { start: number; length: number }[] = [];
  const lower = body.toLowerCase();
  const word = /[\p{L}\p{N}]+/gu;
  for (let m = word.exec(lower); m; m = word.exec(lower)) {
    if (terms.includes(m[0])) matches.push({ start: m.index, length: m[0].length });
  }
  if (matches.length === 0) return null;
  const first = matches[0]!.start;
  const from = Math.max(0, Math.min(first - Math.floor(window / 3), body.length - window));
  const to = Math.min(body.length, from + window);
  return {
    field,
    text: body.slice(from, to),
    matches: matches.filter((m) => m.start >= from && m.start + m.length <= to).map((m) => ({ start: m.start - from, length: m.length })),
  };
}
