import type { CallBody, CallDef, CallParams, CallQuery, CallResponse, ServerRole } from '@ticket/contracts';
import { ErrorBody } from '@ticket/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError, ForbiddenError, UnauthorizedError } from './errors';
import type { ResponseCache } from './response-cache';

/** Who is calling, once their Authorization header has been checked. */
export type Caller =
  | { kind: 'user'; userId: string; sessionId: string }
  | { kind: 'apiKey'; serverId: string; keyPrefix: string }
  | { kind: 'admin' };

/**
 * Who may call a route, declared once per route and checked before the handler runs:
 * - open: anyone;
 * - signedIn: a dashboard user (session token);
 * - any: any valid identity (user, API key, operator);
 * - staff / admin: a user with that role on the route's `:serverId` (or the query's serverId),
 *   the server's own API key when `apiKey` is set, or an operator;
 * - operator: platform operators only (the bot worker).
 */
export type Access =
  | 'open'
  | 'signedIn'
  | 'any'
  | 'operator'
  | { server: 'staff' | 'admin'; apiKey?: boolean; from?: 'params' | 'query' | 'body' };

export interface AuthResolver {
  /** The caller behind an access key, or null when it is not valid. */
  resolve(accessKey: string, request: FastifyRequest): Promise<Caller | null>;
  /** The user's role on a server the dashboard knows, or null when they are not in it. */
  roleOn(userId: string, serverId: string): Promise<ServerRole | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    /** The body exactly as received, where a route needs it (signature checks). */
    rawBody?: string;
  }
}

export const ROLE_RANK: Record<ServerRole, number> = { Member: 0, Staff: 1, Admin: 2, Owner: 3 };
const NEEDED: Record<'staff' | 'admin', number> = { staff: ROLE_RANK.Staff, admin: ROLE_RANK.Admin };

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^(?:Bearer|ApiKey|Admin)\s+(\S+)$/i.exec(header.trim());
  return match ? match[1]! : null;
}

/** Runs before validation, so a caller without a valid key learns nothing about the request's shape. */
async function authenticate(access: Access, request: FastifyRequest, resolver: AuthResolver): Promise<void> {
  request.caller = null;
  if (access === 'open') return;
  const token = bearerToken(request);
  const caller = token ? await resolver.resolve(token, request) : null;
  if (!caller) throw new UnauthorizedError();
  request.caller = caller;
}

/** Half of a surrogate pair alone (JSON can carry one as `\udfff`; UTF-8 cannot). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A NUL character or a lone surrogate. */
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** The first string of the input (or key of an object in it) that holds an unstorable character, as `body.a.0.b`. */
function unstorableField(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return unstorable(value) ? path : null;
  if (typeof value !== 'object' || value === null || depth > 64) return null;
  for (const [key, item] of Object.entries(value)) {
    if (unstorable(key)) return path;
    const found = unstorableField(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Runs after validation, on the inputs the route declares (unknown fields are gone): no text of
 * the product may hold a NUL character or an unpaired surrogate (PostgreSQL stores neither, in
 * text or JSON, and no name, message or id needs one), so they are refused here, on both engines
 * alike, before the access check as other invalid input is.
 */
async function refuseUnstorableText(call: CallDef, request: FastifyRequest): Promise<void> {
  const inputs = [
    ['params', call.params ? request.params : undefined],
    ['querystring', call.query ? request.query : undefined],
    ['body', call.body ? request.body : undefined],
  ] as const;
  for (const [where, value] of inputs) {
    const field = unstorableField(value, where);
    if (field) throw new AppError(400, 'validation_failed', `${field}: must not contain NUL characters or unpaired surrogates`, { field });
  }
}

/** Runs after validation: checks the role the route asks for on the (now valid) server id. */
async function authorize(access: Access, request: FastifyRequest, resolver: AuthResolver): Promise<void> {
  const caller = request.caller;
  if (access === 'open' || access === 'any' || !caller) return;
  if (access === 'operator') {
    if (caller.kind !== 'admin') throw new ForbiddenError('Only platform operators may call this');
    return;
  }
  if (access === 'signedIn') {
    if (caller.kind !== 'user') throw new ForbiddenError('Only signed-in dashboard users may call this');
    return;
  }
  const source = (request[access.from ?? 'params'] ?? {}) as Record<string, unknown>;
  const serverId = source.serverId;
  if (typeof serverId !== 'string') throw new ForbiddenError('No server given');
  await assertServerAccess(caller, serverId, access.server, access.apiKey ?? false, resolver);
}

/** Throws unless the caller may act on the server at that level. */
export async function assertServerAccess(
  caller: Caller | null,
  serverId: string,
  level: 'staff' | 'admin',
  apiKeyAllowed: boolean,
  resolver: AuthResolver,
): Promise<void> {
  if (!caller) throw new UnauthorizedError();
  if (caller.kind === 'admin') return;
  if (caller.kind === 'apiKey') {
    if (apiKeyAllowed && caller.serverId === serverId) return;
    throw new ForbiddenError('This API key does not give access to this server');
  }
  const role = await resolver.roleOn(caller.userId, serverId);
  if (role === null || ROLE_RANK[role] < NEEDED[level]) {
    throw new ForbiddenError('You do not have the required permissions to access this page');
  }
}

type Input<C extends CallDef> = {
  params: CallParams<C> extends undefined ? Record<string, never> : z.output<NonNullable<C['params']>>;
  query: CallQuery<C> extends undefined ? Record<string, never> : z.output<NonNullable<C['query']>>;
  body: CallBody<C> extends undefined ? undefined : z.output<NonNullable<C['body']>>;
};

export type Handler<C extends CallDef> = (
  input: Input<C>,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<CallResponse<C> | z.input<NonNullable<C['response']>>> | CallResponse<C>;

const errorResponses = Object.fromEntries([400, 401, 403, 404, 409, 429, 502].map((s) => [s, ErrorBody]));

/**
 * Declares the route of one contract call: the path, the validation of params/query/body, the
 * documented answers, and who may call it. Handlers receive validated input only.
 */
export interface RouteHooks<C extends CallDef = CallDef> {
  /** Runs after authentication and before validation, e.g. to check a request signature. */
  preValidation?: (request: FastifyRequest) => Promise<void>;
  /**
   * Serves the answer from this cache while the data it came from is unchanged: `version` tells
   * the data's current version. Only for answers that depend on the request alone, not on who
   * asks (access is checked before the cache is read).
   */
  cached?: { cache: ResponseCache; version: (input: Input<C>) => Promise<string> };
  /**
   * This route's own rate limit instead of the API's (@fastify/rate-limit's route options): a
   * tighter one for calls that cost platform requests, or one keyed on what the request proves.
   */
  rateLimit?: { max: number; hook?: 'preHandler'; keyGenerator?: (request: FastifyRequest) => string };
}

/**
 * A cached route's answer carries its entity tag, and the browser asks again each time (a ticket
 * polled every few seconds) with the tag of what it holds: unchanged, it gets 304 and no body.
 */
function answerHeaders(reply: FastifyReply, etag: string): void {
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
}

/** What a request on a cached route looks up, and stores once its answer is serialized. */
const cacheEntries = new WeakMap<FastifyRequest, { key: string; version: string }>();

export function route<C extends CallDef>(
  app: FastifyInstance,
  tag: string,
  name: string,
  call: C,
  access: Access,
  handler: Handler<C>,
  resolver: AuthResolver,
  hooks: RouteHooks<C> = {},
): void {
  const status = call.status ?? (call.response === null ? 204 : 200);
  const { cached } = hooks;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    schema: {
      operationId: name,
      summary: call.summary,
      tags: [tag],
      ...(access === 'open' ? {} : { security: [{ bearer: [] }] }),
      ...(call.params ? { params: call.params } : {}),
      ...(call.query ? { querystring: call.query } : {}),
      ...(call.body ? { body: call.body } : {}),
      response: { ...(call.response ? { [status]: call.response } : {}), ...errorResponses },
    },
    ...(hooks.rateLimit ? { config: { rateLimit: hooks.rateLimit } } : {}),
    onRequest: async (request) => authenticate(access, request, resolver),
    ...(hooks.preValidation ? { preValidation: hooks.preValidation } : {}),
    preHandler: async (request) => {
      await refuseUnstorableText(call, request);
      await authorize(access, request, resolver);
    },
    ...(cached
      ? {
          onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
            const entry = cacheEntries.get(request);
            if (entry && reply.statusCode === status && typeof payload === 'string') {
              const { etag } = cached.cache.set(entry.key, entry.version, payload);
              answerHeaders(reply, etag);
              // The tag names the content, not the process: the browser may hold this answer from
              // another process behind the same load balancer, or from before this one's copy expired.
              if (request.headers['if-none-match'] === etag) {
                reply.status(304);
                return null;
              }
            }
            return payload;
          },
        }
      : {}),
    handler: async (request, reply) => {
      const input = { params: request.params ?? {}, query: request.query ?? {}, body: request.body } as Input<C>;
      if (cached) {
        const key = `${request.method} ${request.url} ${request.body === undefined ? '' : JSON.stringify(request.body)}`;
        const version = await cached.version(input);
        const answer = cached.cache.get(key, version);
        if (answer) {
          answerHeaders(reply, answer.etag);
          // A browser that holds this very answer (it sends its tag) is told so, without the body.
          if (request.headers['if-none-match'] === answer.etag) return reply.status(304).send();
          // A string with a JSON content type is sent as it is, without serializing it again.
          return reply.status(status).type('application/json; charset=utf-8').send(answer.body);
        }
        cacheEntries.set(request, { key, version });
      }
      const result = await handler(input, request, reply);
      // A handler that answered itself (a 304 to a conditional request) has nothing more to send.
      if (reply.sent) return reply;
      if (call.response === null) return reply.status(204).send();
      return reply.status(status).send(result);
    },
  });
}

/** Binds `route` to one service's call record, so a routes file reads as a list of calls and who may make them. */
export function routesFor<R extends Record<string, CallDef>>(app: FastifyInstance, tag: string, calls: R, resolver: AuthResolver) {
  return <K extends keyof R & string>(name: K, access: Access, handler: Handler<R[K]>, hooks?: RouteHooks<R[K]>) =>
    route(app, tag, name, calls[name], access, handler, resolver, hooks);
}
