import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type CallDef, healthCalls, serviceCalls } from '../index';
import { answersJson, type CallExample, callExamples } from './index';

const services: Record<string, Record<string, CallDef>> = { ...serviceCalls, health: healthCalls };
const all = Object.entries(services).flatMap(([service, calls]) =>
  Object.entries(calls).map(([operationId, call]) => ({
    service,
    operationId,
    call,
    example: (callExamples as Record<string, Record<string, CallExample | undefined>>)[service]?.[operationId],
  })),
);

/** The issues of a failed parse, readable in a test failure. */
const problems = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('call examples', () => {
  it('exist for every call of every service', () => {
    expect(all.filter((c) => !c.example).map((c) => `${c.service}.${c.operationId}`)).toEqual([]);
  });

  it('name no call that does not exist', () => {
    for (const [service, examples] of Object.entries(callExamples)) {
      for (const operationId of Object.keys(examples)) expect(services[service]?.[operationId], `${service}.${operationId}`).toBeDefined();
    }
  });

  it('have an answer exactly when the call answers JSON', () => {
    for (const { service, operationId, call, example } of all) {
      if (!example) continue;
      expect(example.response !== undefined, `${service}.${operationId}`).toBe(answersJson(call));
    }
  });

  it('give each part the call declares, and no other', () => {
    for (const { service, operationId, call, example } of all) {
      if (!example) continue;
      const name = `${service}.${operationId}`;
      expect(example.params !== undefined, `${name} params`).toBe(call.params !== undefined);
      expect(example.body !== undefined, `${name} body`).toBe(call.body !== undefined);
      if (!call.query) expect(example.query, `${name} query`).toBeUndefined();
    }
  });

  it('pass the schemas of their call', () => {
    const failures = all.flatMap(({ service, operationId, call, example }) => {
      if (!example) return [];
      const parts: [string, z.ZodType | null | undefined, unknown][] = [
        ['params', call.params, example.params],
        ['query', call.query, example.query],
        ['body', call.body, example.body],
        ['response', call.response, example.response],
      ];
      return parts.flatMap(([part, schema, value]) =>
        schema && value !== undefined ? problems(schema, value).map((p) => `${service}.${operationId} ${part} ${p}`) : [],
      );
    });
    expect(failures).toEqual([]);
  });
});
