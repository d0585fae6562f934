import type { FastifyInstance } from 'fastify';
import { describeApplication } from './applications.ts';
import type { Application } from './applications.ts';
import { ControlError, controlBody } from './control-error.ts';
import { privilegedIntentsOf } from './control-guilds.ts';
import { answer } from './control-interactions.ts';
import { httpUrl } from './sandbox-config.ts';
import type { SandboxState } from './state.ts';

type ApplicationRoute = { Params: { applicationId: string }; Body: unknown };

const CREATE_KEYS = ['name', 'botUsername', 'botAvatar', 'icon', 'privilegedIntents', 'interactionsUrl'];
const PATCH_KEYS = ['privilegedIntents', 'interactionsUrl'];
const IMAGE_HASH = /^(a_)?[0-9a-f]{32}$/;

function refuseUnknownKeys(body: Record<string, unknown>, known: string[]): void {
  const unknown = Object.keys(body).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new ControlError(400, `unknown key(s): ${unknown.join(', ')} (known: ${known.join(', ')})`);
}

function optionalName(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  // The portal's limits: application names 2-32 characters, bot usernames too.
  if (typeof value !== 'string' || value.trim().length < 2 || value.length > 32) throw new ControlError(400, `${key} must be 2 to 32 characters`);
  return value;
}

function optionalImage(body: Record<string, unknown>, key: string): string | null | undefined {
  const value = body[key];
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string' || !IMAGE_HASH.test(value)) throw new ControlError(400, `${key} must be an image hash (32 hex characters, a_ for animated) or null`);
  return value;
}

/** An application's own Interactions Endpoint URL: an http(s) URL, or null for none (its interactions go over the gateway). */
function interactionsUrlOf(value: unknown): string | null {
  if (value === null) return null;
  const url = httpUrl(value);
  if (!url) throw new ControlError(400, 'interactionsUrl must be an http(s) URL or null');
  return url;
}

/**
 * The developer portal, for every application the sandbox knows (the main one and the white-label
 * ones): list them with their tokens and keys, make another, switch privileged intents, set a
 * white-label application's Interactions Endpoint URL, and reset or revoke a bot token (its gateway
 * sessions close with 4004, REST answers the old token 401).
 */
export function registerApplicationControlRoutes(app: FastifyInstance, state: SandboxState, prefix: string): void {
  const base = `${prefix}/applications`;
  const describe = (application: Application) => describeApplication(application, state.guildIdsOf(application), state.interactionsUrlOf(application));
  const applicationOf = (id: string): Application => {
    const found = state.applications.get(id);
    if (!found) throw new ControlError(404, `unknown application ${id}`);
    return found;
  };

  app.get(base, async () => ({ applications: [...state.applications.values()].map(describe) }));

  app.get<ApplicationRoute>(`${base}/:applicationId`, async (request, reply) => answer(reply, 200, async () => describe(applicationOf(request.params.applicationId))));

  app.post<{ Body: unknown }>(base, async (request, reply) =>
    answer(reply, 201, async () => {
      const body = controlBody(request.body);
      refuseUnknownKeys(body, CREATE_KEYS);
      const name = optionalName(body, 'name');
      if (name === undefined) throw new ControlError(400, 'name is required');
      const botUsername = optionalName(body, 'botUsername');
      const botAvatar = optionalImage(body, 'botAvatar');
      const icon = optionalImage(body, 'icon');
      const privilegedIntents = body.privilegedIntents === undefined ? undefined : privilegedIntentsOf(body.privilegedIntents);
      const interactionsUrl = body.interactionsUrl === undefined ? undefined : interactionsUrlOf(body.interactionsUrl);
      const created = state.createApplication({
        name,
        ...(botUsername === undefined ? {} : { botUsername }),
        ...(botAvatar === undefined ? {} : { botAvatar }),
        ...(icon === undefined ? {} : { icon }),
        ...(privilegedIntents === undefined ? {} : { privilegedIntents }),
      });
      if (interactionsUrl !== undefined) created.interactionsUrl = interactionsUrl;
      return describe(created);
    }),
  );

  /** The portal's switches; sessions already connected keep what they identified with, as on Discord. */
  app.patch<ApplicationRoute>(`${base}/:applicationId`, async (request, reply) =>
    answer(reply, 200, async () => {
      const target = applicationOf(request.params.applicationId);
      const body = controlBody(request.body);
      refuseUnknownKeys(body, PATCH_KEYS);
      const intents = body.privilegedIntents === undefined ? undefined : privilegedIntentsOf(body.privilegedIntents);
      if (body.interactionsUrl !== undefined && !target.whiteLabel) {
        throw new ControlError(400, `the main application's Interactions Endpoint URL is the sandbox's: PUT ${prefix}/config`);
      }
      const url = body.interactionsUrl === undefined ? undefined : interactionsUrlOf(body.interactionsUrl);
      if (intents) target.privilegedIntents = { ...target.privilegedIntents, ...intents };
      if (url !== undefined) target.interactionsUrl = url;
      return describe(target);
    }),
  );

  /** "Reset Token": a new token, and the old one stops working at once. */
  app.post<ApplicationRoute>(`${base}/:applicationId/token`, async (request, reply) =>
    answer(reply, 200, async () => {
      const target = applicationOf(request.params.applicationId);
      state.resetBotToken(target);
      state.events.revoked(target.clientId);
      return describe(target);
    }),
  );

  /** The token is revoked and no new one is made: REST answers 401 and the gateway 4004 until a reset. */
  app.delete<ApplicationRoute>(`${base}/:applicationId/token`, async (request, reply) =>
    answer(reply, 200, async () => {
      const target = applicationOf(request.params.applicationId);
      target.botToken = null;
      state.events.revoked(target.clientId);
      return describe(target);
    }),
  );
}
