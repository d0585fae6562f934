import { z } from 'zod';
import { defineCall, IntegrationType, IsoDateTime, PageQuery, pagedResult, ServerIdParams, ServerRole, Snowflake } from './common';

export const AuthType = z.enum(['Bearer', 'ApiKey', 'Admin']);
export type AuthType = z.infer<typeof AuthType>;

export const AuthServer = z.object({
  integrationType: IntegrationType,
  serverId: Snowflake,
  name: z.string(),
  role: ServerRole,
  subjects: z.array(z.string()).describe('Ids of the ticket subjects the user may act in as staff'),
  serverIcon: z.string().nullable().optional().describe('Icon URL'),
  nickname: z.string().nullable().optional(),
  avatarUrl: z.string().nullable().optional().describe('Server-specific avatar URL'),
});
export type AuthServer = z.infer<typeof AuthServer>;

/** A server the user is in but the bot has not joined yet. */
export const AuthUnjoinedServer = z.object({
  integrationType: IntegrationType,
  serverId: Snowflake,
  name: z.string(),
  role: ServerRole,
  serverIcon: z.string().nullable().optional(),
});
export type AuthUnjoinedServer = z.infer<typeof AuthUnjoinedServer>;

export const BearerUser = z.object({
  authType: z.literal('Bearer'),
  servers: z.array(AuthServer),
  userId: Snowflake,
  username: z.string(),
  globalName: z.string().nullable(),
  expires: IsoDateTime.describe('When the session token stops working'),
  uServers: z.array(AuthUnjoinedServer),
  avatarUrl: z.string().nullable().optional(),
});
export type BearerUser = z.infer<typeof BearerUser>;

export const ApiKeyIdentity = z.object({ authType: z.literal('ApiKey'), serverId: Snowflake });
export type ApiKeyIdentity = z.infer<typeof ApiKeyIdentity>;

export const AdminIdentity = z.object({ authType: z.literal('Admin') });
export type AdminIdentity = z.infer<typeof AdminIdentity>;

export const Identity = z.discriminatedUnion('authType', [BearerUser, ApiKeyIdentity, AdminIdentity]);
export type Identity = z.infer<typeof Identity>;

export const AuthenticateRequest = z.object({
  code: z.string().min(1).max(512).describe('The OAuth code the platform gave the browser'),
  redirectUri: z.url().max(2048).describe('The redirect URI used to obtain the code'),
});
export type AuthenticateRequest = z.infer<typeof AuthenticateRequest>;

export const AuthenticateResponse = z.object({
  user: BearerUser,
  token: z.string().describe('Session token for the Authorization: Bearer header'),
});
export type AuthenticateResponse = z.infer<typeof AuthenticateResponse>;

export const IsAuthenticatedRequest = z.object({
  accessKey: z.string().min(1).max(512),
  type: AuthType,
});
export type IsAuthenticatedRequest = z.infer<typeof IsAuthenticatedRequest>;

export const ApiKeyResponse = z.object({ key: z.string().describe('The full key; shown only once') });
export type ApiKeyResponse = z.infer<typeof ApiKeyResponse>;

export const ApiKeyInfo = z.object({
  key: z.string().describe('The key with all but its first characters hidden'),
  createdAt: IsoDateTime,
  lastUsedAt: IsoDateTime.nullable(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;

/** How long a server's API key calls are kept (and at most how many), before they are removed. */
export const API_KEY_CALL_RETENTION = { days: 30, perServer: 10_000 } as const;

export const ApiKeyCallStatus = z
  .enum(['success', 'error', 'rateLimited'])
  .describe('success: answered 1xx-3xx; error: answered 4xx or 5xx (rate limited ones included); rateLimited: refused by the key’s rate limit');
export type ApiKeyCallStatus = z.infer<typeof ApiKeyCallStatus>;

export const ApiKeyCall = z.object({
  at: IsoDateTime.describe('When the call arrived'),
  method: z.string().describe('HTTP method').meta({ example: 'GET' }),
  route: z.string().describe('The route as routed, with its parameter names').meta({ example: '/api/settings/servers/:serverId/panels' }),
  path: z.string().describe('The path as called, without the query string'),
  status: z.number().int().describe('HTTP status of the answer'),
  durationMs: z.number().min(0).describe('How long the answer took, in milliseconds'),
  keyPrefix: z.string().describe('The first characters of the key that made the call, to tell a reset key’s calls apart'),
  rateLimited: z.boolean().describe('Whether the call was refused by the key’s rate limit'),
});
export type ApiKeyCall = z.infer<typeof ApiKeyCall>;

export const ApiKeyRateLimit = z.object({
  max: z.number().int().describe('Calls a key may make per window'),
  windowMs: z.number().int().describe('Length of the window, in milliseconds'),
});
export type ApiKeyRateLimit = z.infer<typeof ApiKeyRateLimit>;

export const ApiKeyCallsQuery = PageQuery.extend({
  Amount: z.coerce.number().int().min(1).max(100).default(25).describe('Calls per page'),
  status: ApiKeyCallStatus.optional().describe('Only calls of this kind; all calls when absent'),
});
export type ApiKeyCallsQuery = z.infer<typeof ApiKeyCallsQuery>;

export const ApiKeyCalls = pagedResult(ApiKeyCall)
  .extend({ limit: ApiKeyRateLimit.describe('The rate limit every API key of this deployment has') })
  .describe('Calls made with the server’s API key in the last 30 days (at most the newest 10,000), newest first');
export type ApiKeyCalls = z.infer<typeof ApiKeyCalls>;

export const LoginConfig = z.object({
  clientId: Snowflake,
  authorizeUrl: z.url().describe('The platform OAuth2 authorize endpoint'),
  scope: z.string().describe('Space-separated OAuth scopes'),
  responseType: z.literal('code'),
  prompt: z.literal('none'),
  inviteUrl: z.url().describe('Where to invite the bot to a server (add permissions and guild_id)'),
});
export type LoginConfig = z.infer<typeof LoginConfig>;

export const SessionInfo = z.object({
  id: z.string().describe('Session id (not the token)'),
  createdAt: IsoDateTime,
  lastUsedAt: IsoDateTime,
  expiresAt: IsoDateTime,
  userAgent: z.string().nullable().describe('Browser that signed in'),
  current: z.boolean().describe('Whether this is the session making the request'),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const authCalls = {
  getLoginConfig: defineCall({
    method: 'GET',
    path: '/login/config',
    summary: 'What the dashboard needs to start sign-in with the chat platform',
    response: LoginConfig,
  }),
  authenticate: defineCall({
    method: 'POST',
    path: '/user',
    summary: 'Exchange an OAuth code for a session',
    body: AuthenticateRequest,
    response: AuthenticateResponse,
  }),
  logout: defineCall({
    method: 'DELETE',
    path: '/user',
    summary: 'End the current session for good',
    response: null,
    status: 204,
  }),
  refreshUser: defineCall({
    method: 'POST',
    path: '/user/refresh',
    summary: 'The signed-in user, from cached platform data',
    response: BearerUser,
  }),
  refreshUserForce: defineCall({
    method: 'POST',
    path: '/user/refresh/force',
    summary: 'The signed-in user, refreshing the platform token and skipping the cache',
    response: BearerUser,
  }),
  refreshUserBypass: defineCall({
    method: 'POST',
    path: '/user/refresh/bypass',
    summary: 'The signed-in user, skipping the cache',
    response: BearerUser,
  }),
  getSessions: defineCall({
    method: 'GET',
    path: '/user/sessions',
    summary: "The signed-in user's live sessions, newest first",
    response: z.array(SessionInfo),
  }),
  deleteSession: defineCall({
    method: 'DELETE',
    path: '/user/sessions/:sessionId',
    summary: 'Sign out one of your sessions (another browser or device)',
    params: z.object({ sessionId: z.uuid() }),
    response: null,
    status: 204,
  }),
  isAuthenticated: defineCall({
    method: 'POST',
    path: '/',
    summary: 'Resolve an access key to the identity it stands for; 401 when invalid',
    body: IsAuthenticatedRequest,
    response: Identity,
  }),
  getApiKey: defineCall({
    method: 'GET',
    path: '/api/:serverId',
    summary: "The server's API key, masked",
    params: ServerIdParams,
    response: ApiKeyInfo,
  }),
  createApiKey: defineCall({
    method: 'POST',
    path: '/api/:serverId',
    summary: "Create or reset the server's API key; the answer is the only time it is shown",
    params: ServerIdParams,
    response: ApiKeyResponse,
    status: 201,
  }),
  getApiKeyCalls: defineCall({
    method: 'GET',
    path: '/api/:serverId/calls',
    summary: "Calls made with the server's API key, newest first, and the key's rate limit",
    params: ServerIdParams,
    query: ApiKeyCallsQuery,
    response: ApiKeyCalls,
  }),
  deleteApiKey: defineCall({
    method: 'DELETE',
    path: '/api/:serverId',
    summary: "Delete the server's API key",
    params: ServerIdParams,
    response: null,
    status: 204,
  }),
};
