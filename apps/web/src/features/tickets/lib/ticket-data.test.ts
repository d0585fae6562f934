import { beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '@/test/render';
import { makeMessage } from '../test/fixtures';
import { attachmentsOf } from './attachments';
import { highlightSegments } from './highlight';
import { responseTimes } from './response-times';

beforeAll(startApi);

describe('response times', () => {
  const at = (minutes: number) => new Date(Date.parse('2025-03-01T10:00:00.000Z') + minutes * 60_000).toISOString();

  it('measures each wait from the opening or a member’s message to the next staff answer', () => {
    const times = responseTimes({
      createdAt: at(0),
      messages: [
        makeMessage({ createdAt: at(1) }),
        makeMessage({ createdAt: at(2), messageType: 'System' }),
        makeMessage({ createdAt: at(10), messageType: 'Staff' }),
        makeMessage({ createdAt: at(11), messageType: 'Staff' }),
        makeMessage({ createdAt: at(20) }),
        makeMessage({ createdAt: at(25) }),
        makeMessage({ createdAt: at(50), messageType: 'Staff' }),
      ],
    });
    expect(times).toEqual({ first: 600, average: (600 + 1800) / 2 });
  });

  it('has none while nobody from staff answered', () => {
    expect(responseTimes({ createdAt: at(0), messages: [makeMessage({ createdAt: at(1) })] })).toEqual({ first: null, average: null });
  });
});

describe('attachments', () => {
  const attachment = (id: string, filename: string, contentType: string | null = null) => ({
    id,
    filename,
    url: `https://cdn.discordapp.com/a/${id}/${filename}`,
    size: 5,
    contentType,
  });
  const file = (fileId: string, name: string, token?: string) => ({
    ticketId: 't1',
    fileId,
    name,
    size: 9,
    ...(token ? { token } : {}),
    blurHash: null,
    width: null,
    height: null,
  });

  it('pairs each attachment with its stored copy, by name then in order, and lists stored files nobody names', () => {
    const items = attachmentsOf(
      makeMessage({
        message: { content: '', embeds: [], mentions: [], attachments: [attachment('1', 'a.txt'), attachment('2', 'b.png', 'image/png'), attachment('3', 'c.txt')] },
        files: [file('f2', 'b.png', 't 2'), file('f1', 'a.txt', 't1'), file('f9', 'renamed.txt', 't9'), file('f8', 'extra.gif', 't8')],
      }),
    );
    expect(items.map((item) => [item.name, item.url, item.isImage])).toEqual([
      ['a.txt', '/api/files/files/f1/a.txt?token=t1', false],
      ['b.png', '/api/files/files/f2/b.png?token=t%202', true],
      ['renamed.txt', '/api/files/files/f9/renamed.txt?token=t9', false],
      ['extra.gif', '/api/files/files/f8/extra.gif?token=t8', true],
    ]);
  });

  it('links the platform’s copy when there is no stored one, or when the stored one has no token', () => {
    const items = attachmentsOf(
      makeMessage({
        message: { content: '', embeds: [], mentions: [], attachments: [attachment('1', 'a.txt'), attachment('2', 'b.txt')] },
        files: [file('f1', 'a.txt')],
      }),
    );
    expect(items.map((item) => item.url)).toEqual(['https://cdn.discordapp.com/a/1/a.txt', 'https://cdn.discordapp.com/a/2/b.txt']);
  });
});

describe('highlights', () => {
  it('cuts the text at its matches, dropping overlapping and out-of-range ones', () => {
    expect(
      highlightSegments({
        text: 'refund my refund',
        matches: [
          { start: 10, length: 6 },
          { start: 0, length: 6 },
          { start: 2, length: 3 },
          { start: 14, length: 9 },
        ],
      }),
    ).toEqual([
      { text: 'refund', match: true },
      { text: ' my ', match: false },
      { text: 'refund', match: true },
    ]);
  });
});
