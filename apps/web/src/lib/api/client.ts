import type {
  CallBody,
  CallDef,
  CallParams,
  CallQuery,
  CallResponse,
  ErrorBody,
  RuntimeConfig,
  ServiceName,
  serviceCalls,
} from '@ticket/contracts';
import manifestData from 'virtual:api-manifest';
import { type CallManifest, type CallSpec, pathParamNames, toCallSpec } from './call-spec';
import { FetchError, RequiredError, ResponseError } from './errors';

/**
 * Only the type: the values hold zod schemas, which the browser never loads. The build hands it
 * `virtual:api-manifest` instead (see plugins/api-manifest.ts).
 */
export type ServiceCalls = typeof serviceCalls;

type IsOptional<T> = undefined extends T
  ? true
  : [T] extends [object]
    ? Partial<T> extends T
      ? true
      : false
    : false;

/** An input slot the call does not take is forbidden; one whose fields are all optional may be left out. */
type Slot<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: never }
  : IsOptional<T> extends true
    ? { [P in K]?: T }
    : { [P in K]: T };

/** A multipart call declares no body schema: its body is the form to send. */
type BodyOf<C extends CallDef> = C extends { multipart: true } ? FormData : CallBody<C>;

export type CallInput<C extends CallDef> = Slot<'params', CallParams<C>> &
  Slot<'query', CallQuery<C>> &
  Slot<'body', BodyOf<C>>;

/** A download answers the file itself, whatever its schema says. */
export type ResponseOf<C extends CallDef> = C extends { binary: true } ? Blob : CallResponse<C>;

export interface RequestOptions {
  signal?: AbortSignal;
}

export type CallFn<C extends CallDef> =
  IsOptional<CallInput<C>> extends true
    ? (input?: CallInput<C>, options?: RequestOptions) => Promise<ResponseOf<C>>
    : (input: CallInput<C>, options?: RequestOptions) => Promise<ResponseOf<C>>;

export type ServiceApi<R> = { [Op in keyof R]: R[Op] extends CallDef ? CallFn<R[Op]> : never };

export type ApiClient = { [S in keyof ServiceCalls]: ServiceApi<ServiceCalls[S]> } & {
  /** Any call of any service by its definition, e.g. one not (yet) in the contracts' `serviceCalls`. */
  call<C extends CallDef>(
    service: ServiceName,
    def: C,
    input: CallInput<C>,
    operation: string,
    options?: RequestOptions,
  ): Promise<ResponseOf<C>>;
};

export interface ClientOptions {
  /** Defaults to the global `fetch`, looked up on every call. */
  fetch?: typeof fetch;
}

interface LooseInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

const manifest = manifestData as CallManifest<ServiceCalls>;

export function createClient(
  config: RuntimeConfig,
  getToken: () => string | null | undefined,
  options: ClientOptions = {},
): ApiClient {
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function send(
    service: ServiceName,
    spec: CallSpec,
    input: LooseInput,
    operation: string,
    requestOptions: RequestOptions = {},
  ): Promise<unknown> {
    const params = input.params ?? {};
    for (const name of pathParamNames(spec.path)) {
      if (params[name] == null) throw new RequiredError(name, operation);
    }
    for (const name of spec.requiredQuery ?? []) {
      if (input.query?.[name] == null) throw new RequiredError(name, operation);
    }
    if (spec.body === 'required' && input.body == null) throw new RequiredError('body', operation);

    const base = config.services[service];
    if (base === undefined) throw new Error(`config.json has no base URL for the ${service} service`);
    const path = spec.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) =>
      encodeURIComponent(String(params[name])),
    );
    const url = base.replace(/\/+$/, '') + path + toQueryString(input.query);

    const headers = new Headers();
    if (!spec.binary) headers.set('Accept', 'application/json');
    const token = getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    let body: BodyInit | undefined;
    if (input.body != null) {
      if (spec.multipart) {
        body = input.body instanceof FormData ? input.body : toFormData(input.body as Record<string, unknown>);
      } else {
        headers.set('Content-Type', 'application/json');
        body = JSON.stringify(input.body);
      }
    }

    let response: Response;
    try {
      response = await doFetch(url, { method: spec.method, headers, body, signal: requestOptions.signal });
    } catch (error) {
      // A cancelled request is the caller's choice (TanStack Query cancels stale queries), not a failure.
      if (requestOptions.signal?.aborted) throw error;
      throw new FetchError(error);
    }

    if (!response.ok) {
      throw new ResponseError(
        response,
        await readErrorBody(response),
        parseRetryAfter(response.headers.get('Retry-After')),
      );
    }
    if (response.status === 204) return undefined;
    if (spec.binary) return response.blob();
    const text = await response.text();
    if (text === '') return undefined;
    // Responses are typed from the contracts but not parsed with them: zod would cost bundle and time.
    return isJson(response) ? JSON.parse(text) : text;
  }

  const client: Record<string, unknown> = {
    call: (service: ServiceName, def: CallDef, input: LooseInput, operation: string, requestOptions?: RequestOptions) =>
      send(service, toCallSpec(def), input, operation, requestOptions),
  };
  for (const [service, calls] of Object.entries<Record<string, CallSpec>>(manifest)) {
    client[service] = Object.fromEntries(
      Object.entries(calls).map(([operation, spec]) => [
        operation,
        (input: LooseInput = {}, requestOptions?: RequestOptions) =>
          send(service as ServiceName, spec, input, operation, requestOptions),
      ]),
    );
  }
  return client as ApiClient;
}

function toQueryString(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item == null) continue;
      search.append(key, item instanceof Date ? item.toISOString() : String(item));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

function toFormData(fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value == null) continue;
    form.append(key, value instanceof Blob ? value : String(value));
  }
  return form;
}

const isJson = (response: Response): boolean => /\bjson\b/i.test(response.headers.get('Content-Type') ?? '');

async function readErrorBody(response: Response): Promise<ErrorBody | undefined> {
  if (!isJson(response)) return undefined;
  try {
    // A clone, so that callers can still read the original response.
    const data: unknown = await response.clone().json();
    return isErrorBody(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

function isErrorBody(data: unknown): data is ErrorBody {
  if (typeof data !== 'object' || data === null) return false;
  const body = data as Record<string, unknown>;
  return typeof body.statusCode === 'number' && typeof body.code === 'string' && typeof body.message === 'string';
}

/** `Retry-After` is either a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
