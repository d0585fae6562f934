import type { REST } from '@discordjs/rest';
import { WebSocketManager } from '@discordjs/ws';
import { GatewayIntentBits } from 'discord-api-types/v10';
import type { SessionStore } from './session-store';

/**
 * What the runtime listens to. GuildMembers and MessageContent are privileged: enable "Server
 * Members Intent" and "Message Content Intent" for the application in the developer portal.
 */
export const GATEWAY_INTENTS =
  GatewayIntentBits.Guilds |
  GatewayIntentBits.GuildMembers |
  GatewayIntentBits.GuildMessages |
  GatewayIntentBits.MessageContent |
  GatewayIntentBits.GuildMessageReactions |
  GatewayIntentBits.DirectMessages;

export interface GatewayOptions {
  token: string;
  rest: REST;
  shardCount: number | null;
  shardIds: number[] | null;
  sessions: SessionStore;
}

/** The bot's gateway sessions: @discordjs/ws connects, beats, resumes and shards; sessions survive restarts. */
export function createGateway(options: GatewayOptions): WebSocketManager {
  return new WebSocketManager({
    token: options.token,
    intents: GATEWAY_INTENTS,
    rest: options.rest,
    shardCount: options.shardCount,
    shardIds: options.shardIds,
    retrieveSessionInfo: (shardId) => options.sessions.retrieve(shardId),
    updateSessionInfo: (shardId, info) => options.sessions.update(shardId, info),
  });
}
