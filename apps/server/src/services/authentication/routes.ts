import { authCalls } from '@ticket/contracts';
import type { FastifyRequest } from 'fastify';
import { routesFor } from '../../http/route';
import type { ServiceContext } from '../context';

const meta = (request: FastifyRequest) => ({ userAgent: request.headers['user-agent'] ?? null, ip: request.ip });

export async function authenticationRoutes({ app, config, services, resolver }: ServiceContext): Promise<void> {
  const { auth } = services;
  const call = routesFor(app, 'authentication', authCalls, resolver);
  // Each of these costs requests to the platform, whose budget the whole bot shares.
  const fanOut = { rateLimit: { max: config.rateLimit.fanOut } };

  call('getLoginConfig', 'open', () => auth.loginConfig());
  call('authenticate', 'open', ({ body }, request) => auth.signIn(body, meta(request)), fanOut);
  call('logout', 'signedIn', (_, request) => auth.logout(request.caller));
  call('refreshUser', 'signedIn', (_, request) => auth.refresh(request.caller, 'normal'));
  call('refreshUserBypass', 'signedIn', (_, request) => auth.refresh(request.caller, 'bypass_cache'), fanOut);
  call('refreshUserForce', 'signedIn', (_, request) => auth.refresh(request.caller, 'force'), fanOut);
  call('getSessions', 'signedIn', (_, request) => auth.listSessions(request.caller));
  call('deleteSession', 'signedIn', ({ params }, request) => auth.deleteSession(request.caller, params.sessionId));
  call('isAuthenticated', 'open', ({ body }) => auth.identify(body));
  call('getApiKey', { server: 'admin' }, ({ params }) => auth.getApiKey(params.serverId));
  call('createApiKey', { server: 'admin' }, ({ params }, request) => auth.createApiKey(params.serverId, request.caller));
  call('deleteApiKey', { server: 'admin' }, ({ params }) => auth.deleteApiKey(params.serverId));
  // The key itself may read its own calls (and its limit), as a script watching its budget would.
  call('getApiKeyCalls', { server: 'admin', apiKey: true }, ({ params, query }) => auth.getApiKeyCalls(params.serverId, query));
}
