import type { FastifyInstance, FastifyReply } from 'fastify';
import { ControlError, controlBody, requireId } from './control-error.ts';
import { describeInteraction, describeModal } from './interaction-views.ts';
import { clickComponent, dismissModal, submitModal } from './member-interactions.ts';
import { postMemberMessage } from './member-messages.ts';
import { applyConfigureOptions, checkConfigureOptions, describeConfig } from './sandbox-config.ts';
import { compareSnowflakes } from './snowflake.ts';
import type { SandboxState } from './state.ts';

/** Answers a ControlError as `{ error }` with its status; anything else is a bug and goes to the error handler. */
export async function answer(reply: FastifyReply, status: number, run: () => Promise<unknown>): Promise<FastifyReply> {
  try {
    const body = await run();
    return reply.code(status).send(body);
  } catch (error) {
    if (error instanceof ControlError) return reply.code(error.status).send({ error: error.message });
    throw error;
  }
}

/**
 * Control routes that act for members (clicks, modal submits, messages) and wire the sandbox to
 * the product (interactions endpoint). Registered under the control prefix.
 */
export function registerInteractionControlRoutes(app: FastifyInstance, state: SandboxState, prefix: string): void {
  app.get(`${prefix}/config`, async () => describeConfig(state));

  app.put<{ Body: unknown }>(`${prefix}/config`, async (request, reply) => {
    const checked = checkConfigureOptions(request.body ?? {});
    if (!checked.ok) return reply.code(400).send({ error: checked.error });
    applyConfigureOptions(state, checked.value);
    return describeConfig(state);
  });

  app.post<{ Body: unknown }>(`${prefix}/interactions/component`, async (request, reply) => answer(reply, 200, () => clickComponent(state, request.body)));

  app.post<{ Body: unknown }>(`${prefix}/interactions/modal`, async (request, reply) => answer(reply, 200, () => submitModal(state, request.body)));

  app.post<{ Body: unknown }>(`${prefix}/interactions/modal/dismiss`, async (request, reply) =>
    answer(reply, 200, async () => ({ dismissed: dismissModal(state, requireId(controlBody(request.body), 'userId')) })),
  );

  app.get<{ Querystring: Record<string, string | undefined> }>(`${prefix}/interactions`, async (request) => {
    const { userId, channelId } = request.query;
    const matches = (r: { userId: string; channelId: string }) => (!userId || r.userId === userId) && (!channelId || r.channelId === channelId);
    return {
      interactions: [...state.interactions.values()]
        .filter(matches)
        .sort((a, b) => compareSnowflakes(a.id, b.id))
        .map((r) => describeInteraction(state, r)),
      openModals: [...state.openModals.values()].filter(matches).map((m) => describeModal(state, m)),
    };
  });

  app.post<{ Params: { channelId: string }; Body: unknown }>(`${prefix}/channels/:channelId/messages`, async (request, reply) =>
    answer(reply, 201, async () => {
      if (!/^\d{1,20}$/.test(request.params.channelId)) throw new ControlError(400, 'channelId must be a snowflake');
      return postMemberMessage(state, request.params.channelId, request.body, `${request.protocol}://${request.host}`);
    }),
  );
}
