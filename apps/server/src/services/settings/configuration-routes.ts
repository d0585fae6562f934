import { configurationCalls } from '@ticket/contracts';
import type { FastifyInstance } from 'fastify';
import { routesFor, type AuthResolver } from '../../http/route';
import type { ConfigurationService } from './configuration-service';

/** The configuration file, on the settings base: the server's admins and its API key, as for every other settings write. */
export function configurationRoutes(app: FastifyInstance, configuration: ConfigurationService, resolver: AuthResolver): void {
  const call = routesFor(app, 'settings', configurationCalls, resolver);
  const admin = { server: 'admin', apiKey: true } as const;

  call('getConfiguration', admin, ({ params }) => configuration.export(params.serverId));
  call('getConfigurationChanges', admin, ({ params, body }) => configuration.preview(params.serverId, body));
  call('updateConfiguration', admin, ({ params, body }, request) => configuration.apply(request.caller, params.serverId, body));
}
