import { beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS, makeSandbox } from './test-support.ts';
import type { TestSandbox } from './test-support.ts';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});

const bytes = Buffer.from('hello from a ticket attachment\n');

async function attach(payload: object) {
  return sb.app.inject({ method: 'POST', url: '/_sandbox/attachments', payload });
}

async function attachText(filename = 'notes v2.txt') {
  const res = await attach({ channelId: CHANNELS.openTicket, filename, contentType: 'text/plain', data: bytes.toString('base64') });
  expect(res.statusCode).toBe(201);
  return res.json().attachment as { id: string; filename: string; size: number; url: string; proxy_url: string; content_type: string };
}

/** The path and query of a CDN link, for inject. */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe('attachments on the CDN', () => {
  it('registers bytes and serves them at a signed attachment link', async () => {
    const attachment = await attachText();
    expect(attachment).toMatchObject({ filename: 'notes v2.txt', size: bytes.length, content_type: 'text/plain' });
    expect(attachment.id).toMatch(/^\d{17,20}$/);
    const url = new URL(attachment.url);
    expect(url.pathname).toBe(`/cdn/attachments/${CHANNELS.openTicket}/${attachment.id}/notes%20v2.txt`);
    expect([...url.searchParams.keys()]).toEqual(['ex', 'is', 'hm']);
    const res = await sb.app.inject({ url: local(attachment.url) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers 404 for an unsigned, tampered, expired or unknown link', async () => {
    const attachment = await attachText();
    const url = new URL(attachment.url);
    const gone = async (path: string) => {
      const res = await sb.app.inject({ url: path });
      expect(res.statusCode, path).toBe(404);
      expect(res.body).toBe('This content is no longer available.');
    };
    await gone(url.pathname);
    await gone(`${url.pathname}?ex=${url.searchParams.get('ex')}&is=${url.searchParams.get('is')}&hm=${'0'.repeat(64)}`);
    await gone(local(attachment.url).replace(attachment.id, '1234567890123456789'));
    await gone(local(attachment.url).replace('notes%20v2.txt', 'other.txt'));
    sb.clock.advance(25 * 3600_000);
    await gone(local(attachment.url));
  });

  it('refuses a registration without a channel, a plain file name or base64 data, and forgets attachments on reset', async () => {
    expect((await attach({ filename: 'a.txt', data: '' })).json()).toEqual({ error: 'channelId must be a snowflake string' });
    expect((await attach({ channelId: CHANNELS.openTicket, filename: '../a.txt', data: '' })).statusCode).toBe(400);
    expect((await attach({ channelId: CHANNELS.openTicket, filename: 'a.txt' })).json()).toEqual({ error: 'data must be the bytes in base64' });
    const attachment = await attachText('kept.txt');
    await sb.app.inject({ method: 'POST', url: '/_sandbox/reset' });
    expect((await sb.app.inject({ url: local(attachment.url) })).statusCode).toBe(404);
  });
});
