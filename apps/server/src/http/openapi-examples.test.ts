import { type CallDef, healthCalls, serviceCalls } from '@ticket/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, useSandbox } from '../test/harness';

const sandbox = useSandbox();

interface ObjectSchema {
  required?: string[];
  properties?: Record<string, { default?: unknown; items?: ObjectSchema }>;
}
interface Media {
  schema?: ObjectSchema & { oneOf?: ObjectSchema[] };
  example?: unknown;
}
interface Operation {
  operationId: string;
  parameters?: { name: string; in: string; example?: unknown }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}

const calls = new Map<string, CallDef>(
  Object.values({ ...serviceCalls, health: healthCalls }).flatMap((c) => Object.entries(c as Record<string, CallDef>)),
);

let doc: { paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  const ctx = await createTestApp(sandbox, 'sqlite');
  try {
    const response = await ctx.built.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(response.statusCode).toBe(200);
    doc = response.json();
  } finally {
    await ctx.close();
  }
});

describe('the OpenAPI document', () => {
  it('shows a minimal createPanel request, with the defaults of what it leaves out', () => {
    const operation = doc.paths['/api/settings/servers/{serverId}/panels']!.post!;
    expect(operation.operationId).toBe('createPanel');
    const body = operation.requestBody!.content['application/json']!;
    expect(body.example).toEqual({
      type: 'BUTTON',
      subjects: [
        { subjectId: expect.any(String), text: 'Billing' },
        { subjectId: expect.any(String), text: 'Report a bug' },
      ],
      channelId: expect.stringMatching(/^\d+$/),
      message: { content: expect.any(String), embeds: [] },
    });
    // Both kinds of panel: only what has no default is required, and each default is stated.
    for (const kind of body.schema!.oneOf!) {
      expect(kind.required!.sort()).toEqual(['channelId', 'message', 'subjects', 'type']);
      expect(kind.properties!.name!.default).toBe('');
      expect(kind.properties!.draft!.default).toBe(false);
      expect(kind.properties!.subjects!.items!.properties!.emoji!.default).toBeNull();
    }
    expect(operation.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'serverId', example: expect.stringMatching(/^\d+$/) })]));
    expect(operation.responses['201']!.content!['application/json']!.example).toMatchObject({ name: '', draft: false, type: 'BUTTON' });
  });

  it('gives every operation an example of its success answer, unless it answers 204 or a file', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const call = calls.get(operation.operationId);
        expect(call, `${method} ${path}`).toBeDefined();
        if (!call || call.response === null || call.binary) continue;
        checked++;
        const success = Object.keys(operation.responses).filter((s) => /^2/.test(s)).sort()[0]!;
        const media = Object.values(operation.responses[success]?.content ?? {});
        if (media.length === 0 || media.some((m) => m.example === undefined)) missing.push(operation.operationId);
        if (operation.requestBody && Object.values(operation.requestBody.content).some((m) => m.example === undefined)) {
          missing.push(`${operation.operationId} (request)`);
        }
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in === 'path' && parameter.example === undefined) missing.push(`${operation.operationId} (${parameter.name})`);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
