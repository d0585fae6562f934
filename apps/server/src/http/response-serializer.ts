import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as checkedSerializer } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SerializerCompiler = FastifySerializerCompiler<z.ZodType>;

/**
 * An answer's JSON Schema (its output side, as the OpenAPI document describes it) for the writer.
 * Without `additionalProperties: false`: the writer leaves out fields a schema does not name
 * anyway, and where it picks a branch of a union by validating the value, an object carrying more
 * than its branch names must still match it (zod would drop the rest too).
 */
function writerSchema(schema: z.ZodType): unknown {
  const open = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(open);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
        .map(([key, value]) => [key, open(value)]),
    );
  };
  return open(z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' }));
}

/**
 * How answers are written. `checked`: each answer is checked against its contract with zod before
 * it is sent (a mismatch is a 500), as the tests run, so that no route answers outside its
 * contract unnoticed. Otherwise each answer is written by a serialiser compiled once per route
 * from the contract's JSON Schema (fast-json-stringify, Fastify's own), which writes the
 * contract's fields only, so nothing a service left on an object beyond the contract goes out,
 * without walking the answer through zod first (about a quarter of a list call's time). A schema
 * it cannot compile is written the checked way.
 */
export function responseSerializer(checked: boolean): SerializerCompiler {
  if (checked) return checkedSerializer;
  return (route) => {
    // Compiled on a route's first answer: most processes answer a few of the routes they mount,
    // and each writer holds code and memory.
    let write: ((data: unknown) => string) | null = null;
    const compile = () => {
      try {
        return fastJson(writerSchema(route.schema) as object);
      } catch {
        return checkedSerializer(route);
      }
    };
    return (data) => (write ??= compile())(data);
  };
}
