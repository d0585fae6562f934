import type { ErrorBody } from '@ticket/contracts';

/** A required path parameter or body was missing, so the call was never sent (SPEC §5). */
export class RequiredError extends Error {
  override readonly name = 'RequiredError';

  constructor(
    readonly field: string,
    readonly operation: string,
  ) {
    super(`Required parameter "${field}" was null or undefined when calling ${operation}().`);
  }
}

/** The request never got an answer: offline, DNS, CORS, connection reset (SPEC §8). */
export class FetchError extends Error {
  override readonly name = 'FetchError';

  constructor(cause: unknown) {
    super('The request failed and the interceptors did not return an alternative response', { cause });
  }
}

/** The server answered outside 200–299 (SPEC §8). `response` is left unread for callers that need it. */
export class ResponseError extends Error {
  override readonly name = 'ResponseError';

  constructor(
    readonly response: Response,
    /** The parsed `ErrorBody`, when the server sent one. */
    readonly body?: ErrorBody,
    /** Seconds to wait before trying again, from `Retry-After`. */
    readonly retryAfter?: number,
  ) {
    super('Response returned an error code');
  }

  get status(): number {
    return this.response.status;
  }
}

export const isResponseError = (error: unknown, status?: number): error is ResponseError =>
  error instanceof ResponseError && (status === undefined || error.status === status);
