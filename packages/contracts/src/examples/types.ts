import type { z } from 'zod';
import type { CallBody, CallDef, CallParams, CallQuery } from '../common';

/** One worked example of a call: what an integrator sends and what a successful answer holds. */
export interface CallExample {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** Absent for calls answering 204 or a file. */
  response?: unknown;
}

type ResponseOf<C extends CallDef> = C['response'] extends z.ZodType ? z.output<C['response']> : never;

/**
 * Examples of a service's calls, keyed by operationId and typed by the call's own schemas.
 * Every entry is optional here; the examples test insists on one for each call.
 */
export type ExamplesOf<R extends Record<string, CallDef>> = {
  [K in keyof R]?: {
    params?: CallParams<R[K]>;
    query?: CallQuery<R[K]>;
    body?: CallBody<R[K]>;
    response?: ResponseOf<R[K]>;
  };
};
