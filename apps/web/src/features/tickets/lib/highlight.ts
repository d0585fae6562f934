import type { Highlight } from '@ticket/contracts';

export interface Segment {
  text: string;
  match: boolean;
}

/** A highlight's text cut at its matches, in order; overlapping or out-of-range matches are dropped. */
export function highlightSegments({ text, matches }: Pick<Highlight, 'text' | 'matches'>): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const { start, length } of [...matches].sort((a, b) => a.start - b.start)) {
    if (start < at || start + length > text.length || length <= 0) continue;
    if (start > at) segments.push({ text: text.slice(at, start), match: false });
    segments.push({ text: text.slice(start, start + length), match: true });
    at = start + length;
  }
  if (at < text.length) segments.push({ text: text.slice(at), match: false });
  return segments;
}
