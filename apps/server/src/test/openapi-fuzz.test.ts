/**
 * Fuzzes every operation of the OpenAPI document the app serves with bad input (see
 * openapi-fuzz.ts for what is generated): a request that breaks the schema is refused with 4xx,
 * a hostile but valid one may succeed, nothing answers 5xx, every error has the documented body,
 * and the app still answers a valid call after each operation's batch.
 *
 * FUZZ_SEED (default 20240601) and FUZZ_RUNS (default 50 per operation and engine;
 * FUZZ_RUNS_POSTGRES overrides it for PostgreSQL) replay or widen a run. A failure names the
 * operation, the engine, the seed, and the request as fast-check shrank it (with the answer).
 * FUZZ_STATS=<file> writes one line per request sent (operation, expectation, status, what was
 * wrong with it, start of the answer), to see what the generators reach.
 */
import { ErrorBody, type Subject, type Ticket, type TicketMessage } from '@ticket/contracts';
import fc from 'fast-check';
import Fastify from 'fastify';
import { STATUS_CODES } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../db/database';
import { answerFrameworkError } from '../http/error-handler';
import { ADMIN_KEY, bearer, createTestApp, engines, signIn, startTestSandbox, testConfig, type TestContext } from './harness';
import { GUILDS, USERS } from './demo-world';
import { dottedPaths, operationsOf, requestArbitrary, type Credential, type FuzzRequest, type Hints, type Operation } from './openapi-fuzz';

const SEED = Number(process.env.FUZZ_SEED ?? 20240601);
const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
/** PostgreSQL costs about what SQLite does here (most requests end at validation): the same runs unless told. */
const RUNS_BY_ENGINE: Record<Engine, number> = { sqlite: RUNS, postgres: Number(process.env.FUZZ_RUNS_POSTGRES ?? RUNS) };
const BODY_LIMIT = 1024 * 1024;

/**
 * Known failures in code being changed elsewhere: the answer described is tolerated (and counted)
 * for that operation only; everything else about its requests is still checked. Remove an entry
 * once its cause is fixed.
 */
interface Known {
  /** `METHOD /path` as in the document, or `*` for every operation. */
  op: string;
  reason: string;
  matches(request: FuzzRequest, response: { statusCode: number; body: string }): boolean;
}
const KNOWN: Known[] = [];

/** Records of Pixel Forge made before fuzzing, so that ids in valid positions often name something. */
interface World {
  subjectId: string;
  ticketId: string;
  messageId: string;
}

/**
 * Valid values where the request keeps them: platform ids of Pixel Forge and its members, and for
 * product ids the seeded records half the time (not for DELETE, which would remove them for the
 * operations after it), else an id that names nothing.
 */
function hintsFor(op: Operation, world: World): Hints {
  const seeded: Record<string, string> = { subjectId: world.subjectId, ticketId: world.ticketId, messageId: world.messageId };
  const random = fc.stringMatching(/^[a-z0-9]{8,16}$/);
  return {
    dottedPaths: DOTTED_PATHS,
    snowflake: (name) =>
      /server|guild/i.test(name)
        ? fc.constant(GUILDS.pixelForge)
        : /user|author|assignee|closed|reactor|owner|member|^id$/i.test(name)
          ? fc.constantFrom(USERS.alice, USERS.dana, USERS.eli)
          : fc.stringMatching(/^[1-9]\d{17,18}$/),
    opaqueId: (name) => {
      const id = Object.entries(seeded).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
      return id && op.method !== 'DELETE' ? fc.oneof(fc.constant(id), random) : random;
    },
  };
}

/** Operations that end the caller's own session get a session of their own. */
const ENDS_SESSION = new Set(['DELETE /api/authentication/user']);

// The document is read before the tests are declared, so that each operation is a test of its own.
const sandbox = await startTestSandbox();
const doc = await (async () => {
  const ctx = await createTestApp(sandbox, 'sqlite');
  try {
    const response = await ctx.built.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(response.statusCode).toBe(200);
    return response.json();
  } finally {
    await ctx.close();
  }
})();
const operations: Operation[] = operationsOf(doc);
const DOTTED_PATHS = dottedPaths(doc);

const STATS: string[] = [];
afterAll(async () => {
  if (process.env.FUZZ_STATS) (await import('node:fs')).writeFileSync(process.env.FUZZ_STATS, STATS.join('\n'));
  await sandbox.close();
});

describe.each(engines)('OpenAPI fuzzing on %s', (engine) => {
  const runs = RUNS_BY_ENGINE[engine];
  let ctx: TestContext;
  let userToken: string;
  let disposableToken: string;
  let world: World;

  beforeAll(async () => {
    // Limits out of reach: the fuzzer measures validation, not the rate limiter.
    const limits = testConfig(sandbox).rateLimit;
    const rateLimit = Object.fromEntries(Object.entries(limits).map(([name, value]) => [name, name === 'windowMs' ? value : 1_000_000])) as typeof limits;
    ctx = await createTestApp(sandbox, engine, { rateLimit, bodyLimitBytes: BODY_LIMIT });
    userToken = (await signIn(ctx, USERS.alice)).token;
    disposableToken = (await signIn(ctx, USERS.eli)).token;
    const post = async <T>(url: string, payload: object): Promise<T> => {
      const response = await ctx.built.app.inject({ method: 'POST', url, headers: { authorization: `Admin ${ADMIN_KEY}` }, payload });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<T>();
    };
    const base = `/api/support/servers/${GUILDS.pixelForge}`;
    const subject = await post<Subject>(`/api/settings/servers/${GUILDS.pixelForge}/subjects`, { name: 'Fuzzing' });
    const ticket = await post<Ticket>(`${base}/tickets`, { ticketName: 'fuzz-1', subjectId: subject.subjectId, authorId: USERS.eli });
    const message = await post<TicketMessage>(`${base}/tickets/${ticket.ticketId}/messages`, { message: { content: 'Hello' }, messageType: 'User', authorId: USERS.eli });
    world = { subjectId: subject.subjectId, ticketId: ticket.ticketId, messageId: message.messageId };
  });
  const toleratedByEngine = new Map<Known, number>();
  afterAll(async () => {
    for (const [known, count] of toleratedByEngine) console.warn(`KNOWN ${known.op} on ${engine}: ${count} answers tolerated (${known.reason})`);
    await ctx?.close();
  });

  function authorization(op: Operation, credential: Credential): Record<string, string> {
    if (credential === 'none') return {};
    if (credential === 'operator') return { authorization: `Admin ${ADMIN_KEY}` };
    return bearer(ENDS_SESSION.has(op.id) ? disposableToken : userToken);
  }

  async function send(op: Operation, request: FuzzRequest, tolerated: Map<Known, number>): Promise<void> {
    const response = await ctx.built.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: { ...request.headers, ...authorization(op, request.credential) },
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    });
    if (process.env.FUZZ_STATS) STATS.push(`${op.id}\t${request.expect}\t${response.statusCode}\t${request.what.slice(0, 80)}\t${response.body.slice(0, 160)}`);
    const answer = `answered ${response.statusCode} ${response.headers['content-type'] ?? ''}: ${response.body.slice(0, 500)}`;
    const known = KNOWN.find((k) => (k.op === '*' || k.op === op.id) && k.matches(request, response));
    if (known) {
      tolerated.set(known, (tolerated.get(known) ?? 0) + 1);
      return;
    }
    if (response.statusCode >= 500) throw new Error(`5xx: ${answer}`);
    if (response.statusCode === 429) {
      // Our own limits are out of reach here, so a 429 is the chat platform's (its global 50 requests
      // a second, which a burst of valid calls passes): fine for a valid request, with its Retry-After.
      // A request that breaks the schema must be refused before any platform call.
      if (request.expect === 'reject') throw new Error(`rate limited before validation: ${answer}`);
      if (!response.headers['retry-after']) throw new Error(`429 without Retry-After: ${answer}`);
    }
    if (request.expect === 'reject' && response.statusCode < 400) throw new Error(`invalid input accepted: ${answer}`);
    if (response.statusCode >= 400) {
      if (!String(response.headers['content-type'] ?? '').startsWith('application/json')) throw new Error(`error without a JSON body: ${answer}`);
      let parsed: unknown;
      try {
        parsed = response.json();
      } catch {
        throw new Error(`error body is not JSON: ${answer}`);
      }
      const body = ErrorBody.safeParse(parsed);
      if (!body.success) throw new Error(`error body is not the documented ErrorBody (${body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}): ${answer}`);
      if (body.data.statusCode !== response.statusCode) throw new Error(`error body says ${body.data.statusCode}: ${answer}`);
      // `error` is the status's reason phrase and `code` one of our stable snake_case codes (not a framework's internal one).
      if (body.data.error !== STATUS_CODES[response.statusCode]) throw new Error(`error is not the reason phrase of ${response.statusCode}: ${answer}`);
      if (!/^[a-z][a-z0-9_]*$/.test(body.data.code)) throw new Error(`code is not a stable snake_case code: ${answer}`);
    }
  }

  for (const op of operations) {
    it(`${op.id} (${op.operationId})`, { timeout: 120_000 }, async () => {
      const credentials: Credential[] = op.secured ? ['operator', 'user'] : ['none', 'none', 'operator'];
      const arbitrary = requestArbitrary(op, { hints: hintsFor(op, world), credentials, operations, bodyLimit: BODY_LIMIT });
      const tolerated = new Map<Known, number>();
      const counts = { reject: 0, survive: 0 };
      try {
        await fc.assert(
          fc.asyncProperty(arbitrary, async (request) => {
            counts[request.expect] += 1;
            await send(op, request, tolerated);
          }),
          { seed: SEED, numRuns: runs },
        );
      } catch (error) {
        throw new Error(`${op.id} (${op.operationId}) on ${engine}, FUZZ_SEED=${SEED} FUZZ_RUNS=${runs}:\n${(error as Error).message}`, { cause: error });
      }
      for (const [known, count] of tolerated) toleratedByEngine.set(known, (toleratedByEngine.get(known) ?? 0) + count);

      // The app is still up and serves a valid call; no request polluted a prototype.
      const health = await ctx.built.app.inject({ method: 'GET', url: '/api/server/health' });
      expect(health.statusCode).toBe(200);
      const subjects = await ctx.built.app.inject({
        method: 'GET',
        url: `/api/settings/servers/${GUILDS.pixelForge}/subjects`,
        headers: { authorization: `Admin ${ADMIN_KEY}` },
      });
      expect(subjects.statusCode, subjects.body).toBe(200);
      expect(Array.isArray(subjects.json())).toBe(true);
      const sessions = await ctx.built.app.inject({ method: 'GET', url: '/api/authentication/user/sessions', headers: bearer(userToken) });
      expect(sessions.statusCode, sessions.body).toBe(200);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // Most requests of an operation with input to get wrong break its schema (about four in five).
      if (counts.reject > 0 && runs >= 30) expect(counts.reject).toBeGreaterThan(counts.survive);
    });
  }

  // What the fuzzer found, kept as plain cases.
  it('refuses text PostgreSQL cannot store (NUL, an unpaired surrogate) with 400 naming the field, and stores nothing', async () => {
    const admin = { authorization: `Admin ${ADMIN_KEY}` };
    const base = `/api/support/servers/${GUILDS.pixelForge}`;
    const audit = await ctx.built.app.inject({ method: 'GET', url: `/api/settings/servers/${GUILDS.pixelForge}/audit-log?subjectId=%00`, headers: admin });
    expect(audit.statusCode, audit.body).toBe(400);
    expect(audit.json()).toMatchObject({ code: 'validation_failed', field: 'querystring.subjectId' });
    const ticket = await ctx.built.app.inject({
      method: 'POST',
      url: `${base}/tickets`,
      headers: admin,
      payload: { ticketName: 'fuzz-2', subjectId: world.subjectId, authorId: USERS.eli, templateAnswers: [{ questionId: 'q\udfff', question: 'Why?', answer: '' }] },
    });
    expect(ticket.statusCode, ticket.body).toBe(400);
    expect(ticket.json()).toMatchObject({ code: 'validation_failed', field: 'body.templateAnswers.0.questionId' });
    const message = await ctx.built.app.inject({
      method: 'POST',
      url: `${base}/tickets/${world.ticketId}/messages`,
      headers: admin,
      payload: { message: { content: 'a\u0000b' }, messageType: 'User', authorId: USERS.eli },
    });
    expect(message.statusCode, message.body).toBe(400);
    expect(message.json()).toMatchObject({ code: 'validation_failed', field: 'body.message.content' });
    const tickets = await ctx.built.app.inject({ method: 'GET', url: `${base}/tickets`, headers: admin });
    expect(tickets.json<{ elements: { name: string }[] }>().elements.map((t) => t.name)).not.toContain('fuzz-2');
  });

  it('answers a body of a content type no parser takes with 415 in the documented body', async () => {
    const response = await ctx.built.app.inject({
      method: 'POST',
      url: `/api/settings/servers/${GUILDS.pixelForge}/subjects`,
      headers: { authorization: `Admin ${ADMIN_KEY}`, 'content-type': 'application/xml' },
      payload: '<name>Billing</name>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      statusCode: 415,
      error: 'Unsupported Media Type',
      code: 'unsupported_media_type',
      message: 'The content type "application/xml" is not accepted here; JSON bodies are sent as application/json',
    });
  });
});

describe('answerFrameworkError', () => {
  it('answers a malformed escape and an overlong path parameter in the documented body, without echoing the URL', async () => {
    const app = Fastify({ frameworkErrors: answerFrameworkError });
    app.get('/items/:id', async () => ({}));
    try {
      const bad = await app.inject({ method: 'GET', url: '/items/%ZZ' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ statusCode: 400, error: 'Bad Request', code: 'bad_request', message: 'The URL is not valid: it has a malformed escape sequence' });
      const long = await app.inject({ method: 'GET', url: `/items/${'x'.repeat(200)}` });
      expect(long.statusCode).toBe(414);
      expect(long.json()).toEqual({ statusCode: 414, error: 'URI Too Long', code: 'uri_too_long', message: 'A path parameter of the URL is too long' });
    } finally {
      await app.close();
    }
  });
});
