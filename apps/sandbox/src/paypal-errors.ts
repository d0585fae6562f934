import { newId, toCents } from './paypal-store.ts';

export interface PaypalIssue {
  issue: string;
  description: string;
  field?: string;
  value?: string;
  location?: 'body' | 'query' | 'path';
}

/**
 * Thrown by handlers and rendered by the PayPal error handler, so handlers read as the happy path
 * and every error has PayPal's shape: `{ name, message, debug_id, details, links }` for the REST
 * API, `{ error, error_description }` for OAuth.
 */
export class PaypalError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.message === 'string' ? body.message : String(body.error_description ?? body.error ?? status));
  }
}

function restError(status: number, name: string, message: string, details: PaypalIssue[], docs: string): PaypalError {
  return new PaypalError(status, {
    name,
    message,
    debug_id: newId.debug(),
    details,
    links: [{ href: `https://developer.paypal.com/docs/api/${docs}#${name}`, rel: 'information_link', method: 'GET' }],
  });
}

export const ISSUES = {
  MISSING_REQUIRED_PARAMETER: 'A required field / parameter is missing.',
  INVALID_PARAMETER_SYNTAX: 'The value of a field does not conform to the expected format.',
  INVALID_PARAMETER_VALUE: 'The value of a field is invalid.',
  INVALID_STRING_MAX_LENGTH: 'The value of a field is too long.',
  INVALID_STRING_MIN_LENGTH: 'The value of a field is too short.',
  INVALID_INTEGER_MIN_VALUE: 'The integer value of a field is too small.',
  INVALID_INTEGER_MAX_VALUE: 'The integer value of a field is too large.',
  MISSING_REQUEST_BODY: 'Request body is missing.',
} as const;

export type IssueName = keyof typeof ISSUES;

export function invalidRequest(details: PaypalIssue[], docs = 'v1/billing/subscriptions/'): PaypalError {
  return restError(400, 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.', details, docs);
}

export function malformedJson(): PaypalError {
  return invalidRequest([{ field: '/', location: 'body', issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' }]);
}

export function resourceNotFound(field?: string, value?: string, docs = 'v1/billing/subscriptions/'): PaypalError {
  const detail: PaypalIssue = { issue: 'INVALID_RESOURCE_ID', description: 'Specified resource ID does not exist. Please check the resource ID and try again.' };
  if (field) Object.assign(detail, { field, value, location: 'body', description: 'Requested resource ID was not found.' });
  return restError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', [detail], docs);
}

export function unprocessable(issue: string, description: string, docs = 'v1/billing/subscriptions/', field?: string): PaypalError {
  const detail: PaypalIssue = field ? { field, location: 'body', issue, description } : { issue, description };
  return restError(422, 'UNPROCESSABLE_ENTITY', 'The requested action could not be performed, semantically incorrect, or failed business validation.', [detail], docs);
}

export function statusInvalid(action: string, expected: string): PaypalError {
  return unprocessable('SUBSCRIPTION_STATUS_INVALID', `Invalid subscription status for ${action} action; subscription status should be ${expected}.`);
}

export function authenticationFailure(): PaypalError {
  return new PaypalError(401, {
    name: 'AUTHENTICATION_FAILURE',
    message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
    debug_id: newId.debug(),
    details: [],
    links: [{ href: 'https://developer.paypal.com/docs/api/overview/#error', rel: 'information_link', method: 'GET' }],
  });
}

export function oauthError(status: number, error: string, description: string): PaypalError {
  return new PaypalError(status, { error, error_description: description });
}

/** The older v1 shape the webhooks and v1 payments APIs answer in. */
export function legacyError(status: number, name: string, message: string, docs: string, details: { field?: string; issue: string }[] = []): PaypalError {
  return new PaypalError(status, { name, message, debug_id: newId.debug(), information_link: `https://developer.paypal.com/docs/api/${docs}#errors`, details });
}

export function internalError(): PaypalError {
  return restError(500, 'INTERNAL_SERVER_ERROR', 'An internal server error has occurred.', [], 'overview/');
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface StringRule {
  required?: boolean;
  min?: number;
  max?: number;
  oneOf?: readonly string[];
  pattern?: RegExp;
}

/**
 * Reads a request body by JSON pointer and collects every problem, as PayPal lists all of a
 * request's issues in one 400 answer.
 */
export class BodyCheck {
  readonly issues: PaypalIssue[] = [];

  constructor(
    readonly body: Json,
    readonly location: 'body' | 'query' = 'body',
  ) {}

  get(pointer: string): unknown {
    let node: unknown = this.body;
    for (const part of pointer.split('/').slice(1)) {
      if (Array.isArray(node)) node = node[Number(part)];
      else if (isObject(node)) node = node[part];
      else return undefined;
    }
    return node;
  }

  add(pointer: string, issue: IssueName, value?: unknown): void {
    const field = this.location === 'query' ? pointer.slice(1) : pointer;
    const detail: PaypalIssue = { field, location: this.location, issue, description: ISSUES[issue] };
    if (value !== undefined && value !== null && typeof value !== 'object') detail.value = String(value);
    this.issues.push(detail);
  }

  string(pointer: string, rule: StringRule = {}): string | undefined {
    const value = this.get(pointer);
    if (value === undefined || value === null || value === '') {
      if (rule.required) this.add(pointer, 'MISSING_REQUIRED_PARAMETER');
      return undefined;
    }
    if (typeof value !== 'string') return void this.add(pointer, 'INVALID_PARAMETER_SYNTAX', value);
    if (rule.min !== undefined && value.length < rule.min) return void this.add(pointer, 'INVALID_STRING_MIN_LENGTH', value);
    if (rule.max !== undefined && value.length > rule.max) return void this.add(pointer, 'INVALID_STRING_MAX_LENGTH', value);
    if (rule.pattern && !rule.pattern.test(value)) return void this.add(pointer, 'INVALID_PARAMETER_SYNTAX', value);
    if (rule.oneOf && !rule.oneOf.includes(value)) return void this.add(pointer, 'INVALID_PARAMETER_VALUE', value);
    return value;
  }

  integer(pointer: string, rule: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    const value = this.get(pointer);
    if (value === undefined || value === null) {
      if (rule.required) this.add(pointer, 'MISSING_REQUIRED_PARAMETER');
      return undefined;
    }
    if (typeof value !== 'number' || !Number.isInteger(value)) return void this.add(pointer, 'INVALID_PARAMETER_SYNTAX', value);
    if (rule.min !== undefined && value < rule.min) return void this.add(pointer, 'INVALID_INTEGER_MIN_VALUE', value);
    if (rule.max !== undefined && value > rule.max) return void this.add(pointer, 'INVALID_INTEGER_MAX_VALUE', value);
    return value;
  }

  boolean(pointer: string): boolean | undefined {
    const value = this.get(pointer);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') return void this.add(pointer, 'INVALID_PARAMETER_SYNTAX', value);
    return value;
  }

  object(pointer: string, required = false): Json | undefined {
    const value = this.get(pointer);
    if (value === undefined || value === null) {
      if (required) this.add(pointer, 'MISSING_REQUIRED_PARAMETER');
      return undefined;
    }
    if (!isObject(value)) return void this.add(pointer, 'INVALID_PARAMETER_SYNTAX');
    return value;
  }

  array(pointer: string, required = false): unknown[] | undefined {
    const value = this.get(pointer);
    if (value === undefined || value === null) {
      if (required) this.add(pointer, 'MISSING_REQUIRED_PARAMETER');
      return undefined;
    }
    if (!Array.isArray(value)) return void this.add(pointer, 'INVALID_PARAMETER_SYNTAX');
    return value;
  }

  /** A `{ currency_code, value }` amount, in cents. */
  money(pointer: string, required = false): { cents: number; currency: string } | undefined {
    const value = this.object(pointer, required);
    if (!value) return undefined;
    const currency = this.string(`${pointer}/currency_code`, { required: true, pattern: /^[A-Z]{3}$/ });
    const amount = this.string(`${pointer}/value`, { required: true, max: 32 });
    if (amount === undefined || currency === undefined) return undefined;
    const cents = toCents(amount);
    if (cents === null) return void this.add(`${pointer}/value`, 'INVALID_PARAMETER_SYNTAX', amount);
    return { cents, currency };
  }

  /** Throws the 400 listing every issue found so far. */
  done(docs?: string): void {
    if (this.issues.length > 0) throw invalidRequest(this.issues, docs);
  }
}

/** The body as an object, or the 400 PayPal answers for a missing one. */
export function requireBody(body: unknown, docs?: string): Json {
  if (body === undefined || body === null) {
    throw invalidRequest([{ issue: 'MISSING_REQUEST_BODY', description: ISSUES.MISSING_REQUEST_BODY, location: 'body' }], docs);
  }
  if (!isObject(body)) throw malformedJson();
  return body;
}
