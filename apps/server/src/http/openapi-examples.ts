import { exampleForOperation } from '@ticket/contracts';

/** The parts of an OpenAPI document this file touches; the rest passes through untouched. */
interface Media {
  example?: unknown;
}
interface Operation {
  operationId?: string;
  parameters?: { name: string; in: string; example?: unknown }[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}
type Paths = Record<string, Record<string, Operation> | undefined>;

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']);

/**
 * Puts each operation's worked example (packages/contracts/src/examples, keyed by operationId) into
 * the document: the request body, the path and query parameters, and the success answer. The
 * document is then enough to make a first call without reading the schemas field by field.
 */
export function withExamples<D extends { paths?: object }>(document: D): D {
  for (const item of Object.values((document.paths ?? {}) as Paths)) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (!HTTP_METHODS.has(method) || !operation.operationId) continue;
      const example = exampleForOperation(operation.operationId);
      if (!example) continue;
      if (example.body !== undefined) {
        for (const media of Object.values(operation.requestBody?.content ?? {})) media.example = example.body;
      }
      for (const parameter of operation.parameters ?? []) {
        const values = parameter.in === 'path' ? example.params : parameter.in === 'query' ? example.query : undefined;
        if (values && Object.hasOwn(values, parameter.name)) parameter.example = values[parameter.name];
      }
      const success = Object.keys(operation.responses ?? {})
        .filter((status) => /^2\d\d$/.test(status))
        .sort()[0];
      if (success && example.response !== undefined) {
        for (const media of Object.values(operation.responses?.[success]?.content ?? {})) media.example = example.response;
      }
    }
  }
  return document;
}
