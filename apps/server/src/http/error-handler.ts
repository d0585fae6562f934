import type { ErrorBody } from '@ticket/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { STATUS_CODES } from 'node:http';
import { extname } from 'node:path';
import { AppError } from './errors';

type Issue = { field: string; message: string };

function body(statusCode: number, code: string, message: string, extra: Partial<ErrorBody> = {}): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code, message, ...extra };
}

/** One place that maps every failure to an HTTP answer; a 5xx never leaks its internal message. */
export function registerErrorHandler(app: FastifyInstance, options: { spaFallback?: boolean } = {}): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'body';
      const issues: Issue[] = error.validation.map((v) => {
        const segments = v.instancePath.split('/').filter(Boolean);
        const field = [where, ...segments].join('.');
        return { field, message: v.message ?? 'is invalid' };
      });
      const first = issues[0] ?? { field: where, message: 'is invalid' };
      return reply
        .status(400)
        .send(body(400, 'validation_failed', `${first.field}: ${first.message}`, { field: first.field, issues }));
    }
    if (error instanceof AppError) {
      if (error.extra.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.extra.retryAfterSeconds));
      const extra = error.extra.field ? { field: error.extra.field } : {};
      if (error.statusCode >= 500) request.log.warn({ err: error }, error.message);
      return reply.status(error.statusCode).send(body(error.statusCode, error.code, error.message, extra));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its contract');
      return reply.status(500).send(body(500, 'internal_error', 'An unexpected error occurred'));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send(body(429, 'rate_limited', 'Too many requests'));
    }
    if (status >= 400 && status < 500) {
      const code = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'body_too_large' : 'bad_request';
      return reply.status(status).send(body(status, code, error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body(500, 'internal_error', 'An unexpected error occurred'));
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    // Client-side routes of the dashboard: any GET outside the API that is not a file gets the SPA.
    if (options.spaFallback && request.method === 'GET' && !url.startsWith('/api/') && !extname(url)) {
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(body(404, 'not_found', `No route for ${request.method} ${url}`));
  });
}
