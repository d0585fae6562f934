import Fastify, { type FastifyInstance } from 'fastify';

export interface Received {
  method: string;
  path: string;
  body: unknown;
  status: number;
  /** The Authorization header it came with (tells apart runtimes reporting with different keys). */
  authorization: string | null;
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
