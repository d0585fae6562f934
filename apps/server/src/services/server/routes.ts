import { serverDataCalls } from '@ticket/contracts';
import { routesFor } from '../../http/route';
import type { ServiceContext } from '../context';

export async function serverDataRoutes({ app, config, services, resolver }: ServiceContext): Promise<void> {
  const { serverData } = services;
  const call = routesFor(app, 'server', serverDataCalls, resolver);
  const staff = { server: 'staff', apiKey: true } as const;
  // User lookups cost a platform request per user, from the budget the whole bot shares.
  const fanOut = { rateLimit: { max: config.rateLimit.fanOut } };

  call('getServersBulk', 'any', ({ body }, request) => serverData.getServersBulk(request.caller, body.ids));
  call('createServer', 'operator', ({ body }) => serverData.createServer(body));
  call('getServer', staff, ({ params, query }) => serverData.getServer(params.serverId, query.clearCache ?? false));
  call('getServerChannels', staff, ({ params, query }) => serverData.getChannels(params.serverId, query.clearCache ?? false));
  call('getServerEmojis', staff, ({ params, query }) => serverData.getEmojis(params.serverId, query.clearCache ?? false));
  call('getServerRoles', staff, ({ params, query }) => serverData.getRoles(params.serverId, query.clearCache ?? false));
  call('getTestimonials', 'open', () => serverData.getTestimonials());
  call('getUsersBulk', { ...staff, from: 'query' }, ({ query, body }) => serverData.getMembers(query.serverId, body.ids), fanOut);
  call('getUser', { ...staff, from: 'query' }, ({ params, query }) => serverData.getUser(params.id, query.serverId));
  call('getUsers', 'any', ({ body }, request) => serverData.getUsers(request.caller, body), fanOut);
  call('searchUsers', { ...staff, from: 'body' }, ({ body }) => serverData.searchMembers(body.serverId, body.term), fanOut);
}
