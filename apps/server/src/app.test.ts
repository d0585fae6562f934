import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@ticket/contracts';
import { createTestApp, startTestSandbox, type Sandbox } from './test/harness';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

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

  it('limits requests per token and per address with 429 and Retry-After', async () => {
    const ctx = await createTestApp(sandbox, 'sqlite', { rateLimit: { max: 3, windowMs: 60_000 } });
    try {
      const hit = (headers: Record<string, string> = {}) => ctx.built.app.inject({ method: 'GET', url: '/api/server/testimonials', headers });
      for (let i = 0; i < 3; i++) expect((await hit()).statusCode).toBe(200);
      const limited = await hit();
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json<ErrorBody>().code).toBe('rate_limited');
      // Another token has its own allowance.
      expect((await hit({ authorization: 'Bearer tds_someone-else' })).statusCode).toBe(200);
      // The limit is the API's: the dashboard's own files and health checks still answer.
      expect((await ctx.built.app.inject({ method: 'GET', url: '/config.json' })).statusCode).toBe(200);
      expect((await ctx.built.app.inject({ method: 'GET', url: '/api/server/health' })).statusCode).toBe(200);
    } finally {
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
