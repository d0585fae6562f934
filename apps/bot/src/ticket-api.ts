import { serviceBasePath, type CallDef, type ServiceName } from '@ticket/contracts';

/** The Ticket API answered with a non-2xx status. */
export class ApiAnswerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    /** Milliseconds the API asked to wait (Retry-After), if it said. */
    readonly retryAfterMs: number | null,
  ) {
    super(message);
    this.name = 'ApiAnswerError';
  }
}

/** The Ticket API could not be reached, or did not answer in time. */
export class ApiUnreachableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ApiUnreachableError';
  }
}

/** The report does not fit the contract: sending it would only be refused. */
export class InvalidReportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidReportError';
  }
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface CallInput {
  params?: Record<string, string>;
  /** Query string values (checked against the call's query schema when it has one). */
  query?: Record<string, string>;
  body?: unknown;
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** A call's path with its `:params` filled in, under its service's base. */
export function callUrl(baseUrl: string, service: ServiceName, call: CallDef, params: Record<string, string> = {}): string {
  const path = call.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new InvalidReportError(`${call.method} ${call.path} needs the parameter ${name}`);
    return encodeURIComponent(value);
  });
  return `${baseUrl}${serviceBasePath(service)}${path}`;
}

export interface TicketApiOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** The Ticket API as the runtime calls it: through the contracts' call definitions, with the operator key. */
export class TicketApi {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: TicketApiOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /**
   * Sends one call; resolves with a 2xx answer, throws ApiAnswerError for any other status,
   * ApiUnreachableError when there is no answer, InvalidReportError when the body breaks the contract.
   */
  async call(service: ServiceName, call: CallDef, input: CallInput = {}): Promise<ApiAnswer> {
    if (call.params) {
      const params = call.params.safeParse(input.params ?? {});
      if (!params.success) throw new InvalidReportError(`${call.method} ${call.path}: ${describeIssues(params.error.issues)}`);
    }
    let body: string | undefined;
    if (call.body) {
      const parsed = call.body.safeParse(input.body);
      if (!parsed.success) throw new InvalidReportError(`${call.method} ${call.path}: ${describeIssues(parsed.error.issues)}`);
      body = JSON.stringify(parsed.data);
    }
    let url = callUrl(this.options.baseUrl, service, call, input.params);
    if (input.query) {
      if (call.query) {
        const query = call.query.safeParse(input.query);
        if (!query.success) throw new InvalidReportError(`${call.method} ${call.path}: ${describeIssues(query.error.issues)}`);
      }
      const search = new URLSearchParams(input.query).toString();
      if (search) url += `?${search}`;
    }
    let response: Response;
    try {
      response = await this.fetch(url, {
        method: call.method,
        headers: {
          authorization: `Admin ${this.options.apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new ApiUnreachableError(`${call.method} ${call.path}: ${describeFetchError(error)}`, { cause: error });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new ApiUnreachableError(`${call.method} ${call.path}: the answer was cut off (${describeFetchError(error)})`, { cause: error });
    }
    let parsed: unknown = null;
    if (text !== '') {
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        parsed = text;
      }
    }
    if (response.ok) return { status: response.status, body: parsed };
    const error = typeof parsed === 'object' && parsed !== null ? (parsed as { code?: unknown; message?: unknown }) : {};
    const message = typeof error.message === 'string' ? error.message : response.statusText;
    throw new ApiAnswerError(
      response.status,
      typeof error.code === 'string' ? error.code : null,
      `${call.method} ${call.path} answered ${response.status}: ${message}`.slice(0, 500),
      parseRetryAfter(response.headers.get('retry-after')),
    );
  }
}

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || '(body)'}: ${i.message}`)
    .join('; ');
}

function describeFetchError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'no answer in time';
    const cause = (error as { cause?: unknown }).cause;
    const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : null;
    return code ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
