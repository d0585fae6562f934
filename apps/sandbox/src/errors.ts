import { RESTJSONErrorCodes } from 'discord-api-types/v10';

/** One leaf of Discord's nested "errors" tree in Invalid Form Body answers. */
export interface FieldError {
  code: string;
  message: string;
}

export interface FormErrorTree {
  [key: string]: FormErrorTree | FieldError[];
}

/**
 * Thrown by route handlers and rendered by the API error handler, so handlers read as the
 * happy path and every error body has Discord's exact shape.
 */
export class DiscordApiError extends Error {
  readonly status: number;
  readonly code: number;
  readonly errors: FormErrorTree | undefined;

  constructor(status: number, message: string, code: number, errors?: FormErrorTree) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = errors;
  }

  toJSON(): { message: string; code: number; errors?: FormErrorTree } {
    return this.errors ? { message: this.message, code: this.code, errors: this.errors } : { message: this.message, code: this.code };
  }
}

export const unauthorized = () => new DiscordApiError(401, '401: Unauthorized', RESTJSONErrorCodes.GeneralError);
export const notFound = () => new DiscordApiError(404, '404: Not Found', RESTJSONErrorCodes.GeneralError);
export const unknownGuild = () => new DiscordApiError(404, 'Unknown Guild', RESTJSONErrorCodes.UnknownGuild);
export const unknownChannel = () => new DiscordApiError(404, 'Unknown Channel', RESTJSONErrorCodes.UnknownChannel);
export const unknownMember = () => new DiscordApiError(404, 'Unknown Member', RESTJSONErrorCodes.UnknownMember);
export const unknownUser = () => new DiscordApiError(404, 'Unknown User', RESTJSONErrorCodes.UnknownUser);
export const unknownMessage = () => new DiscordApiError(404, 'Unknown Message', RESTJSONErrorCodes.UnknownMessage);
export const missingAccess = () => new DiscordApiError(403, 'Missing Access', RESTJSONErrorCodes.MissingAccess);
export const missingPermissions = () => new DiscordApiError(403, 'Missing Permissions', RESTJSONErrorCodes.MissingPermissions);
export const emptyMessage = () => new DiscordApiError(400, 'Cannot send an empty message', RESTJSONErrorCodes.CannotSendAnEmptyMessage);
export const nonTextChannel = () =>
  new DiscordApiError(400, 'Cannot send messages in a non-text channel', RESTJSONErrorCodes.CannotSendMessagesInNonTextChannel);
export const invalidJson = () => new DiscordApiError(400, 'The request body contains invalid JSON.', RESTJSONErrorCodes.RequestBodyContainsInvalidJSON);
export const unknownWebhook = () => new DiscordApiError(404, 'Unknown Webhook', RESTJSONErrorCodes.UnknownWebhook);
export const unknownInteraction = () => new DiscordApiError(404, 'Unknown interaction', RESTJSONErrorCodes.UnknownInteraction);
export const alreadyAcknowledged = () =>
  new DiscordApiError(400, 'Interaction has already been acknowledged.', RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged);
export const invalidFormBody = (errors: FormErrorTree) =>
  new DiscordApiError(400, 'Invalid Form Body', RESTJSONErrorCodes.InvalidFormBodyOrContentType, errors);

/** Builds the nested error tree Discord uses, e.g. ["embeds", 0, "title"] → {embeds:{0:{title:{_errors:[…]}}}}. */
export function fieldError(path: readonly (string | number)[], code: string, message: string): FormErrorTree {
  let tree: FormErrorTree = { _errors: [{ code, message }] };
  for (let i = path.length - 1; i >= 0; i -= 1) tree = { [String(path[i])]: tree };
  return tree;
}

export function mergeErrorTrees(trees: readonly FormErrorTree[]): FormErrorTree {
  const merged: FormErrorTree = {};
  for (const tree of trees) mergeInto(merged, tree);
  return merged;
}

function mergeInto(target: FormErrorTree, source: FormErrorTree): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (Array.isArray(value)) {
      target[key] = Array.isArray(existing) ? [...existing, ...value] : value;
    } else if (existing && !Array.isArray(existing)) {
      mergeInto(existing, value);
    } else {
      target[key] = { ...value };
    }
  }
}
