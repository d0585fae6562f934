import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as checkedSerializer } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SerializerCompiler = FastifySerializerCompiler<z.ZodType>;

type SchemaNode = Record<string, unknown>;
const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A value that is one type or null (`anyOf: [{ type: X, … }, { type: 'null' }]`, as zod writes a
 * nullable field) as `type: [X, 'null']`: the writer then tells the two apart by the value itself,
 * where for a union it validates the value against each branch first (a pattern match per id and
 * date of a list page: a third of its writing time).
 */
function nullableAsType(node: SchemaNode): SchemaNode {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return node;
  const nullAt = branches.findIndex((branch) => isNode(branch) && branch.type === 'null' && Object.keys(branch).length === 1);
  const other = branches[1 - nullAt];
  if (nullAt < 0 || !isNode(other) || typeof other.type !== 'string') return node;
  const { anyOf: _union, ...rest } = node;
  return { ...other, ...rest, type: [other.type, 'null'] };
}

/**
 * An answer's JSON Schema (its output side, as the OpenAPI document describes it) for the writer.
 * Without `additionalProperties: false`: the writer leaves out fields a schema does not name
 * anyway, and where it picks a branch of a union by validating the value, an object carrying more
 * than its branch names must still match it (zod would drop the rest too). Nullable values are
 * written by their type (nullableAsType).
 */
function writerSchema(schema: z.ZodType): unknown {
  const open = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(open);
    if (!isNode(node)) return node;
    return Object.fromEntries(
      Object.entries(nullableAsType(node))
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
