import type { FastifyInstance } from 'fastify';
import { removeChannel } from './api-channel-management.ts';
import { ControlError, controlBody, requireId } from './control-error.ts';
import { answer } from './control-interactions.ts';
import { memberContext } from './member-context.ts';
import { deleteMemberMessage, editMemberMessage } from './member-message-actions.ts';
import { hasPermission } from './permissions.ts';
import { memberReact, memberRemoveReactions } from './reactions.ts';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { SandboxState } from './state.ts';

type MessageRoute = { Params: { channelId: string; messageId: string }; Querystring: Record<string, string | undefined>; Body: unknown };
type ChannelRoute = { Params: { channelId: string }; Querystring: Record<string, string | undefined>; Body: unknown };

/** DELETE requests may carry their fields in the query string, since many clients send no body with them. */
function fields(request: { query: Record<string, string | undefined>; body: unknown }): Record<string, unknown> {
  const body = controlBody(request.body);
  const query = Object.fromEntries(Object.entries(request.query).filter(([, v]) => v !== undefined));
  return { ...query, ...body, ...(query.all === 'true' ? { all: true } : {}) };
}

function checkIds(params: Record<string, string>): void {
  for (const [name, value] of Object.entries(params)) if (!/^\d{1,20}$/.test(value)) throw new ControlError(400, `${name} must be a snowflake`);
}

/**
 * What members do to messages and channels by hand, each of which the gateway hears about:
 * editing and deleting messages, reacting, and deleting a channel.
 */
export function registerMessageControlRoutes(app: FastifyInstance, state: SandboxState, prefix: string): void {
  const message = `${prefix}/channels/:channelId/messages/:messageId`;

  app.patch<MessageRoute>(message, async (request, reply) =>
    answer(reply, 200, async () => {
      checkIds(request.params);
      return { message: editMemberMessage(state, request.params.channelId, request.params.messageId, request.body) };
    }),
  );

  app.delete<MessageRoute>(message, async (request, reply) =>
    answer(reply, 200, async () => {
      checkIds(request.params);
      deleteMemberMessage(state, request.params.channelId, request.params.messageId, fields(request));
      return { deleted: true };
    }),
  );

  app.post<MessageRoute>(`${message}/reactions`, async (request, reply) =>
    answer(reply, 200, async () => {
      checkIds(request.params);
      return memberReact(state, request.params.channelId, request.params.messageId, request.body);
    }),
  );

  app.delete<MessageRoute>(`${message}/reactions`, async (request, reply) =>
    answer(reply, 200, async () => {
      checkIds(request.params);
      return memberRemoveReactions(state, request.params.channelId, request.params.messageId, fields(request));
    }),
  );

  /** A member with Manage Channels deletes the channel in the client; the audit log names them. */
  app.delete<ChannelRoute>(`${prefix}/channels/:channelId`, async (request, reply) =>
    answer(reply, 200, async () => {
      checkIds(request.params);
      const body = fields(request);
      const userId = requireId(body, 'userId');
      const found = state.findChannel(request.params.channelId);
      if (!found) throw new ControlError(404, `unknown channel ${request.params.channelId}`);
      const { guild, channel, user, permissions } = memberContext(state, found.guild.id, found.channel.id, userId);
      if (!hasPermission(permissions, PermissionFlagsBits.ManageChannels)) {
        throw new ControlError(403, `Missing Permissions: ${user.username} cannot delete #${channel.name} (no Manage Channels)`);
      }
      const reason = typeof body.reason === 'string' && body.reason !== '' ? body.reason : null;
      return { channel: removeChannel(state, guild, channel, userId, reason) };
    }),
  );
}
