import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CallDef, healthCalls, serviceCalls } from './index';

const all: [service: string, operationId: string, call: CallDef][] = Object.entries({
  ...serviceCalls,
  health: healthCalls,
}).flatMap(([service, calls]) =>
  Object.entries(calls as Record<string, CallDef>).map(([op, c]) => [service, op, c] as [string, string, CallDef]),
);

describe('call records', () => {
  it('give every call a camelCase, verb-first operationId unique across services', () => {
    const ids = all.map(([, op]) => op);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids)
      expect(id).toMatch(
        /^(get|create|update|delete|search|resend|add|remove|handle|upload|clone|change|cancel|transfer|complete|revoke|start|authenticate|logout|refresh|is)[A-Z]?[A-Za-z]*$/,
      );
  });

  it('declare exactly the path parameters their path names', () => {
    for (const [service, op, call] of all) {
      const inPath = [...call.path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
      const declared = call.params ? Object.keys(call.params.shape).sort() : [];
      expect({ service, op, params: declared }).toEqual({ service, op, params: inPath });
    }
  });

  it('use Fastify-style paths without a trailing slash and no duplicate method + path per service', () => {
    for (const [service, calls] of Object.entries(serviceCalls)) {
      const routes = Object.values(calls as Record<string, CallDef>).map((c) => `${c.method} ${c.path}`);
      expect(new Set(routes).size, service).toBe(routes.length);
    }
    for (const [, op, call] of all) {
      expect(call.path, op).toMatch(/^\/([\w@.-]+|:\w+)?(\/([\w@.-]+|:\w+))*$/);
      expect(call.path === '/' || !call.path.endsWith('/'), op).toBe(true);
    }
  });

  it('pair 204 with an empty response, and answer creations with 201', () => {
    for (const [, op, call] of all) {
      expect(call.response === null, op).toBe(call.status === 204);
      if (/^create/.test(op) && call.method !== 'GET') expect(call.status, op).toBe(201);
    }
  });

  it('have schemas the OpenAPI generator can convert', () => {
    for (const [, op, call] of all) {
      for (const schema of [call.params, call.query, call.body]) {
        if (schema) expect(() => z.toJSONSchema(schema, { io: 'input' }), op).not.toThrow();
      }
      if (call.response) expect(() => z.toJSONSchema(call.response as z.ZodType, { io: 'output' }), op).not.toThrow();
    }
  });

  it('mark the upload as multipart and the download as binary', () => {
    expect(serviceCalls.files.uploadFile.multipart).toBe(true);
    expect(serviceCalls.files.getFile.binary).toBe(true);
  });
});
