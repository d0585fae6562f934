import { type CallDef, exampleForOperation, healthCalls, serviceCalls } from '@ticket/contracts';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { responseSerializer } from './response-serializer';

const calls = Object.values({ ...serviceCalls, health: healthCalls }).flatMap((c) => Object.entries(c as Record<string, CallDef>));
const answered = calls.flatMap(([operationId, call]) => {
  const example = exampleForOperation(operationId)?.response;
  return call.response && example !== undefined ? [{ operationId, schema: call.response, example }] : [];
});

const writer = (checked: boolean, schema: z.ZodType) => responseSerializer(checked)({ schema, method: 'GET', url: '/', httpStatus: '200' });

/** Adds a field no contract has to every object of a value. */
function withExtra(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withExtra);
  if (value && typeof value === 'object') return { ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withExtra(v)])), internalSecret: 'not for callers' };
  return value;
}

describe('answers written without checking', () => {
  it('has a worked example to compare for most calls', () => {
    expect(answered.length).toBeGreaterThan(100);
  });

  it.each(answered)('$operationId: the same answer as the checked writer', ({ schema, example }) => {
    const checked = JSON.parse(writer(true, schema)(example));
    expect(JSON.parse(writer(false, schema)(example))).toEqual(checked);
  });

  it.each(answered)('$operationId: leaves out what the contract does not name, as the checked writer does', ({ schema, example }) => {
    // Every object carries a field of its own besides; a map (such as translations) keeps it, as zod keeps it.
    const extra = withExtra(example);
    expect(JSON.parse(writer(false, schema)(extra))).toEqual(JSON.parse(writer(true, schema)(extra)));
  });

  it('writes no field a service left on an object beyond the contract', () => {
    const leaked = answered.filter(({ schema, example }) => writer(false, schema)(withExtra(example)).includes('internalSecret'));
    // Only answers that are maps by contract (translations) or that pass through what the platform sent keep it.
    expect(leaked.map((a) => a.operationId).sort()).toEqual(['getTranslationFile', 'handleGatewayInteraction', 'handleInteraction', 'uploadLegacyTranslationFile', 'uploadTranslationFile']);
  });
});
