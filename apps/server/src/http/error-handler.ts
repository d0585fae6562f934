import type { ErrorBody } from '@ticket/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { STATUS_CODES } from 'node:http';
import { extname } from 'node:path';
import { AppError } from './errors';

type Issue = { field: string; message: string };

function body(statusCode: number, code: string, message: string, extra: Partial<ErrorBody> = {}): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code, message, ...extra };
}

/** Our stable code for a 4xx that Fastify or a plugin raised (their own codes, FST_…, are internal). */
const CLIENT_ERROR_CODES: Record<number, string> = { 400: 'bad_request', 413: 'body_too_large', 414: 'uri_too_long', 415: 'unsupported_media_type' };
const clientErrorCode = (status: number) =>
  CLIENT_ERROR_CODES[status] ?? (STATUS_CODES[status] ?? 'bad request').toLowerCase().replace(/[^a-z0-9]+/g, '_');

/**
 * Failures Fastify answers before any route or hook runs (a URL that is no valid escape, a path
 * parameter over the router's length limit), in the documented body rather than Fastify's own:
 * pass it as the `frameworkErrors` option of the Fastify instance. The URL is not echoed back.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path parameter of the URL is too long'
      : error.code === 'FST_ERR_BAD_URL'
        ? 'The URL is not valid: it has a malformed escape sequence'
        : (STATUS_CODES[status] ?? 'Bad Request');
  void reply.status(status).send(body(status, clientErrorCode(status), message));
}

function unsupportedMediaType(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0]!.trim().slice(0, 100);
  if (!type) return 'The body has no content type; JSON bodies are sent as application/json';
  return `The content type ${JSON.stringify(type)} is not accepted here; JSON bodies are sent as application/json`;
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
      const extra = { ...(error.extra.field ? { field: error.extra.field } : {}), ...(error.extra.issues ? { issues: error.extra.issues } : {}) };
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
      // Fastify's and its plugins' own 4xx (malformed JSON, a content type no parser takes, a body
      // over the limit…) in the documented body, with our code for the status.
      const message = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? unsupportedMediaType(request.headers['content-type']) : error.message;
      return reply.status(status).send(body(status, clientErrorCode(status), message));
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
