import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InteractionResponseType, MessageFlags } from 'discord-api-types/v10';
import type { RESTPostAPIInteractionCallbackWithResponseResult } from 'discord-api-types/v10';
import { parseBooleanQuery } from './api-query.ts';
import type { Query } from './api-query.ts';
import { unknownInteraction, unknownWebhook } from './errors.ts';
import { applyInitialResponse, createFollowUp, editTokenMessage, tokenMessage } from './interaction-responses.ts';
import { markMessageDeleted } from './message-edits.ts';
import type { InteractionRecord, SandboxState } from './state.ts';

type CallbackRoute = { Params: { interactionId: string; token: string }; Querystring: Query; Body: unknown };
type WebhookRoute<Extra = object> = { Params: { applicationId: string; token: string } & Extra; Querystring: Query; Body: unknown };

/**
 * Interaction responses and follow-ups. Like Discord, these take no Authorization header: the
 * token in the path is the credential, valid for 15 minutes.
 */
export function registerInteractionRoutes(api: FastifyInstance, state: SandboxState): void {
  api.post<CallbackRoute>('/interactions/:interactionId/:token/callback', async (request, reply) => {
    const record = state.interactionByToken(request.params.token);
    if (!record || record.id !== request.params.interactionId) throw unknownInteraction();
    applyInitialResponse(state, record, request.body);
    if (!parseBooleanQuery(request.query, 'with_response')) return reply.code(204).send();
    return callbackResult(state, record);
  });

  /**
   * The interaction's webhook exists once the interaction has been answered; before that, and
   * for an unknown or expired token or another application's id, Discord says Unknown Webhook.
   */
  const webhook = (request: FastifyRequest<WebhookRoute>): InteractionRecord => {
    const record = state.interactionByToken(request.params.token);
    if (!record || !record.acknowledged || request.params.applicationId !== record.applicationId) throw unknownWebhook();
    return record;
  };

  api.post<WebhookRoute>('/webhooks/:applicationId/:token', async (request) => {
    const record = webhook(request);
    return createFollowUp(state, record, request.body);
  });

  api.get<WebhookRoute<{ messageId: string }>>('/webhooks/:applicationId/:token/messages/:messageId', async (request) => {
    const record = webhook(request);
    return structuredClone(tokenMessage(state, record, request.params.messageId).message);
  });

  api.patch<WebhookRoute<{ messageId: string }>>('/webhooks/:applicationId/:token/messages/:messageId', async (request) => {
    const record = webhook(request);
    return editTokenMessage(state, record, request.params.messageId, request.body);
  });

  api.delete<WebhookRoute<{ messageId: string }>>('/webhooks/:applicationId/:token/messages/:messageId', async (request, reply) => {
    const record = webhook(request);
    const stored = tokenMessage(state, record, request.params.messageId);
    markMessageDeleted(state, stored);
    return reply.code(204).send();
  });
}

/** The `?with_response=true` answer: which interaction was answered and what it created. */
function callbackResult(state: SandboxState, record: InteractionRecord): RESTPostAPIInteractionCallbackWithResponseResult {
  const type = record.responseType!;
  const result: RESTPostAPIInteractionCallbackWithResponseResult = { interaction: { id: record.id, type: record.type }, resource: { type } };
  const original = record.originalMessageId ? state.anyMessage(record.originalMessageId) : null;
  if (type === InteractionResponseType.ChannelMessageWithSource || type === InteractionResponseType.UpdateMessage) {
    if (original) {
      result.interaction.response_message_id = original.message.id;
      result.interaction.response_message_loading = false;
      result.interaction.response_message_ephemeral = ((original.message.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
      result.resource!.message = structuredClone(original.message);
    }
  } else if (type === InteractionResponseType.DeferredChannelMessageWithSource) {
    result.interaction.response_message_loading = true;
    result.interaction.response_message_ephemeral = (record.deferredFlags & MessageFlags.Ephemeral) !== 0;
  }
  return result;
}
