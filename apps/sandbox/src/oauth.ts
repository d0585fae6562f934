import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OAuth2Scopes, PermissionFlagsBits } from 'discord-api-types/v10';
import type { RESTPostOAuth2AccessTokenResult } from 'discord-api-types/v10';
import { requireBot, requireCaller } from './api-auth.ts';
import type { Application } from './applications.ts';
import { setBotMembership } from './bot-membership.ts';
import { applicationFlags } from './gateway-payloads.ts';
import { unauthorized } from './errors.ts';
import { AUTHORIZE_FIELDS, renderConsentPage, renderMessagePage } from './oauth-pages.ts';
import type { AuthorizeParams } from './oauth-pages.ts';
import { hasPermission } from './permissions.ts';
import { toCurrentUser, toGuild } from './serializers.ts';
import { discordTimestamp, isSnowflake } from './snowflake.ts';
import type { OAuthGrant, SandboxState } from './state.ts';

export const SESSION_COOKIE = 'sandbox_session';
export const CODE_TTL_MS = 10 * 60 * 1000;
export const ACCESS_TOKEN_TTL_S = 604_800;

const KNOWN_SCOPES = new Set<string>(Object.values(OAuth2Scopes));
// Scopes that only install things into a guild and so need no authorization code.
const INSTALL_SCOPES = new Set<string>([OAuth2Scopes.Bot, OAuth2Scopes.ApplicationsCommands, OAuth2Scopes.WebhookIncoming]);
const DENIED_DESCRIPTION = 'The resource owner or authorization server denied the request';
const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Same alphabet and length as Discord's codes and tokens, so format checks in clients pass. */
function randomToken(length = 30): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += TOKEN_CHARS[byte % TOKEN_CHARS.length];
  return out;
}

function readParams(source: unknown): AuthorizeParams {
  const record = (typeof source === 'object' && source !== null ? source : {}) as Record<string, unknown>;
  const params = {} as AuthorizeParams;
  for (const field of AUTHORIZE_FIELDS) {
    const value = record[field];
    params[field] = typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';
  }
  return params;
}

function parseScopes(scope: string): string[] {
  return [...new Set(scope.split(/[\s+]+/).filter((s) => s !== ''))];
}

function readCookie(request: FastifyRequest, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

interface ValidAuthorize {
  /** The application named by client_id: the one being authorized, whose bot an install adds. */
  app: Application;
  scopes: string[];
  installsBot: boolean;
  needsCode: boolean;
}

type Checked = { ok: true; value: ValidAuthorize } | { ok: false; title: string; message: string };

/** Checks in the order Discord's authorize screen does, failing on the first problem. */
function checkAuthorize(state: SandboxState, params: AuthorizeParams): Checked {
  const fail = (title: string, message: string): Checked => ({ ok: false, title, message });
  const app = state.applications.get(params.client_id);
  if (!app) return fail('Unknown application', `No application with client_id "${params.client_id}" is registered with the sandbox.`);
  const scopes = parseScopes(params.scope);
  if (scopes.length === 0) return fail('Invalid scope', 'No scopes were provided.');
  const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
  if (unknown.length > 0) return fail('Invalid scope', `Invalid scope: ${unknown.join(', ')}`);
  const installsBot = scopes.includes(OAuth2Scopes.Bot);
  const needsCode = scopes.some((s) => !INSTALL_SCOPES.has(s)) || params.response_type !== '';
  if (needsCode && params.response_type !== 'code') {
    return fail('Unsupported response type', `response_type must be "code" (got "${params.response_type}").`);
  }
  if (needsCode && params.redirect_uri === '') return fail('Missing redirect_uri', 'A redirect_uri is required for this authorization.');
  if (params.redirect_uri !== '') {
    let url: URL | null = null;
    try {
      url = new URL(params.redirect_uri);
    } catch {
      url = null;
    }
    const registered = app.redirectUris;
    if (!url || !['http:', 'https:'].includes(url.protocol) || (registered.length > 0 && !registered.includes(params.redirect_uri))) {
      return fail('Invalid OAuth2 redirect_uri', `The redirect_uri "${params.redirect_uri}" is not allowed for this application.`);
    }
  }
  if (installsBot && params.permissions !== '' && !/^\d+$/.test(params.permissions)) {
    return fail('Invalid permissions', 'permissions must be a decimal bitfield.');
  }
  if (params.guild_id !== '' && !isSnowflake(params.guild_id)) return fail('Invalid guild', 'guild_id must be a snowflake.');
  return { ok: true, value: { app, scopes, installsBot, needsCode } };
}

function redirectWith(redirectUri: string, query: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(query)) if (value !== '') url.searchParams.set(key, value);
  return url.toString();
}

function issueCode(state: SandboxState, params: AuthorizeParams, scopes: string[], userId: string, guildId: string | null): string {
  const code = randomToken();
  state.codes.set(code, {
    code,
    clientId: params.client_id,
    redirectUri: params.redirect_uri,
    scopes,
    userId,
    expiresAt: state.now() + CODE_TTL_MS,
    guildId,
  });
  return code;
}

function issueGrant(state: SandboxState, clientId: string, userId: string, scopes: string[]): OAuthGrant {
  const grant: OAuthGrant = {
    accessToken: randomToken(),
    refreshToken: randomToken(),
    clientId,
    userId,
    scopes,
    expiresAt: state.now() + ACCESS_TOKEN_TTL_S * 1000,
    revoked: false,
  };
  state.grantsByAccessToken.set(grant.accessToken, grant);
  state.grantsByRefreshToken.set(grant.refreshToken, grant);
  return grant;
}

function revokeGrant(state: SandboxState, grant: OAuthGrant): void {
  grant.revoked = true;
  state.grantsByAccessToken.delete(grant.accessToken);
  state.grantsByRefreshToken.delete(grant.refreshToken);
}

function approvalKey(userId: string, clientId: string): string {
  return `${userId}:${clientId}`;
}

/** Mints tokens without the browser dance; used by the control API for server-side tests. */
export function mintGrant(state: SandboxState, userId: string, scopes: string[]): OAuthGrant {
  return issueGrant(state, state.application.clientId, userId, scopes);
}

export function tokenResponse(grant: OAuthGrant): RESTPostOAuth2AccessTokenResult {
  return {
    access_token: grant.accessToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_S,
    refresh_token: grant.refreshToken,
    scope: grant.scopes.join(' '),
  };
}

export function registerOAuthRoutes(app: FastifyInstance, state: SandboxState): void {
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(body);

  const showAuthorize = async (request: FastifyRequest<{ Querystring: Record<string, unknown> }>, reply: FastifyReply) => {
    const params = readParams(request.query);
    const checked = checkAuthorize(state, params);
    if (!checked.ok) return html(reply, 400, renderMessagePage(checked.title, checked.message));
    const { scopes, installsBot } = checked.value;
    const signedIn = readCookie(request, SESSION_COOKIE);
    const signedInUser = signedIn !== null && state.users.has(signedIn) ? signedIn : null;
    // prompt=none skips the screen only for an earlier, sufficient approval; bot installs always ask.
    if (params.prompt === 'none' && signedInUser && !installsBot) {
      const approved = state.approvals.get(approvalKey(signedInUser, params.client_id));
      if (approved && scopes.every((s) => approved.has(s))) {
        const code = issueCode(state, params, scopes, signedInUser, null);
        return reply.redirect(redirectWith(params.redirect_uri, { code, state: params.state }), 302);
      }
    }
    return html(reply, 200, renderConsentPage(state, params, scopes, signedInUser, request.url.split('?')[0] ?? '/oauth2/authorize'));
  };

  const submitAuthorize = async (request: FastifyRequest<{ Body: Record<string, unknown> }>, reply: FastifyReply) => {
    const params = readParams(request.body);
    const checked = checkAuthorize(state, params);
    if (!checked.ok) return html(reply, 400, renderMessagePage(checked.title, checked.message));
    const { app, scopes, installsBot, needsCode } = checked.value;
    const form = (request.body ?? {}) as Record<string, unknown>;

    if (form.action === 'cancel') {
      if (params.redirect_uri === '') return html(reply, 200, renderMessagePage('Authorization cancelled', 'You can close this window.', 'info'));
      return reply.redirect(redirectWith(params.redirect_uri, { error: 'access_denied', error_description: DENIED_DESCRIPTION, state: params.state }), 302);
    }

    const userId = typeof form.user_id === 'string' ? form.user_id : '';
    const user = state.users.get(userId);
    if (!user) return html(reply, 400, renderMessagePage('Unknown user', `There is no sandbox user with id "${userId}".`));

    let installedGuildId: string | null = null;
    if (installsBot) {
      const guild = state.guilds.get(params.guild_id);
      if (!guild || !guild.members.has(user.id)) {
        return html(reply, 400, renderMessagePage('Choose a server', 'Pick a server you are a member of to add the bot to.'));
      }
      if (!hasPermission(state.memberPermissions(guild, user.id), PermissionFlagsBits.ManageGuild)) {
        return html(reply, 400, renderMessagePage('Missing permission', `You need the Manage Server permission in ${guild.name} to add a bot.`));
      }
      setBotMembership(state, guild, true, { app, ...(params.permissions === '' ? {} : { permissions: params.permissions }), actorId: user.id });
      installedGuildId = guild.id;
    }

    const key = approvalKey(user.id, params.client_id);
    const approved = state.approvals.get(key) ?? new Set<string>();
    for (const scope of scopes) if (!INSTALL_SCOPES.has(scope)) approved.add(scope);
    state.approvals.set(key, approved);
    reply.header('set-cookie', `${SESSION_COOKIE}=${encodeURIComponent(user.id)}; Path=/; HttpOnly; SameSite=Lax`);

    if (params.redirect_uri === '') {
      const guildName = installedGuildId ? state.guilds.get(installedGuildId)?.name : undefined;
      return html(reply, 200, renderMessagePage('Authorized', guildName ? `${app.botUsername} was added to ${guildName}. You can close this window.` : 'You can close this window.', 'info'));
    }
    const query: Record<string, string> = { state: params.state };
    if (needsCode) query.code = issueCode(state, params, scopes, user.id, installedGuildId);
    if (installedGuildId) {
      query.guild_id = installedGuildId;
      query.permissions = params.permissions === '' ? '0' : params.permissions;
    }
    return reply.redirect(redirectWith(params.redirect_uri, query), 302);
  };

  for (const path of ['/oauth2/authorize', '/api/oauth2/authorize', '/api/v10/oauth2/authorize']) {
    app.get(path, showAuthorize);
    app.post(path, submitAuthorize);
  }

  /** RFC 6749 client authentication: HTTP Basic wins over body credentials when both are sent. Answers the application. */
  const authenticatedClient = (request: FastifyRequest): Application | null => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    let id: unknown = body.client_id;
    let secret: unknown = body.client_secret;
    const header = request.headers.authorization;
    if (header?.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon === -1) return null;
      try {
        id = decodeURIComponent(decoded.slice(0, colon));
        secret = decodeURIComponent(decoded.slice(colon + 1));
      } catch {
        return null;
      }
    }
    const app = typeof id === 'string' ? state.applications.get(id) : undefined;
    return app && secret === app.clientSecret ? app : null;
  };

  const oauthError = (reply: FastifyReply, status: number, error: string, description?: string) =>
    reply.code(status).send(description ? { error, error_description: description } : { error });

  const token = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const body = (request.body ?? {}) as Record<string, unknown>;
    const client = authenticatedClient(request);
    if (!client) return oauthError(reply, 401, 'invalid_client');

    if (body.grant_type === 'authorization_code') {
      const code = typeof body.code === 'string' ? state.codes.get(body.code) : undefined;
      if (!code || code.clientId !== client.clientId || code.expiresAt <= state.now()) {
        if (code) state.codes.delete(code.code);
        return oauthError(reply, 400, 'invalid_grant', 'Invalid "code" in request.');
      }
      if (body.redirect_uri !== code.redirectUri) return oauthError(reply, 400, 'invalid_grant', 'Invalid "redirect_uri" in request.');
      state.codes.delete(code.code);
      const grant = issueGrant(state, code.clientId, code.userId, code.scopes);
      const response: RESTPostOAuth2AccessTokenResult & { guild?: unknown } = tokenResponse(grant);
      const guild = code.guildId ? state.guilds.get(code.guildId) : undefined;
      if (guild) response.guild = toGuild(guild, false);
      return response;
    }

    if (body.grant_type === 'refresh_token') {
      const old = typeof body.refresh_token === 'string' ? state.grantsByRefreshToken.get(body.refresh_token) : undefined;
      if (!old || old.revoked || old.clientId !== client.clientId) {
        return oauthError(reply, 400, 'invalid_grant', 'Invalid "refresh_token" in request.');
      }
      // Rotation: the old pair dies the moment the new one exists.
      revokeGrant(state, old);
      return tokenResponse(issueGrant(state, old.clientId, old.userId, old.scopes));
    }

    return oauthError(reply, 400, 'unsupported_grant_type');
  };

  const revoke = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const client = authenticatedClient(request);
    if (!client) return oauthError(reply, 401, 'invalid_client');
    const value = typeof body.token === 'string' ? body.token : '';
    const grant = state.grantsByAccessToken.get(value) ?? state.grantsByRefreshToken.get(value);
    if (grant && grant.clientId === client.clientId) {
      revokeGrant(state, grant);
      // Revoking de-authorizes the app for that person, so the next login shows consent again.
      state.approvals.delete(approvalKey(grant.userId, grant.clientId));
    }
    // RFC 7009: unknown tokens are not an error.
    return {};
  };

  const currentAuthorization = async (request: FastifyRequest) => {
    const caller = requireCaller(state, request);
    if (caller.kind !== 'bearer') throw unauthorized();
    const { grant, user } = caller;
    return {
      application: applicationInfo(state.applications.get(grant.clientId) ?? state.application),
      scopes: grant.scopes,
      expires: discordTimestamp(grant.expiresAt),
      ...(grant.scopes.includes('identify') ? { user: toCurrentUser(user, false) } : {}),
    };
  };

  /** GET /applications/@me (and the older /oauth2/applications/@me): the application whose bot token this is, with its bot user. */
  const currentApplication = async (request: FastifyRequest) => {
    const app = requireBot(state, request);
    return {
      ...applicationInfo(app),
      bot: state.botUser(app),
      owner: null,
      team: null,
      flags: applicationFlags(app),
      approximate_guild_count: state.guildIdsOf(app).length,
    };
  };

  for (const prefix of ['/api', '/api/v10']) {
    app.post(`${prefix}/oauth2/token`, token);
    app.post(`${prefix}/oauth2/token/revoke`, revoke);
    app.get(`${prefix}/oauth2/@me`, currentAuthorization);
    app.get(`${prefix}/oauth2/applications/@me`, currentApplication);
    app.get(`${prefix}/applications/@me`, currentApplication);
  }
}

/** The application as the API shows it; `verify_key` is the hex public key its interactions are signed with. */
function applicationInfo(app: Application) {
  return {
    id: app.clientId,
    name: app.name,
    icon: app.icon,
    description: app.description,
    summary: '',
    type: null,
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: app.key.publicKey,
    redirect_uris: [...app.redirectUris],
  };
}
