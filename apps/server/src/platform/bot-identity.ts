import { DiscordAPIError, RateLimitError, REST } from '@discordjs/rest';
import { Routes, type APIApplication, type APIUser } from 'discord-api-types/v10';
import type { PlatformConfig } from '../config';
import { BadRequestError, RateLimitedError, UpstreamError } from '../http/errors';
import { restOptionsOf } from './discord';

/** Who a bot token belongs to, as the platform says. */
export interface BotIdentity {
  userId: string;
  /** The bot user's name. */
  name: string;
  /** The bot user's avatar hash. */
  avatar: string | null;
  /** The application's id (its client id, for the invite link). */
  clientId: string;
  applicationName: string;
  /** Hex of the application's Ed25519 public key (`verify_key`): its interactions are signed with it. */
  publicKey: string;
}

/** The platform does not accept the token (unknown, reset or revoked): SPEC §5's 'Invalid token'. */
export class InvalidBotTokenError extends BadRequestError {
  constructor() {
    super('Invalid token', 'token');
  }
}

/**
 * Reads who a bot token belongs to with a REST client made for that token alone (the configured
 * API base, so the sandbox stands in): the bot user (`GET /users/@me`) and its application
 * (`GET /applications/@me`). The client is thrown away afterwards, so the token is kept nowhere.
 * A 401 is an invalid token; anything else that goes wrong is the platform's (429 or 502).
 */
export async function readBotIdentity(config: PlatformConfig, token: string): Promise<BotIdentity> {
  const rest = new REST(restOptionsOf(config)).setToken(token);
  try {
    const [user, application] = await Promise.all([rest.get(Routes.user()) as Promise<APIUser>, rest.get(Routes.currentApplication()) as Promise<APIApplication>]);
    if (!user.bot) throw new InvalidBotTokenError();
    return {
      userId: user.id,
      name: user.username,
      avatar: user.avatar ?? null,
      clientId: application.id,
      applicationName: application.name,
      publicKey: application.verify_key,
    };
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    if (error instanceof DiscordAPIError && (error.status === 401 || error.status === 403)) throw new InvalidBotTokenError();
    if (error instanceof DiscordAPIError && error.status === 429) throw new RateLimitedError(1, 'The chat platform is rate limiting us; please retry shortly');
    if (error instanceof RateLimitError) throw new RateLimitedError(error.retryAfter / 1000, 'The chat platform is rate limiting us; please retry shortly');
    throw new UpstreamError('The chat platform could not check the bot token; please retry shortly');
  } finally {
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  }
}
