import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { startApi } from '@/test/render';
import { ADA, makeMessage, makeTicket } from '../test/fixtures';
import { escapeHtml, exportFileName, transcriptHtml, transcriptJson } from './transcript';

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

  it('names the files after the ticket, and the JSON is the ticket', () => {
    const ticket = makeTicket({ name: 'help / me: now?' });
    expect(exportFileName(ticket, 'html')).toBe('ticket-12-help-me-now.html');
    expect(exportFileName(makeTicket({ name: '***' }), 'json')).toBe('ticket-12.json');
    expect(JSON.parse(transcriptJson(ticket))).toEqual(ticket);
  });
});
