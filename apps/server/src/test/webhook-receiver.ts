import { createHmac, timingSafeEqual } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver as a customer would run one: a real HTTP server on 127.0.0.1 that records
 * every request and answers the next status of `answers` (200 once they run out), after `delayMs`.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const state = { delayMs: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answers.shift() ?? 200;
      setTimeout(() => {
        response.statusCode = status;
        if (status >= 300 && status < 400) response.setHeader('location', 'http://127.0.0.1:1/elsewhere');
        response.end('ok');
      }, state.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    /** Statuses to answer next, in order. */
    answers,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * A receiver for the tests of a file: started before them, stopped after, and emptied before each
 * (nothing received, no answers queued, no delay).
 */
export function useReceiver(): Receiver {
  let current: Receiver | undefined;
  beforeAll(async () => {
    current = await startReceiver();
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => {
    current!.received.length = 0;
    current!.answers.length = 0;
    current!.state.delayMs = 0;
  });
  return new Proxy({} as Receiver, {
    get(_target, key) {
      if (!current) throw new Error('the receiver is not running: use it inside a test or hook');
      return Reflect.get(current, key) as unknown;
    },
  });
}

/** What a receiver does with a delivery: check `Webhook-Signature` against the secret it was given. */
export function verifySignature(secret: string, received: Received): boolean {
  const timestamp = received.headers['webhook-timestamp'];
  const signature = received.headers['webhook-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || !signature.startsWith('v1=')) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${received.body}`).digest();
  const given = Buffer.from(signature.slice(3), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
