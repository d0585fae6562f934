import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as received: signatures are checked against these bytes. */
  body: string;
  json: unknown;
}

export interface EndpointAnswer {
  status?: number;
  /** Sent as JSON unless it is a string; undefined sends an empty body. */
  body?: unknown;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export type EndpointHandler = (request: ReceivedRequest) => EndpointAnswer | Promise<EndpointAnswer>;

export interface TestEndpoint {
  url: string;
  requests: ReceivedRequest[];
  /** Replaces how the endpoint answers from now on. */
  answer(handler: EndpointHandler): void;
  close(): Promise<void>;
}

/**
 * A real HTTP server standing in for the product (interactions endpoint or Ticket API), because
 * the sandbox reaches those with fetch, not with inject.
 */
export async function startEndpoint(initial: EndpointHandler = () => ({ status: 200, body: { type: 6 } })): Promise<TestEndpoint> {
  let handler = initial;
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = body === '' ? null : JSON.parse(body);
      } catch {
        json = null;
      }
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json };
      requests.push(received);
      void Promise.resolve(handler(received)).then(async (answer) => {
        if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
        const payload = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status ?? 200, payload !== '' && typeof answer.body !== 'string' ? { 'content-type': 'application/json' } : {});
        res.end(payload);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(next) {
      handler = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
