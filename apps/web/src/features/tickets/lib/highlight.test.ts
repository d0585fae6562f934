import { describe, expect, it } from 'vitest';
import { serverMentionNames } from '@/components/markdown/markdown';
import { highlightSegments, plainText } from './highlight';

const names = serverMentionNames(null, (id) => (id === '1' ? 'Ada' : id), { channel: 'unknown-channel', role: 'unknown-role' });

describe('plainText', () => {
  it('reads mentions as names and emoji as :name:, and drops the marks of markdown', () => {
    expect(plainText('**Hello** <@1>, see <#2> or ask <@&3> ~~now~~ `code` ||secret|| <:party:44> <a:wave:55>', names)).toBe(
      'Hello @Ada, see #unknown-channel or ask @unknown-role now code secret :party: :wave:',
    );
    expect(plainText('<@!99> wrote', names)).toBe('@99 wrote');
    expect(plainText('2 * 3 < 7', names)).toBe('2 * 3 < 7');
  });
});

describe('highlightSegments', () => {
  it('cuts the text at its matches, in order', () => {
    expect(highlightSegments({ text: 'a refund please', matches: [{ start: 2, length: 6 }] })).toEqual([
      { text: 'a ', match: false },
      { text: 'refund', match: true },
      { text: ' please', match: false },
    ]);
  });
});
