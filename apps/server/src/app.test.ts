import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '@ticket/contracts';
import { ADMIN_KEY, bearer, createTestApp, setFault, signIn, useSandbox } from './test/harness';
import { USERS } from './test/demo-world';

const sandbox = useSandbox();

describe('the app as a whole', () => {
  it('documents every route in OpenAPI, browsable at /api/docs', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite');
    try {
      const response = await ctx.built.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
      expect(response.statusCode).toBe(200);
      const doc = response.json();
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.paths['/api/authentication/user'].post.operationId).toBe('authenticate');
      expect(doc.paths['/api/server/servers/{serverId}/roles'].get.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'serverId', in: 'path' }), expect.objectContaining({ name: 'clearCache', in: 'query' })]),
      );
      const ui = await ctx.built.app.inject({ method: 'GET', url: '/api/docs/' });
      expect(ui.statusCode).toBe(200);
      expect(ui.body).toContain('swagger');
    } finally {
      await ctx.close();
    }
  });

  it('sends security headers and a request id, and allows only the dashboard origin', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite');
    try {
      const ok = await ctx.built.app.inject({ method: 'GET', url: '/api/server/health', headers: { origin: 'http://localhost:3000' } });
      expect(ok.headers['x-content-type-options']).toBe('nosniff');
      expect(ok.headers['content-security-policy']).toContain("default-src 'self'");
      expect(ok.headers['x-request-id']).toBeTruthy();
      expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      const foreign = await ctx.built.app.inject({ method: 'GET', url: '/api/server/health', headers: { origin: 'https://evil.example' } });
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await ctx.close();
    }
  });

  it('limits requests per address with 429 and Retry-After, however many made-up keys are sent', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite', { rateLimit: { max: 3, windowMs: 60_000, fanOut: 2, authFailures: 100 } });
    try {
      const hit = (headers: Record<string, string> = {}, url = '/api/server/testimonials') => ctx.built.app.inject({ method: 'GET', url, headers });
      for (let i = 0; i < 3; i++) expect((await hit({ authorization: `Bearer tds_made-up-${i}` })).statusCode).toBe(200);
      const limited = await hit({ authorization: 'Bearer tds_yet-another' });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json<ErrorBody>().code).toBe('rate_limited');
      // The path as routed counts, whatever its encoding.
      expect((await hit({}, '/%61pi/server/testimonials')).statusCode).toBe(429);
      // The limit is the API's: the dashboard's own files and health checks still answer.
      expect((await ctx.built.app.inject({ method: 'GET', url: '/config.json' })).statusCode).toBe(200);
      expect((await ctx.built.app.inject({ method: 'GET', url: '/api/server/health' })).statusCode).toBe(200);
    } finally {
      await ctx.close();
    }
  });

  it('gives each signed-in user their own allowance, even behind one address', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite', { rateLimit: { max: 2, windowMs: 60_000, fanOut: 100, authFailures: 100 } });
    try {
      const alice = (await signIn(ctx, USERS.alice)).token;
      const eli = (await signIn(ctx, USERS.eli)).token;
      const sessions = (token: string) => ctx.built.app.inject({ method: 'GET', url: '/api/authentication/user/sessions', headers: bearer(token) });
      expect((await sessions(alice)).statusCode).toBe(200);
      expect((await sessions(alice)).statusCode).toBe(200);
      expect((await sessions(alice)).statusCode).toBe(429);
      expect((await sessions(eli)).statusCode).toBe(200);
    } finally {
      await ctx.close();
    }
  });

  it('counts failed authentication: past the limit, keys from that address are not even tried', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite', { rateLimit: { max: 1000, windowMs: 60_000, fanOut: 100, authFailures: 3 } });
    try {
      const guess = (key: string) => ctx.built.app.inject({ method: 'GET', url: '/api/support/admin/subject-count/some-subject', headers: { authorization: `Admin ${key}` } });
      for (let i = 0; i < 3; i++) expect((await guess(`wrong-${i}`)).statusCode).toBe(401);
      // The right key, from an address that kept guessing, is refused too until the window ends.
      const blocked = await guess(ADMIN_KEY);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json<ErrorBody>().message).toMatch(/^Too many failed attempts to authenticate from this address/);
      // Keys sent in a body count the same.
      const identify = await ctx.built.app.inject({ method: 'POST', url: '/api/authentication/', payload: { accessKey: ADMIN_KEY, type: 'Admin' } });
      expect(identify.statusCode).toBe(429);
      // Another address is not held, and calls without a key still answer.
      const elsewhere = await ctx.built.app.inject({ method: 'GET', url: '/api/support/admin/subject-count/some-subject', headers: { authorization: `Admin ${ADMIN_KEY}` }, remoteAddress: '127.0.0.9' });
      expect(elsewhere.statusCode).toBe(200);
      expect((await ctx.built.app.inject({ method: 'GET', url: '/api/server/testimonials' })).statusCode).toBe(200);
    } finally {
      await ctx.close();
    }
  });

  it('gives calls that fan out to the platform a tighter limit of their own', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite', { rateLimit: { max: 1000, windowMs: 60_000, fanOut: 2, authFailures: 100 } });
    try {
      const detailed = () => ctx.built.app.inject({ method: 'GET', url: '/api/server/health/detailed' });
      expect((await detailed()).statusCode).toBe(200);
      expect((await detailed()).statusCode).toBe(200);
      expect((await detailed()).statusCode).toBe(429);
      const { token } = await signIn(ctx, USERS.alice);
      const bypass = () => ctx.built.app.inject({ method: 'POST', url: '/api/authentication/user/refresh/bypass', headers: bearer(token) });
      expect((await bypass()).statusCode).toBe(200);
      expect((await bypass()).statusCode).toBe(200);
      expect((await bypass()).statusCode).toBe(429);
      // Calls that cost the platform nothing keep the general allowance.
      expect((await ctx.built.app.inject({ method: 'POST', url: '/api/authentication/user/refresh', headers: bearer(token) })).statusCode).toBe(200);
    } finally {
      await ctx.close();
    }
  });

  it('says which dependency is down, never its error', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite');
    try {
      await setFault(sandbox, { status: 500, count: 5 });
      const health = (await ctx.built.app.inject({ method: 'GET', url: '/api/server/health/detailed' })).json();
      expect(health.status).toBe('degraded');
      expect(health.platform).toEqual({ status: 'down', latencyMs: null, message: 'The chat platform is unreachable' });
      expect(health.database.status).toBe('ok');
    } finally {
      await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
      await ctx.close();
    }
  });

  it('refuses a body over the size limit with 413', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite', { bodyLimitBytes: 1024 });
    try {
      const response = await ctx.built.app.inject({
        method: 'POST',
        url: '/api/authentication/user',
        payload: { code: 'x'.repeat(4000), redirectUri: 'http://localhost:3000/callback' },
      });
      expect(response.statusCode).toBe(413);
      expect(response.json<ErrorBody>().code).toBe('body_too_large');
    } finally {
      await ctx.close();
    }
  });

  it('mounts only the services named in SERVICES', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite', { services: ['support', 'files'] });
    try {
      expect((await ctx.built.app.inject({ method: 'GET', url: '/api/support/health' })).statusCode).toBe(200);
      expect((await ctx.built.app.inject({ method: 'GET', url: '/api/files/health' })).statusCode).toBe(200);
      const missing = await ctx.built.app.inject({ method: 'GET', url: '/api/authentication/health' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json<ErrorBody>().message).toBe('No route for GET /api/authentication/health');
    } finally {
      await ctx.close();
    }
  });

  it('hands the web client its runtime configuration', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite');
    try {
      const config = (await ctx.built.app.inject({ method: 'GET', url: '/config.json' })).json();
      expect(config.services).toMatchObject({ authentication: '/api/authentication', localization: '/api/localization' });
      expect(Object.keys(config.services)).toHaveLength(8);
    } finally {
      await ctx.close();
    }
  });
});

describe('every declared call', () => {
  it('refuses a caller without a token with 401, except the open calls', async () => {
    const { authCalls, serverDataCalls } = await import('@ticket/contracts');
    const open = new Set(['getLoginConfig', 'authenticate', 'isAuthenticated', 'getTestimonials']);
    const ctx = await createTestApp(sandbox, 'sqlite');
    try {
      const calls = [
        ...Object.entries(authCalls).map(([name, call]) => ['authentication', name, call] as const),
        ...Object.entries(serverDataCalls).map(([name, call]) => ['server', name, call] as const),
      ];
      for (const [base, name, call] of calls) {
        if (open.has(name)) continue;
        const url = `/api/${base}${call.path.replace(':serverId', '1300000000000000001').replace(':id', '1200000000000000001')}`;
        const response = await ctx.built.app.inject({ method: call.method, url: `${url}?serverId=1300000000000000001`, payload: 'body' in call ? {} : undefined });
        // Authentication comes before validation: even an empty body answers 401.
        expect(response.statusCode, name).toBe(401);
      }
    } finally {
      await ctx.close();
    }
  });
});
