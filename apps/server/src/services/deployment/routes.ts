import { deploymentCalls } from '@ticket/contracts';
import { routesFor } from '../../http/route';
import type { ServiceContext } from '../context';

export async function deploymentRoutes({ app, config, services, resolver }: ServiceContext): Promise<void> {
  const { deployment } = services;
  const call = routesFor(app, 'deployment', deploymentCalls, resolver);
  // Checking a token costs requests to the platform, whose budget the whole bot shares.
  const fanOut = { rateLimit: { max: config.rateLimit.fanOut } };

  // The server's admins who signed in (SPEC §6: the white-label page is an admin's, Enterprise only), never its API key.
  const admin = { server: 'admin' } as const;
  call('getWhitelabel', admin, ({ params }) => deployment.get(params.serverId));
  call('createWhitelabel', admin, ({ params, body }, request) => deployment.create(request.caller, params.serverId, body), fanOut);
  call('updateWhitelabel', admin, ({ params, body }) => deployment.update(params.serverId, body), fanOut);
  call('deleteWhitelabel', admin, ({ params }) => deployment.delete(params.serverId));
  call('startWhitelabel', admin, ({ params }) => deployment.start(params.serverId));
  // The bot runner (and operators): every bot, their tokens, and what became of them.
  call('getWhitelabels', 'operator', ({ query }) => deployment.list(query));
  call('getWhitelabelsBulk', 'operator', ({ query, body }) => deployment.bulk(body.ids, query.includeToken === true));
  call('updateWhitelabelStatus', 'operator', ({ params, body }) => deployment.reportStatus(params.serverId, body));
}
