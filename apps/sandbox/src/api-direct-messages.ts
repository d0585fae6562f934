import type { FastifyInstance } from 'fastify';
import { ChannelType, MessageType, RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { APIDMChannel, APIMessage } from 'discord-api-types/v10';
import { requireBot } from './api-auth.ts';
import type { Application } from './applications.ts';
import { DiscordApiError, fieldError, invalidFormBody, missingAccess, unknownUser } from './errors.ts';
import { isRecord } from './form-validation.ts';
import { validateCreateMessage } from './message-validation.ts';
import { publishDirectMessage } from './platform-events.ts';
import { discordTimestamp } from './snowflake.ts';
import type { SandboxState } from './state.ts';

/** A direct message the bot sent a user, as `GET /_sandbox/direct-messages` lists it. */
export interface DirectMessage {
  /** The application whose bot sent it. */
  applicationId: string;
  channelId: string;
  recipientId: string;
  message: APIMessage;
}

const cannotMessageUser = () => new DiscordApiError(403, 'Cannot send messages to this user', RESTJSONErrorCodes.CannotSendMessagesToThisUser);

function dmChannel(state: SandboxState, channelId: string, recipientId: string): APIDMChannel {
  const recipient = state.publicUser(recipientId)!;
  return { id: channelId, type: ChannelType.DM, last_message_id: null, recipients: [recipient], name: null };
}

/**
 * The bot's direct messages: `POST /users/@me/channels` opens (or finds) the DM channel with a
 * user, and a message posted there reaches the user, as on the platform, only when they share a
 * server with the bot (otherwise 50007 Cannot send messages to this user).
 */
export function registerDirectMessageRoutes(api: FastifyInstance, state: SandboxState): void {
  api.post('/users/@me/channels', async (request) => {
    const app = requireBot(state, request);
    const body = request.body;
    const recipientId = isRecord(body) && typeof body.recipient_id === 'string' ? body.recipient_id : null;
    if (!recipientId) throw invalidFormBody(fieldError(['recipient_id'], 'BASE_TYPE_REQUIRED', 'This field is required'));
    if (!state.users.has(recipientId)) throw unknownUser();
    // Each bot has its own DM channel with a user.
    let channelId = [...state.dmChannels].find(([, dm]) => dm.recipientId === recipientId && dm.applicationId === app.clientId)?.[0];
    if (!channelId) {
      channelId = state.nextId();
      state.dmChannels.set(channelId, { recipientId, applicationId: app.clientId });
    }
    return dmChannel(state, channelId, recipientId);
  });
}

/** Whether the id is a DM channel the bot opened. */
export const isDmChannel = (state: SandboxState, channelId: string): boolean => state.dmChannels.has(channelId);

/** POST /channels/{id}/messages for a DM channel; only its own bot may post there (another gets Missing Access). */
export function postDirectMessage(state: SandboxState, app: Application, channelId: string, body: unknown): APIMessage {
  const { recipientId, applicationId } = state.dmChannels.get(channelId)!;
  if (applicationId !== app.clientId) throw missingAccess();
  if (!state.guildsOf(recipientId).some((guild) => state.isBotIn(guild, app))) throw cannotMessageUser();
  const draft = validateCreateMessage(body);
  const message: APIMessage = {
    id: state.nextId(),
    type: MessageType.Default,
    channel_id: channelId,
    author: state.botUser(app),
    content: draft.content,
    timestamp: discordTimestamp(state.now()),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: draft.embeds,
    components: draft.components,
    pinned: false,
    flags: draft.flags,
  };
  state.directMessages.push({ applicationId: app.clientId, channelId, recipientId, message });
  publishDirectMessage(state, app, message);
  return structuredClone(message);
}
