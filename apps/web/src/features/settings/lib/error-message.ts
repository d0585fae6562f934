import { isResponseError } from '@/lib/api';

/**
 * What to tell the user about a failed call: the server's own explanation when it sent one
 * (without the "body.name: " prefix naming the request field), the client's message otherwise.
 */
export function errorMessage(error: unknown): string {
  if (isResponseError(error) && error.body?.message) {
    const { message, field } = error.body;
    return field && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
