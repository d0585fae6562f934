import Fastify, { type FastifyInstance } from 'fastify';

export interface Received {
  method: string;
  path: string;
  body: unknown;
  status: number;
  /** The Authorization header it came with (tells apart runtimes reporting with different keys). */
  authorization: string | null;
}

/** A white-label bot as the fake deployment service keeps it (the token is handed to the runtime). */
export interface FakeWhitelabel {
  serverId: string;
  userId: string;
  clientId: string;
  name: string;
  activity: string | null;
  status: 'NotRunning' | 'Starting' | 'Running' | 'Failed';
  statusMessage: string | null;
  revision: number;
  token: string;
}

export interface TicketChannelEntry {
  channelId: string;
  ticketId: string;
  subjectId: string;
}

/**
 * A stand-in for the Ticket API's routes the runtime calls, recording every request. A repeated
 * externalId answers 200 as the real API does; it can be stopped and started again on its port.
 */
export class FakeTicketApi {
  readonly received: Received[] = [];
  readonly ticketChannels = new Map<string, TicketChannelEntry[]>();
  /** White-label bots by server id, as the deployment service's list and bulk calls answer them. */
  readonly whitelabels = new Map<string, FakeWhitelabel>();
  /** The operator keys it accepts (`Admin <key>`); any other answers 401. */
  readonly keys = new Set(['test-operator-key']);
  private app: FastifyInstance | null = null;
  private readonly seenExternalIds = new Set<string>();
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Requests other than the ticket-channel lists, optionally of one method and path suffix. */
  reports(filter: { method?: string; pathEndsWith?: string } = {}): Received[] {
    return this.received.filter(
      (r) => !r.path.endsWith('/ticket-channels') && (!filter.method || r.method === filter.method) && (!filter.pathEndsWith || r.path.endsWith(filter.pathEndsWith)),
    );
  }

  /** The contents of the messages posted, in the order they arrived (repeats included). */
  postedContents(): string[] {
    return this.reports({ method: 'POST', pathEndsWith: '/messages' }).map((r) => (r.body as { message: { content: string } }).message.content);
  }

  async start(port = this.port): Promise<void> {
    const app = Fastify({ logger: false, forceCloseConnections: true });
    app.addHook('onResponse', async (request, reply) => {
      this.received.push({
        method: request.method,
        path: request.url.split('?')[0]!,
        body: request.body ?? null,
        status: reply.statusCode,
        authorization: request.headers.authorization ?? null,
      });
    });
    app.addHook('onRequest', async (request, reply) => {
      const [scheme, key] = (request.headers.authorization ?? '').split(' ');
      if (scheme !== 'Admin' || key === undefined || !this.keys.has(key)) return reply.code(401).send({ statusCode: 401, code: 'unauthorized', message: 'no' });
    });
    app.get<{ Params: { serverId: string } }>('/api/support/servers/:serverId/ticket-channels', async (request) => ({
      channels: this.ticketChannels.get(request.params.serverId) ?? [],
    }));
    app.post<{ Params: { ticketId: string }; Body: { externalId?: string; message: unknown } }>('/api/support/servers/:serverId/tickets/:ticketId/messages', async (request, reply) => {
      const key = `${request.params.ticketId}:${request.body.externalId}`;
      const repeat = this.seenExternalIds.has(key);
      this.seenExternalIds.add(key);
      return reply.code(repeat ? 200 : 201).send({ messageId: key });
    });
    app.put('/api/support/servers/:serverId/tickets/:ticketId/messages/:messageId', async () => ({}));
    app.delete('/api/support/servers/:serverId/tickets/:ticketId/messages/:messageId', async (_request, reply) => reply.code(204).send());
    app.post('/api/support/servers/:serverId/tickets/:ticketId/messages/:messageId/reactions', async () => []);
    app.delete('/api/support/servers/:serverId/tickets/:ticketId/messages/:messageId/reactions', async () => []);
    app.post('/api/support/servers/:serverId/events', async (_request, reply) => reply.code(204).send());
    app.post('/api/files/files/clone', async (_request, reply) => reply.code(201).send({}));
    app.post('/api/support/interactions', async () => ({ type: 4, data: { content: 'Handled by the fake API', flags: 64 } }));
    const entry = (bot: FakeWhitelabel, includeToken: boolean) => {
      const { token, ...rest } = bot;
      return { ...rest, avatarUrl: null, ...(includeToken ? { token } : {}) };
    };
    app.get<{ Querystring: Record<string, string> }>('/api/deployment/whitelabel', async (request) => {
      const { shardId, shardCount, includeToken } = request.query;
      const page = Number(request.query.Page ?? 1);
      const amount = Number(request.query.Amount ?? 100);
      const all = [...this.whitelabels.values()]
        .filter((b) => shardId === undefined || Number((BigInt(b.serverId) >> 22n) % BigInt(shardCount!)) === Number(shardId))
        .sort((a, b) => (a.serverId < b.serverId ? -1 : 1));
      return {
        page,
        maxPage: Math.max(1, Math.ceil(all.length / amount)),
        elements: all.slice((page - 1) * amount, page * amount).map((b) => entry(b, includeToken === 'true')),
      };
    });
    app.post<{ Querystring: Record<string, string>; Body: { ids: string[] } }>('/api/deployment/whitelabel/bulk', async (request) =>
      request.body.ids.flatMap((id) => (this.whitelabels.has(id) ? [entry(this.whitelabels.get(id)!, request.query.includeToken === 'true')] : [])),
    );
    app.put<{ Params: { serverId: string }; Body: { status: FakeWhitelabel['status']; reason?: string | null; revision?: number } }>(
      '/api/deployment/whitelabel/:serverId/status',
      async (request, reply) => {
        const bot = this.whitelabels.get(request.params.serverId);
        if (!bot) return reply.code(404).send({ statusCode: 404, code: 'not_found', message: 'This server has no white-label bot' });
        if (request.body.revision !== undefined && request.body.revision !== bot.revision) return reply.code(409).send({ statusCode: 409, code: 'conflict', message: 'revision' });
        bot.status = request.body.status;
        bot.statusMessage = request.body.reason ?? null;
        return reply.code(204).send();
      },
    );
    await app.listen({ port, host: '127.0.0.1' });
    const address = app.server.address();
    this.port = typeof address === 'object' && address ? address.port : port;
    this.app = app;
  }

  /** The API goes away: connections are refused until `start()`. */
  async stop(): Promise<void> {
    await this.app?.close();
    this.app = null;
  }
}
