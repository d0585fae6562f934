import { isResponseError } from '@/lib/api';
import { pathOfField } from './problems';

export interface SaveError {
  /** What the server (or the client) said. */
  message: string;
  /** The field the server named, as a problem path; empty when it named none. */
  path: PropertyKey[];
}

/**
 * What to tell the user about a failed call: the server's own explanation when it sent one, the
 * client's message otherwise. A field-level 400 loses its "body.field: " prefix, and a refusal
 * that starts with the title it is shown under ("Failed to create panel: …") loses that too.
 */
export function saveErrorOf(error: unknown): SaveError {
  if (isResponseError(error) && error.body?.message) {
    const { message, field } = error.body;
    let text = field && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
    text = text.replace(/^Failed to (create|update|resend|delete) panel: /, '');
    return { message: text.charAt(0).toUpperCase() + text.slice(1), path: pathOfField(field) };
  }
  return { message: error instanceof Error ? error.message : String(error), path: [] };
}
