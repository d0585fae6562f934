import type { CallDef, HttpMethod } from '@ticket/contracts';

/**
 * What the browser needs of a `CallDef` at run time. It holds no zod schema, so the build can hand
 * the browser a table of these instead of the contracts themselves (see plugins/api-manifest.ts).
 */
export interface CallSpec {
  method: HttpMethod;
  path: string;
  /** Query keys the contract cannot do without. */
  requiredQuery?: string[];
  body?: 'required' | 'optional';
  multipart?: boolean;
  binary?: boolean;
}

/** For each service, for each operationId of its call records, the spec of that call. */
export type CallManifest<R> = { [S in keyof R]: { [Op in keyof R[S]]: CallSpec } };

interface Parser {
  safeParse(value: unknown): { success: boolean };
}

const isRequired = (schema: Parser): boolean => !schema.safeParse(undefined).success;

export function toCallSpec(def: CallDef): CallSpec {
  const spec: CallSpec = { method: def.method, path: def.path };
  const requiredQuery = Object.entries<Parser>(def.query?.shape ?? {})
    .filter(([, schema]) => isRequired(schema))
    .map(([key]) => key);
  if (requiredQuery.length > 0) spec.requiredQuery = requiredQuery;
  if (def.body) spec.body = isRequired(def.body) ? 'required' : 'optional';
  if (def.multipart) {
    spec.multipart = true;
    // An upload without its form has nothing to send.
    spec.body ??= 'required';
  }
  if (def.binary) spec.binary = true;
  return spec;
}

/** The `:name` segments of a Fastify-style path. */
export const pathParamNames = (path: string): string[] =>
  Array.from(path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g), (match) => match[1] as string);
