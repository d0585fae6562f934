import { supportCalls } from '@ticket/contracts';
import { ConflictError, UnauthorizedError } from '../../http/errors';
import { ResponseCache } from '../../http/response-cache';
import { keepRawJsonBody } from '../../http/raw-json-body';
import { routesFor } from '../../http/route';
import { INTERACTION_MAX_SKEW_SECONDS, isFreshInteraction } from '../../platform/interaction-signature';
import type { ServiceContext } from '../context';
import type { WhitelabelLookup } from '../deployment';
import { verifyInteraction, type InteractionKeys } from './interactions-verify';

export async function supportRoutes({ app, config, cache, services, resolver }: ServiceContext): Promise<void> {
  const { support, stats, interactions, ticketOpening, ticketHandling, ticketClosing, events } = services;
  const call = routesFor(app, 'support', supportCalls, resolver);

  const whitelabels: WhitelabelLookup = services.deployment;
  const interactionKeys: InteractionKeys = {
    main: { applicationId: config.platform.clientId, publicKey: config.platform.publicKey },
    whitelabelKey: (applicationId) => whitelabels.applicationPublicKey(applicationId),
  };
  // Signatures cover the body as received.
  keepRawJsonBody(app);
  call('handleInteraction', 'open', ({ body }) => interactions.handle(body), {
    preValidation: async (request) => {
      const signature = request.headers['x-signature-ed25519'];
      const timestamp = request.headers['x-signature-timestamp'];
      // Signed by the application it names: the main bot's, or a white-label bot's (its own key).
      const applicationId = (request.body as { application_id?: unknown } | undefined)?.application_id;
      await verifyInteraction(interactionKeys, applicationId, signature as string | undefined, timestamp as string | undefined, request.rawBody ?? '');
      // A captured interaction sent again: too old by its signed time, or already seen by its id.
      if (!isFreshInteraction(timestamp as string)) throw new UnauthorizedError('The interaction’s signed timestamp is more than 5 minutes from now');
      const id = (request.body as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string') {
        if (await cache.get(`interaction:${id}`)) throw new ConflictError(`Interaction ${id} was already received`);
        await cache.set(`interaction:${id}`, 1, INTERACTION_MAX_SKEW_SECONDS * 2);
      }
    },
    // Every interaction comes from the platform's few addresses: limit them per application.
    rateLimit: {
      max: config.rateLimit.max * 10,
      hook: 'preHandler',
      keyGenerator: (request) => `app:${String((request.body as { application_id?: unknown } | undefined)?.application_id ?? request.ip)}`,
    },
  });
  const staff = { server: 'staff', apiKey: true } as const;

  // A list, a search or a ticket is asked for again and again (every focus of the dashboard's tab,
  // every staff member on the same server, an open ticket's polling); while nothing in the server
  // changed, the answer sent is the answer.
  const lists = config.listCacheMb > 0 ? new ResponseCache(config.listCacheMb * 2 ** 20, config.platformCacheTtlSeconds * 1000) : null;
  const reused = lists ? { cached: { cache: lists, version: ({ params }: { params: { serverId: string } }) => support.listVersion(params.serverId) } } : {};
  call('getServerTickets', staff, ({ params, query }) => support.list(params.serverId, query), reused);
  call('searchServerTickets', staff, ({ params, query, body }) => support.search(params.serverId, query, body.text), reused);
  call('createTicket', staff, ({ params, body }) => ticketOpening.createTicket(params.serverId, body));
  // An open ticket's page asks for it every few seconds: the same cache, by the same counter.
  call('getServerTicket', staff, ({ params }) => ticketHandling.getTicket(params.serverId, params.ticketId), reused);
  call('updateTicket', staff, ({ params, body }) => ticketClosing.updateTicket(params.serverId, params.ticketId, body));
  call('deleteTicket', { server: 'admin', apiKey: true }, ({ params }) => ticketClosing.deleteTicket(params.serverId, params.ticketId));
  call('addTicketMember', staff, ({ params, body }) => ticketOpening.addMember(params.serverId, params.ticketId, body.userId));
  call('removeTicketMember', staff, ({ params, body }) => ticketHandling.removeMember(params.serverId, params.ticketId, body.userId));
  call('createTicketMessage', staff, ({ params, body }, request) => ticketHandling.recordMessage(request.caller, params.serverId, params.ticketId, body));
  call('updateTicketMessage', staff, ({ params, body }) => support.editMessage(params.serverId, params.ticketId, params.messageId, body));
  call('deleteTicketMessage', staff, ({ params }) => support.deleteMessage(params.serverId, params.ticketId, params.messageId));
  call('addReaction', staff, ({ params, body }) => support.addReaction(params.serverId, params.ticketId, params.messageId, body));
  call('removeReaction', staff, ({ params, body }) => support.removeReaction(params.serverId, params.ticketId, params.messageId, body));
  call('getSupportSubjects', staff, ({ params, query }) => support.supportSubjects(params.serverId, query.Page, query.Amount));
  // The bot runtime's reports from the gateway.
  call('handleGatewayInteraction', 'operator', ({ body }) => interactions.handle(body));
  call('handlePlatformEvent', 'operator', ({ params, body }) => events.report(params.serverId, body));
  call('getTicketChannels', 'operator', ({ params }) => ticketHandling.ticketChannels(params.serverId));
  call('getSubjectTicketCount', 'operator', ({ params }) => support.subjectCount(params.subjectId));

  call('getDailyTicketStats', staff, ({ params, query }) => stats.dailyTickets(params.serverId, query.startDate, query.endDate));
  call('getDailyMessageStats', staff, ({ params, query }) => stats.dailyMessages(params.serverId, query.startDate, query.endDate));
  call('getDailyResponseTimeStats', staff, ({ params, query }) => stats.dailyResponseTime(params.serverId, query.startDate, query.endDate));
  // Open to anyone: the landing page's totals (counter reads), and the statistics a server's
  // admins made public. Browsers and proxies may keep either briefly.
  call('getPublicStats', 'open', async (_input, _request, reply) => {
    reply.header('cache-control', 'public, max-age=30');
    return stats.installation();
  });
  const publicStats = lists
    ? {
        cached: {
          cache: lists,
          // Switching the statistics off takes effect at once: the choice is part of the version.
          version: async ({ params }: { params: { serverId: string } }) => `${await support.listVersion(params.serverId)}:${await stats.isPublic(params.serverId)}`,
        },
      }
    : {};
  call('getPublicServerStats', 'open', ({ params }) => stats.publicServer(params.serverId), publicStats);
  call('getTopSimpleStats', staff, ({ params }) => stats.simple(params.serverId));
  call('getTopSubjects', staff, ({ params, query }) => stats.topSubjects(params.serverId, query.Page, query.Amount, query.startDate, query.endDate));
  call('getTopSupporters', staff, ({ params, query }) => stats.topSupporters(params.serverId, query.Page, query.Amount, query.startDate, query.endDate));

  call('getPersonalTickets', 'signedIn', ({ query }, request) => support.personal(request.caller, query));
  call('searchPersonalTickets', 'signedIn', ({ query, body }, request) => support.personalSearch(request.caller, query, body.text));
  call('getPersonalTicketServers', 'signedIn', ({ query }, request) => support.personalServers(request.caller, query.Page, query.Amount));
  call('getPersonalTicketSubjects', 'signedIn', ({ params, query }, request) =>
    support.personalSubjects(request.caller, params.serverId, query.Page, query.Amount),
  );
  call('getPersonalTicket', 'signedIn', ({ params }, request) => support.personalTicket(request.caller, params.ticketId));
}
