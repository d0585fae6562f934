import type { authCalls, BearerUser } from '../auth';
import { EX } from './fixtures';
import type { ExamplesOf } from './types';

const user: BearerUser = {
  authType: 'Bearer',
  servers: [
    {
      integrationType: 'Discord',
      serverId: EX.serverId,
      name: EX.serverName,
      role: 'Owner',
      subjects: [EX.billingSubjectId, EX.bugSubjectId],
      serverIcon: EX.iconUrl,
      nickname: null,
      avatarUrl: null,
    },
  ],
  userId: EX.ownerId,
  username: 'mira.codes',
  globalName: 'Mira',
  expires: '2025-04-13T09:26:53.000Z',
  uServers: [{ integrationType: 'Discord', serverId: EX.otherServerId, name: 'Night Owls', role: 'Admin', serverIcon: null }],
  avatarUrl: EX.avatarUrl,
};

export const authExamples: ExamplesOf<typeof authCalls> = {
  getLoginConfig: {
    response: {
      clientId: EX.clientId,
      authorizeUrl: 'https://discord.com/oauth2/authorize',
      scope: 'identify guilds email guilds.members.read',
      responseType: 'code',
      prompt: 'none',
      inviteUrl: 'https://discord.com/oauth2/authorize?client_id=1123456789012345678&scope=bot%20applications.commands',
    },
  },
  authenticate: {
    body: { code: 'NhhvTDYsFcdgNLnnLijcl7Ku7bEEeee', redirectUri: 'https://tickets.example.com/login/callback' },
    response: { user, token: 'tds_9f8e7d6c5b4a39281706f5e4d3c2b1a0Zx7Cv4Bn1Mq' },
  },
  logout: {},
  refreshUser: { response: user },
  refreshUserForce: { response: user },
  refreshUserBypass: { response: user },
  getSessions: {
    response: [
      {
        id: EX.sessionId,
        createdAt: EX.createdAt,
        lastUsedAt: EX.updatedAt,
        expiresAt: '2025-04-13T09:26:53.000Z',
        userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0 Safari/537.36',
        current: true,
      },
    ],
  },
  deleteSession: { params: { sessionId: EX.sessionId } },
  isAuthenticated: {
    body: { accessKey: 'tdk_4Fq9xY2mLp8ZrT6wNc3VbH7kJd1sGe5aQw0Er9TyUi3', type: 'ApiKey' },
    response: { authType: 'ApiKey', serverId: EX.serverId },
  },
  getApiKey: {
    params: { serverId: EX.serverId },
    response: { key: 'tdk_4Fq9xY…', createdAt: EX.createdAt, lastUsedAt: EX.updatedAt },
  },
  createApiKey: {
    params: { serverId: EX.serverId },
    response: { key: 'tdk_4Fq9xY2mLp8ZrT6wNc3VbH7kJd1sGe5aQw0Er9TyUi3' },
  },
  getApiKeyCalls: {
    params: { serverId: EX.serverId },
    query: { Page: 1, Amount: 25, status: 'error' },
    response: {
      page: 1,
      maxPage: 1,
      elements: [
        {
          at: EX.updatedAt,
          method: 'PATCH',
          route: '/api/settings/servers/:serverId/panels/:id',
          path: `/api/settings/servers/${EX.serverId}/panels/${EX.panelId}`,
          status: 400,
          durationMs: 12.4,
          keyPrefix: 'tdk_4Fq9xY',
          rateLimited: false,
        },
      ],
      limit: { max: 300, windowMs: 60_000 },
    },
  },
  deleteApiKey: { params: { serverId: EX.serverId } },
};
