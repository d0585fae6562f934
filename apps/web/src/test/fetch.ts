import { vi } from 'vitest';

export interface Recorded {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
}

export const json = (data: unknown, init: ResponseInit = {}): Response =>
  new Response(JSON.stringify(data), {
    ...init,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });

/**
 * Replaces the global fetch for one test. `handler` answers each request (or throws, as a network
 * failure would); every request is recorded.
 */
export function mockFetch(handler: (request: Recorded) => Response | Promise<Response>) {
  const calls: Recorded[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request: Recorded = {
      method: init.method ?? 'GET',
      url: String(input),
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    };
    calls.push(request);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
