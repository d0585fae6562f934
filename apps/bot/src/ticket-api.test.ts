import { supportCalls, filesCalls } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { ApiAnswerError, ApiUnreachableError, callUrl, InvalidReportError, parseRetryAfter, TicketApi } from './ticket-api';

describe('callUrl', () => {
  it('puts the call’s path under its service base, with its parameters', () => {
    expect(callUrl('http://api:3000', 'support', supportCalls.createTicketMessage, { serverId: '1', ticketId: '2' })).toBe('http://api:3000/api/support/servers/1/tickets/2/messages');
    expect(callUrl('http://api:3000', 'files', filesCalls.cloneFile)).toBe('http://api:3000/api/files/files/clone');
    expect(() => callUrl('http://x', 'support', supportCalls.getTicketChannels)).toThrow(InvalidReportError);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('TicketApi', () => {
  const requests: { url: string; init: RequestInit }[] = [];
  const api = (answer: () => Response | Promise<Response>) =>
    new TicketApi({
      baseUrl: 'http://api',
      apiKey: 'operator-key',
      timeoutMs: 1000,
      fetch: (async (url: string, init: RequestInit) => {
        requests.push({ url, init });
        return answer();
      }) as typeof fetch,
    });

  it('sends the validated body with the operator key', async () => {
    requests.length = 0;
    const answer = await api(() => new Response(JSON.stringify({ ok: true }), { status: 201 })).call('support', supportCalls.removeReaction, {
      params: { serverId: '1', ticketId: '2', messageId: '3' },
      body: { deleteAll: true },
    });
    expect(answer).toEqual({ status: 201, body: { ok: true } });
    expect(requests[0]!.init.method).toBe('DELETE');
    expect(requests[0]!.init.headers).toMatchObject({ authorization: 'Admin operator-key', 'content-type': 'application/json' });
    // Defaults of the contract filled in.
    expect(JSON.parse(requests[0]!.init.body as string)).toEqual({ deleteAll: true, clearEmoji: false });
  });

  it('refuses a body that breaks the contract without sending it', async () => {
    requests.length = 0;
    await expect(
      api(() => new Response(null, { status: 204 })).call('support', supportCalls.removeReaction, { params: { serverId: '1', ticketId: '2', messageId: '3' }, body: { clearEmoji: true } }),
    ).rejects.toThrow(/emoji/);
    expect(requests).toHaveLength(0);
  });

  it('tells an answer with its status and Retry-After from no answer', async () => {
    const err = await api(() => new Response(JSON.stringify({ code: 'rate_limited', message: 'Too many requests' }), { status: 429, headers: { 'retry-after': '3' } }))
      .call('support', supportCalls.getTicketChannels, { params: { serverId: '1' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiAnswerError);
    expect(err).toMatchObject({ status: 429, code: 'rate_limited', retryAfterMs: 3000 });
    const down = await api(() => Promise.reject(new TypeError('fetch failed')))
      .call('support', supportCalls.getTicketChannels, { params: { serverId: '1' } })
      .catch((e: unknown) => e);
    expect(down).toBeInstanceOf(ApiUnreachableError);
    expect(String(down)).not.toContain('operator-key');
  });
});
