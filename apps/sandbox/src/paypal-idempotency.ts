import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PaypalStore } from './paypal-store.ts';

export interface Answer {
  status: number;
  body: unknown;
}

/**
 * Replays the first answer for a repeated `PayPal-Request-Id`, as PayPal does for create and
 * refund calls, so a product retrying after a timeout does not subscribe or refund twice.
 */
export function idempotent(store: PaypalStore, request: FastifyRequest, reply: FastifyReply, run: () => Answer): FastifyReply {
  const requestId = request.headers['paypal-request-id'];
  const key = typeof requestId === 'string' && requestId !== '' ? `${request.method} ${request.url.split('?')[0]} ${requestId}` : null;
  const earlier = key ? store.requestIds.get(key) : undefined;
  if (earlier) return reply.code(earlier.status).send(earlier.body);
  const answer = run();
  if (key) store.requestIds.set(key, answer);
  return reply.code(answer.status).send(answer.body);
}
