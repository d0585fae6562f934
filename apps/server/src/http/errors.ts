/** Typed errors thrown by services; the error handler turns each into one HTTP answer. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: { field?: string; retryAfterSeconds?: number; issues?: { field: string; message: string }[] } = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, field?: string) {
    super(400, 'bad_request', message, field ? { field } : {});
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication is required: send a valid Authorization header') {
    super(401, 'unauthorized', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have the required permissions for this server') {
    super(403, 'forbidden', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, 'not_found', message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, field?: string) {
    super(409, 'conflict', message, field ? { field } : {});
  }
}

export class LimitReachedError extends AppError {
  constructor(message: string) {
    super(402, 'limit_reached', message);
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number, message = 'Too many requests') {
    super(429, 'rate_limited', message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });
  }
}

/** The chat platform (or another upstream) failed or is unreachable. */
export class UpstreamError extends AppError {
  constructor(message: string) {
    super(502, 'upstream_failed', message);
  }
}

/** Several problems with the input at once, each named (ErrorBody `issues`). */
export class InvalidInputError extends AppError {
  constructor(message: string, issues: { field: string; message: string }[]) {
    super(400, 'validation_failed', message, { ...(issues[0] ? { field: issues[0].field } : {}), issues });
  }
}
