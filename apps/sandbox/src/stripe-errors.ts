/** The body of every Stripe error answer: `{ error: { type, code, message, param, decline_code, … } }`. */
export interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error';
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: unknown;
}

/** Thrown by Stripe route handlers and rendered once by the /v1 error handler, in Stripe's exact shape. */
export class StripeApiError extends Error {
  readonly status: number;
  readonly body: StripeErrorBody;

  constructor(status: number, body: StripeErrorBody) {
    super(body.message);
    this.status = status;
    this.body = body.code && !body.doc_url ? { ...body, doc_url: `https://stripe.com/docs/error-codes/${body.code.replace(/_/g, '-')}` } : body;
  }

  toJSON(): { error: StripeErrorBody } {
    return { error: this.body };
  }
}

export function invalidRequest(message: string, extra: { param?: string; code?: string; status?: number } = {}): StripeApiError {
  const body: StripeErrorBody = { type: 'invalid_request_error', message };
  if (extra.code) body.code = extra.code;
  if (extra.param) body.param = extra.param;
  return new StripeApiError(extra.status ?? 400, body);
}

export const missingParam = (param: string) => invalidRequest(`Missing required param: ${param}.`, { param, code: 'parameter_missing' });

export const unknownParam = (param: string) => invalidRequest(`Received unknown parameter: ${param}`, { param, code: 'parameter_unknown' });

/** `No such customer: 'cus_123'`, as Stripe says it for an unknown or deleted object. */
export const noSuch = (noun: string, id: string, param = 'id') => invalidRequest(`No such ${noun}: '${id}'`, { param, code: 'resource_missing', status: 404 });

export const emptyParam = (param: string) =>
  invalidRequest(
    `You passed an empty string for '${param}'. We assume empty values are an attempt to unset a parameter; however '${param}' cannot be unset. You should remove '${param}' from your request or supply a non-empty value.`,
    { param, code: 'parameter_invalid_empty' },
  );

export function unrecognizedUrl(method: string, path: string): StripeApiError {
  return invalidRequest(`Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`, {
    status: 404,
  });
}

export function missingApiKey(): StripeApiError {
  return invalidRequest(
    "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    { status: 401 },
  );
}

/** Stripe shows the first characters and the last four of a wrong key, never the whole of it. */
export function invalidApiKey(key: string): StripeApiError {
  const shown = key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(Math.max(4, key.length - 12))}${key.slice(-4)}` : '*'.repeat(key.length);
  return invalidRequest(`Invalid API Key provided: ${shown}`, { status: 401 });
}

export interface Decline {
  code: string;
  declineCode?: string;
  message: string;
}

export const DECLINES = {
  generic: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
  insufficientFunds: { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  incorrectNumber: { code: 'incorrect_number', message: 'Your card number is incorrect.' },
  expired: { code: 'expired_card', message: 'Your card has expired.' },
  authenticationRequired: { code: 'authentication_required', declineCode: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.' },
  authenticationFailed: {
    code: 'payment_intent_authentication_failure',
    message: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  },
  notTestCard: { code: 'card_declined', declineCode: 'test_mode_live_card', message: 'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.' },
} satisfies Record<string, Decline>;

export function cardError(decline: Decline, extra: { charge?: string; paymentIntent?: unknown } = {}): StripeApiError {
  const body: StripeErrorBody = { type: 'card_error', code: decline.code, message: decline.message };
  if (decline.declineCode) body.decline_code = decline.declineCode;
  if (extra.charge) body.charge = extra.charge;
  if (extra.paymentIntent) body.payment_intent = extra.paymentIntent;
  return new StripeApiError(402, body);
}
