import type { FastifyInstance } from 'fastify';
import { BadRequestError } from './errors';

/**
 * Keeps each JSON body exactly as received (`request.rawBody`) in this plugin scope, for routes
 * that check a signature over it (platform interactions, payment webhooks), while parsing it with
 * Fastify's own parser and its protection against prototype poisoning.
 */
export function keepRawJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const raw = body as string;
    request.rawBody = raw;
    if (raw === '') return done(null, undefined);
    // A byte-order mark is no part of the JSON (the signature still covers the body as received).
    const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    parseJson(request, text, (error, value) => (error ? done(new BadRequestError(error.message), undefined) : done(null, value)));
  });
}
