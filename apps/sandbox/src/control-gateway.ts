import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Gateway, GatewaySession } from './gateway.ts';

type SessionRoute = { Params: { sessionId: string }; Body: unknown };

/**
 * Levers on gateway sessions for tests: list them, ask one to reconnect (op 7), drop its
 * connection without a close frame, or invalidate it (op 9).
 */
export function registerGatewayControlRoutes(app: FastifyInstance, gateway: Gateway, prefix: string): void {
  const base = `${prefix}/gateway/sessions`;

  const sessionOr404 = (reply: FastifyReply, id: string): GatewaySession | null => {
    const session = gateway.session(id);
    if (!session) void reply.code(404).send({ error: `no gateway session ${id} (unknown, invalidated or past its resume window)` });
    return session;
  };
  const notConnected = (reply: FastifyReply, id: string) => reply.code(409).send({ error: `gateway session ${id} has no open connection` });

  app.get(`${prefix}/gateway`, async () => ({
    heartbeatIntervalMs: gateway.heartbeatIntervalMs,
    heartbeatTimeoutMs: gateway.heartbeatTimeoutMs,
    resumeWindowMs: gateway.resumeWindowMs,
    sessions: gateway.listSessions(),
  }));

  app.get(base, async () => ({ sessions: gateway.listSessions() }));

  app.post<SessionRoute>(`${base}/:sessionId/reconnect`, async (request, reply) => {
    const session = sessionOr404(reply, request.params.sessionId);
    if (!session) return reply;
    if (!gateway.requestReconnect(session)) return notConnected(reply, session.id);
    return { sessionId: session.id, sent: 'RECONNECT' };
  });

  app.post<SessionRoute>(`${base}/:sessionId/drop`, async (request, reply) => {
    const session = sessionOr404(reply, request.params.sessionId);
    if (!session) return reply;
    if (!gateway.drop(session)) return notConnected(reply, session.id);
    return { sessionId: session.id, dropped: true };
  });

  app.post<SessionRoute>(`${base}/:sessionId/invalidate`, async (request, reply) => {
    const session = sessionOr404(reply, request.params.sessionId);
    if (!session) return reply;
    const body = (request.body ?? {}) as { resumable?: unknown };
    if (body.resumable !== undefined && typeof body.resumable !== 'boolean') return reply.code(400).send({ error: 'resumable must be a boolean' });
    gateway.invalidate(session, body.resumable === true);
    return { sessionId: session.id, sent: 'INVALID_SESSION', resumable: body.resumable === true };
  });
}
