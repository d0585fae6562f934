import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HealthServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface HealthSource {
  /** Liveness: ok, or degraded when a shard is not connected. */
  summary(): Promise<{ status: 'ok' | 'degraded' }>;
  detailed(): Promise<{ status: 'ok' | 'degraded' }>;
}

/** GET /health and GET /health/detailed for load balancers and operators. */
export async function startHealthServer(source: HealthSource, port: number, host: string): Promise<HealthServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, { statusCode: 405, error: 'Method Not Allowed', message: 'Only GET' });
    const read = path === '/health' ? source.summary() : path === '/health/detailed' ? source.detailed() : null;
    if (!read) return answer(404, { statusCode: 404, error: 'Not Found', message: `No route ${path}` });
    read.then(
      (body) => answer(200, body),
      () => answer(500, { statusCode: 500, error: 'Internal Server Error', message: 'Health could not be read' }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
