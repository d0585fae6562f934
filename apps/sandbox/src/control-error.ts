/**
 * A refusal of a test-control request (not a platform error): control routes answer it as
 * `{ error }` with its status, and pages show it to the person driving the sandbox.
 */
export class ControlError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

type Fields = Record<string, unknown>;

/** Reads a JSON control body; anything but an object is a 400 with a plain explanation. */
export function controlBody(body: unknown): Fields {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ControlError(400, 'the body must be a JSON object');
  return body as Fields;
}

export function requireId(body: Fields, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || !/^\d{1,20}$/.test(value)) throw new ControlError(400, `${name} must be a snowflake string`);
  return value;
}

export function requireText(body: Fields, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw new ControlError(400, `${name} must be a non-empty string`);
  return value;
}
