import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { startApi } from '@/test/render';
import { ADA, makeMessage, makeTicket } from '../test/fixtures';
import { escapeHtml, exportFileName, transcriptHtml, transcriptJson, withFreshFiles } from './transcript';

beforeAll(startApi);

const context = () => ({
  t: i18n.t.bind(i18n) as TFunction,
  locale: 'en',
  dir: 'ltr' as const,
  formatDate: (iso: string) => `on ${iso}`,
  formatBytes: (bytes: number) => `${bytes} B`,
  origin: 'https://dashboard.example',
});

describe('the transcript', () => {
  it('escapes everything that could open a tag, close an attribute or start an entity', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('is a page with no script and nothing from the ticket as markup, every link a web address', () => {
    const evil = '"><script>alert(1)</script>';
    const html = transcriptHtml(
      makeTicket({
        name: evil,
        subject: { subjectId: 's1', name: '<b>Billing</b>' },
        templateAnswers: [{ questionId: 'q1', question: 'Why?', answer: '</dd><img src=x onerror=alert(1)>' }],
        closed: { closedAt: '2025-03-02T09:00:00.000Z', closedBy: ADA, reason: 'Solved <i>fully</i>', force: false },
        state: 'Closed',
        messages: [
          makeMessage({
            message: {
              content: `Hi <@${ADA}> ${evil}`,
              embeds: [{ title: '<u>Embed</u>', color: 0x00ff00 }],
              mentions: [ADA],
              attachments: [
                { id: '1', filename: 'x" onload="alert(1).png', url: 'javascript:alert(1)', size: 3, contentType: 'image/png' },
                { id: '2', filename: 'notes.txt', url: 'https://cdn.discordapp.com/a/2/notes.txt', size: 4, contentType: null },
              ],
            },
            reactions: [{ count: 3, emoji: { id: null, name: '<🎉>' } }],
          }),
        ],
      }),
      context(),
    );
    expect(html.startsWith('<!doctype html>\n<html lang="en" dir="ltr">')).toBe(true);
    expect(html).not.toMatch(/<script|<img src=x|<b>|<i>|<u>|onload="/);
    expect(html).toContain('<title>Ticket #12: &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(html).toContain('Hi @Ada Lovelace &quot;&gt;&lt;script&gt;');
    expect(html).toContain('<dd>&lt;/dd&gt;&lt;img src=x onerror=alert(1)&gt;</dd>');
    expect(html).toContain('Solved &lt;i&gt;fully&lt;/i&gt;');
    expect(html).toContain('x&quot; onload=&quot;alert(1).png');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<a href="https://cdn.discordapp.com/a/2/notes.txt" rel="noopener noreferrer">notes.txt');
    expect(html).toContain('&lt;🎉&gt; 3');
    expect(html).toContain('--embed: #00ff00');
    expect(html).toContain(`default-src 'none'`);
  });

  it('links the stored files with the tokens listed at export; one no longer listed links the platform’s copy', () => {
    const file = (fileId: string, name: string, token: string) => ({ ticketId: 't1', fileId, name, size: 3, token, blurHash: null, width: null, height: null });
    const ticket = makeTicket({
      messages: [
        makeMessage({
          message: {
            content: 'two files',
            embeds: [],
            mentions: [],
            attachments: [
              { id: '1', filename: 'a.png', url: 'https://cdn.discordapp.com/a/1/a.png', size: 3, contentType: 'image/png' },
              { id: '2', filename: 'b.txt', url: 'https://cdn.discordapp.com/a/2/b.txt', size: 3, contentType: null },
            ],
          },
          files: [file('f1', 'a.png', 'loaded-1'), file('f2', 'b.txt', 'loaded-2')],
        }),
      ],
    });
    const html = transcriptHtml(withFreshFiles(ticket, [file('f1', 'a.png', 'fresh-1')]), context());
    expect(html).toContain('<a href="https://dashboard.example/api/files/files/f1/a.png?token=fresh-1" rel="noopener noreferrer"><img src="https://dashboard.example/api/files/files/f1/a.png?token=fresh-1"');
    expect(html).toContain('<a href="https://cdn.discordapp.com/a/2/b.txt" rel="noopener noreferrer">b.txt');
    expect(html).not.toContain('loaded-');
    // The ticket as loaded is left as it was.
    expect(ticket.messages[0]!.files.map((f) => f.token)).toEqual(['loaded-1', 'loaded-2']);
  });

  it('names the files after the ticket, and the JSON is the ticket', () => {
    const ticket = makeTicket({ name: 'help / me: now?' });
    expect(exportFileName(ticket, 'html')).toBe('ticket-12-help-me-now.html');
    expect(exportFileName(makeTicket({ name: '***' }), 'json')).toBe('ticket-12.json');
    expect(JSON.parse(transcriptJson(ticket))).toEqual(ticket);
  });
});
