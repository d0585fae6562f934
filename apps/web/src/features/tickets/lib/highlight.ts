import type { Highlight } from '@ticket/contracts';
import type { MentionNames } from '@/components/markdown/markdown';

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

/**
 * Chat markdown as a line of plain text, for the short excerpts of a list (a search's matches, the
 * last message): mentions read as names (`<@id>` as "@Ada", or the id when the name is unknown),
 * custom emoji as `:name:`, and the marks of bold, italics, strikes, spoilers and code go.
 */
export function plainText(text: string, names: MentionNames): string {
  return text.replace(/<@!?(\d+)>|<#(\d+)>|<@&(\d+)>|<a?:(\w+):\d+>|\*\*|__|~~|\|\||`+/g, (_token, user?: string, channel?: string, role?: string, emoji?: string) => {
    if (user) return `@${names.user(user)}`;
    if (channel) return `#${names.channel(channel)}`;
    if (role) return `@${names.role(role).name}`;
    if (emoji) return `:${emoji}:`;
    return '';
  });
}
