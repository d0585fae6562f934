import { authCalls, serverDataCalls } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { testConfig } from '@/test/fixtures';
import { createClient, parseRetryAfter } from './client';
import { FetchError, RequiredError, ResponseError } from './errors';

const client = (token: string | null = 'tok-1') => createClient(testConfig, () => token);

describe('api client', () => {
  it('refuses a call without a required path parameter, before sending anything', async () => {
    const { fetchMock } = mockFetch(() => json({}));
    const call = client().authentication.getApiKey({ params: { serverId: undefined as unknown as string } });
    await expect(call).rejects.toThrow(RequiredError);
    await expect(call).rejects.toThrow('Required parameter "serverId" was null or undefined when calling getApiKey().');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a call without its required body', async () => {
    const { fetchMock } = mockFetch(() => json({}));
    const call = client().authentication.authenticate({ body: null as never });
    await expect(call).rejects.toThrow('Required parameter "body" was null or undefined when calling authenticate().');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a call without a required query parameter', async () => {
    mockFetch(() => json({}));
    const call = client().server.getUser({ params: { id: '1' }, query: {} as never });
    await expect(call).rejects.toThrow('Required parameter "serverId" was null or undefined when calling getUser().');
  });

  it('turns a request that never got an answer into a FetchError', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const call = client().authentication.getLoginConfig();
    await expect(call).rejects.toThrow(FetchError);
    await expect(call).rejects.toThrow(
      'The request failed and the interceptors did not return an alternative response',
    );
  });

  it('turns an answer outside 200–299 into a ResponseError with status, body and Retry-After', async () => {
    const body = { statusCode: 429, error: 'Too Many Requests', code: 'rate_limited', message: 'Slow down' };
    mockFetch(() => json(body, { status: 429, headers: { 'Retry-After': '7' } }));
    const error = await client()
      .authentication.refreshUserBypass()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseError);
    const responseError = error as ResponseError;
    expect(responseError.message).toBe('Response returned an error code');
    expect(responseError.status).toBe(429);
    expect(responseError.body).toEqual(body);
    expect(responseError.retryAfter).toBe(7);
    // Left unread for the caller.
    expect(await responseError.response.json()).toEqual(body);
  });

  it('treats a 3xx as a failure too, and carries no body when the answer is not an ErrorBody', async () => {
    mockFetch(() => new Response('moved', { status: 302 }));
    const error = await client()
      .authentication.getLoginConfig()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as ResponseError).body).toBeUndefined();
    expect((error as ResponseError).retryAfter).toBeUndefined();
  });

  it('builds the URL from the service base, sends the token and a JSON body, and parses the answer', async () => {
    const answer = { user: { userId: '1' }, token: 'new' };
    const { calls } = mockFetch(() => json(answer));
    const result = await client().authentication.authenticate({
      body: { code: 'abc', redirectUri: 'http://localhost/callback' },
    });
    expect(result).toEqual(answer);
    expect(calls).toHaveLength(1);
    const [request] = calls;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/api/authentication/user');
    expect(request?.headers.get('Authorization')).toBe('Bearer tok-1');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.body).toEqual({ code: 'abc', redirectUri: 'http://localhost/callback' });
  });

  it('fills path parameters and the query, on whatever host the service lives', async () => {
    const { calls } = mockFetch(() => json([]));
    const remote = createClient(
      { ...testConfig, services: { ...testConfig.services, server: 'https://bot.example.com/api/server/' } },
      () => null,
    );
    await remote.server.getServerRoles({ params: { serverId: '42' }, query: { clearCache: true } });
    expect(calls[0]?.url).toBe('https://bot.example.com/api/server/servers/42/roles?clearCache=true');
    expect(calls[0]?.headers.has('Authorization')).toBe(false);
  });

  it('answers undefined for a 204', async () => {
    mockFetch(() => new Response(null, { status: 204 }));
    await expect(client().authentication.logout()).resolves.toBeUndefined();
  });

  it('calls any CallDef through call(), with the same checks', async () => {
    const { calls } = mockFetch(() => json({ discordId: '5' }));
    const api = client();
    await api.call('server', serverDataCalls.getUser, { params: { id: '5' }, query: { serverId: '7' } }, 'getUser');
    expect(calls[0]?.url).toBe('/api/server/users/5?serverId=7');
    await expect(
      api.call('authentication', authCalls.deleteApiKey, { params: { serverId: null as never } }, 'deleteApiKey'),
    ).rejects.toThrow('Required parameter "serverId" was null or undefined when calling deleteApiKey().');
  });

  it('sends an upload as the form itself, and refuses one without it', async () => {
    const { calls } = mockFetch(() => json({ fileId: 'f1' }, { status: 201 }));
    const query = { FileName: 'log.txt', ServerId: '1', TicketId: 't1', SubjectId: 's1' };
    const form = new FormData();
    form.append('file', new Blob(['hello']), 'log.txt');
    await client().files.uploadFile({ query, body: form });
    expect(calls[0]?.url).toBe('/api/files/files/upload?FileName=log.txt&ServerId=1&TicketId=t1&SubjectId=s1');
    expect(calls[0]?.body).toBe(form);
    expect(calls[0]?.headers.has('Content-Type')).toBe(false);
    await expect(client().files.uploadFile({ query } as never)).rejects.toThrow(
      'Required parameter "body" was null or undefined when calling uploadFile().',
    );
  });

  it('answers a download with the file as a Blob', async () => {
    const { calls } = mockFetch(() => new Response('bytes', { headers: { 'Content-Type': 'text/plain' } }));
    const file = await client().files.getFile({ params: { fileId: 'f1', fileName: 'a b.txt' } });
    // Not `instanceof Blob`: jsdom's Blob and Node's fetch's are of different realms.
    expect(Object.prototype.toString.call(file)).toBe('[object Blob]');
    expect(await file.text()).toBe('bytes');
    expect(calls[0]?.url).toBe('/api/files/files/f1/a%20b.txt');
  });

  it('reads Retry-After as seconds or as a date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
