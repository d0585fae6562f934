import { DiscordAPIError, HTTPError, RateLimitError, REST } from '@discordjs/rest';
import {
  Routes,
  type APIChannel,
  type APIEmoji,
  type APIGuild,
  type APIGuildMember,
  type APIMessage,
  type RESTPatchAPIChannelJSONBody,
  type RESTPatchAPIChannelMessageJSONBody,
  type RESTPostAPIGuildChannelJSONBody,
  type RESTPutAPIChannelPermissionJSONBody,
  type RESTPostAPIChannelMessageJSONBody,
  type APIRole,
  type APIUser,
  type RESTAPIPartialCurrentUserGuild,
  type RESTPostOAuth2AccessTokenResult,
} from 'discord-api-types/v10';
import type { PlatformConfig } from '../config';
import { AppError, RateLimitedError, UnauthorizedError, UpstreamError } from '../http/errors';
import type { Loader } from './cache';

export const OAUTH_SCOPES = ['identify', 'guilds', 'email', 'guilds.members.read'] as const;

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
  scope: string;
}

/** The platform said the user's grant is no longer valid: they must sign in again. */
/** How every REST client of the platform is made: the configured API base, so the sandbox can stand in. */
export function restOptionsOf(config: PlatformConfig) {
  return {
    api: config.apiUrl,
    cdn: config.cdnUrl,
    version: '10',
    timeout: REQUEST_TIMEOUT_MS,
    retries: 1,
    // A dashboard request must not hang while a bucket refills: hand the wait to the caller.
    rejectOnRateLimit: () => true,
    // Pass the platform's Retry-After on as it is.
    offset: 0,
  } as const;
}

export class GrantRevokedError extends UnauthorizedError {
  constructor() {
    super('Your sign-in with the chat platform is no longer valid; please sign in again');
  }
}

const REQUEST_TIMEOUT_MS = 10_000;

/** A user's standing in a server as the bot sees it (see PlatformClient.standing). */
export interface MemberStanding {
  ownerId: string;
  roles: { id: string; permissions: string }[];
  memberRoles: string[] | null;
}

/** The platform refused a write for a reason the user can act on; `code` is the platform's error code. */
export class PlatformRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }

  /** The message no longer exists (or its channel is gone). */
  get gone(): boolean {
    return this.code === 10008 || this.code === 10003;
  }
}

/**
 * Turns every failure of the platform into one of our typed errors, so a caller sees a clear
 * 429 with Retry-After or a 502, never a crash or a raw upstream message.
 */
function translate(error: unknown): never {
  if (error instanceof AppError) throw error;
  if (error instanceof RateLimitError) throw new RateLimitedError(error.retryAfter / 1000, 'The chat platform is rate limiting us; please retry shortly');
  if (error instanceof DiscordAPIError) {
    if (error.status === 429) throw new RateLimitedError(1, 'The chat platform is rate limiting us; please retry shortly');
    throw new UpstreamError(`The chat platform refused the request (${error.status}: ${error.message})`);
  }
  if (error instanceof HTTPError) throw new UpstreamError(`The chat platform is unavailable right now (${error.status})`);
  throw new UpstreamError('The chat platform could not be reached');
}

/** The white-label bot may not edit or delete a message another bot sent (the main bot's, before it ran). */
const notOwnMessage = (refusal: PlatformRefusal) => refusal.code === 50005 || refusal.status === 403;

function stopRest(rest: REST): void {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
}

const isStatus = (error: unknown, status: number) => error instanceof DiscordAPIError && error.status === status;

/** A server's own (white-label) bot while it runs: the API speaks on that server as it. */
export interface ServerBot {
  token: string;
  userId: string;
  /** Changes with every new token or restart: a cached client of an older one is dropped. */
  revision: number;
}

/**
 * Where the API learns which servers' white-label bots run (deployment's WhitelabelLookup). Asked
 * in the background (at start, on a change notice, every minute), never while a caller waits: a
 * caller may hold the database (SQLite has one connection) while it writes to the platform.
 */
export interface ServerBotSource {
  /** Every running white-label bot, with its token. */
  all(): Promise<(ServerBot & { serverId: string })[]>;
  /** The server's running white-label bot, or null. */
  of(serverId: string): Promise<ServerBot | null>;
}

/** How often every running bot is read again, as a safety net for a change notice lost. */
const SERVER_BOTS_REFRESH_MS = 60_000;
/** Channels whose server is remembered (to pick the bot that writes there); the oldest are forgotten first. */
const CHANNEL_MEMORY = 50_000;

interface ServerBotClient {
  rest: REST;
  userId: string;
  revision: number;
}

export interface PlatformClientOptions {
  config: PlatformConfig;
  load: Loader;
  cacheTtlSeconds: number;
}

/** The chat platform's REST and OAuth2 API, through @discordjs/rest. */
export class PlatformClient {
  private readonly bot: REST;
  private readonly users: REST;
  private readonly config: PlatformConfig;
  private readonly load: Loader;
  private readonly ttl: number;
  private readonly restOptions: ConstructorParameters<typeof REST>[0];
  private serverBotSource: ServerBotSource | null = null;
  private readonly serverBots = new Map<string, ServerBotClient>();
  private serverBotReads: Promise<void> = Promise.resolve();
  private serverBotTimer: NodeJS.Timeout | null = null;
  private readonly channelGuilds = new Map<string, string>();

  constructor({ config, load, cacheTtlSeconds }: PlatformClientOptions) {
    this.config = config;
    this.load = load;
    this.ttl = cacheTtlSeconds;
    const common = restOptionsOf(config);
    this.restOptions = common;
    this.bot = new REST(common).setToken(config.botToken);
    // User-token calls get their own manager so users never queue behind the bot's buckets.
    this.users = new REST({ ...common, authPrefix: 'Bearer' });
  }

  destroy(): void {
    for (const rest of [this.bot, this.users]) stopRest(rest);
    if (this.serverBotTimer) clearInterval(this.serverBotTimer);
    for (const serverId of [...this.serverBots.keys()]) this.setServerBot(serverId, null);
  }

  // --- Which bot speaks on a server -------------------------------------------------------------

  /**
   * Where the API learns the servers' running white-label bots: its writes on such a server
   * (panels, ticket channels, messages, DMs) then go out as that bot, and as the main bot
   * otherwise. Resolves once they were read a first time.
   */
  useServerBots(source: ServerBotSource): Promise<void> {
    this.serverBotSource = source;
    if (this.serverBotTimer) clearInterval(this.serverBotTimer);
    this.serverBotTimer = setInterval(() => void this.refreshServerBots(), SERVER_BOTS_REFRESH_MS);
    this.serverBotTimer.unref();
    return this.refreshServerBots();
  }

  /** Reads every running bot again (a failure keeps what was known). */
  refreshServerBots(): Promise<void> {
    return this.readServerBots(async (source) => {
      const running = await source.all();
      const seen = new Set<string>();
      for (const bot of running) {
        seen.add(bot.serverId);
        this.setServerBot(bot.serverId, bot);
      }
      for (const serverId of [...this.serverBots.keys()]) if (!seen.has(serverId)) this.setServerBot(serverId, null);
    });
  }

  /** The server's bot changed (started, stopped, failed, new token, removed): it is read again. */
  refreshServerBot(serverId: string): Promise<void> {
    return this.readServerBots(async (source) => this.setServerBot(serverId, await source.of(serverId)));
  }

  /** The server's white-label bot is not to speak any more (its token was refused), until it is read again. */
  forgetServerBot(serverId: string): void {
    this.setServerBot(serverId, null);
  }

  /** One read at a time, in the order asked: a later change is never overwritten by an earlier read. */
  private readServerBots(read: (source: ServerBotSource) => Promise<void>): Promise<void> {
    const source = this.serverBotSource;
    if (!source) return Promise.resolve();
    this.serverBotReads = this.serverBotReads.then(() => read(source)).catch(() => undefined);
    return this.serverBotReads;
  }

  private setServerBot(serverId: string, bot: ServerBot | null): void {
    const current = this.serverBots.get(serverId);
    if (bot && current && current.revision === bot.revision && current.userId === bot.userId) return;
    if (current) stopRest(current.rest);
    if (bot) this.serverBots.set(serverId, { rest: new REST(this.restOptions).setToken(bot.token), userId: bot.userId, revision: bot.revision });
    else this.serverBots.delete(serverId);
  }

  /** The server's running white-label bot's client, or null (the main bot speaks there). */
  private serverBot(serverId: string): ServerBotClient | null {
    return this.serverBots.get(serverId) ?? null;
  }

  /** Remembers which server a channel is in, so writes there go out as that server's bot. */
  private rememberChannels(channels: readonly APIChannel[]): void {
    for (const channel of channels) {
      const guildId = 'guild_id' in channel ? channel.guild_id : undefined;
      if (!guildId) continue;
      this.channelGuilds.delete(channel.id);
      this.channelGuilds.set(channel.id, guildId);
    }
    while (this.channelGuilds.size > CHANNEL_MEMORY) this.channelGuilds.delete(this.channelGuilds.keys().next().value!);
  }

  /** The client that writes on the server (its white-label bot's, else the main bot's); null server: the main bot. */
  private async restOf(serverId: string | null | undefined): Promise<{ rest: REST; serverId: string | null }> {
    if (!serverId) return { rest: this.bot, serverId: null };
    const bot = this.serverBot(serverId);
    return bot ? { rest: bot.rest, serverId } : { rest: this.bot, serverId: null };
  }

  get authorizeUrl(): string {
    return this.config.authorizeUrl;
  }

  get clientId(): string {
    return this.config.clientId;
  }

  avatarUrl(userId: string, hash: string | null | undefined): string | null {
    return hash ? `${this.config.cdnUrl}/avatars/${userId}/${hash}.${hash.startsWith('a_') ? 'gif' : 'png'}` : null;
  }

  memberAvatarUrl(guildId: string, userId: string, hash: string | null | undefined): string | null {
    return hash ? `${this.config.cdnUrl}/guilds/${guildId}/users/${userId}/avatars/${hash}.png` : null;
  }

  iconUrl(guildId: string, hash: string | null | undefined): string | null {
    return hash ? `${this.config.cdnUrl}/icons/${guildId}/${hash}.${hash.startsWith('a_') ? 'gif' : 'png'}` : null;
  }

  bannerUrl(guildId: string, hash: string | null | undefined): string | null {
    return hash ? `${this.config.cdnUrl}/banners/${guildId}/${hash}.png` : null;
  }

  // --- OAuth2 -------------------------------------------------------------------------------

  private async token(form: Record<string, string>): Promise<TokenSet> {
    const body = new URLSearchParams({
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
      ...form,
    });
    try {
      const result = (await this.users.post(Routes.oauth2TokenExchange(), {
        body,
        passThroughBody: true,
        auth: false,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      })) as RESTPostOAuth2AccessTokenResult;
      return {
        accessToken: result.access_token,
        refreshToken: result.refresh_token,
        expiresAt: new Date(Date.now() + result.expires_in * 1000),
        scope: result.scope,
      };
    } catch (error) {
      // A refused grant is the caller's to interpret (bad code vs revoked refresh token).
      if (error instanceof DiscordAPIError && error.status >= 400 && error.status < 500 && error.status !== 429) throw error;
      return translate(error);
    }
  }

  /** Exchanges a sign-in code; a bad, used or expired code answers 401. */
  async exchangeCode(code: string, redirectUri: string): Promise<TokenSet> {
    try {
      return await this.token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    } catch (error) {
      if (error instanceof DiscordAPIError) throw new UnauthorizedError('The sign-in code is invalid or has expired; please sign in again');
      throw error;
    }
  }

  async refreshToken(refreshToken: string): Promise<TokenSet> {
    try {
      return await this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
    } catch (error) {
      if (error instanceof DiscordAPIError) throw new GrantRevokedError();
      throw error;
    }
  }

  async revokeToken(token: string): Promise<void> {
    const body = new URLSearchParams({ client_id: this.config.clientId, client_secret: this.config.clientSecret, token });
    await this.users
      .post(Routes.oauth2TokenRevocation(), {
        body,
        passThroughBody: true,
        auth: false,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      })
      .catch(() => undefined);
  }

  private async asUser<T>(accessToken: string, route: `/${string}`, query?: URLSearchParams): Promise<T> {
    try {
      return (await this.users.get(route, {
        auth: false,
        headers: { Authorization: `Bearer ${accessToken}` },
        ...(query ? { query } : {}),
      })) as T;
    } catch (error) {
      if (isStatus(error, 401)) throw new GrantRevokedError();
      return translate(error);
    }
  }

  getCurrentUser(accessToken: string): Promise<APIUser> {
    return this.asUser<APIUser>(accessToken, Routes.user());
  }

  /** Every guild of the user, following the platform's pages of 200. */
  async getCurrentUserGuilds(accessToken: string): Promise<RESTAPIPartialCurrentUserGuild[]> {
    const all: RESTAPIPartialCurrentUserGuild[] = [];
    let after: string | undefined;
    for (;;) {
      const query = new URLSearchParams({ limit: '200' });
      if (after) query.set('after', after);
      const page = await this.asUser<RESTAPIPartialCurrentUserGuild[]>(accessToken, Routes.userGuilds(), query);
      all.push(...page);
      if (page.length < 200) return all;
      after = page[page.length - 1]!.id;
    }
  }

  // --- Bot ----------------------------------------------------------------------------------

  private async asBot<T>(route: `/${string}`, query?: URLSearchParams): Promise<T> {
    try {
      return (await this.bot.get(route, query ? { query } : {})) as T;
    } catch (error) {
      return translate(error);
    }
  }

  /** Like asBot, but "unknown" or "no access" answers mean the thing is not there for us. */
  private async asBotOrNull<T>(route: `/${string}`, query?: URLSearchParams): Promise<T | null> {
    try {
      return (await this.bot.get(route, query ? { query } : {})) as T;
    } catch (error) {
      if (isStatus(error, 404) || isStatus(error, 403)) return null;
      return translate(error);
    }
  }

  /** Ids of the guilds the bot is in. */
  botGuildIds(fresh = false): Promise<string[]> {
    return this.load(
      'bot:guilds',
      this.ttl,
      async () => {
        const ids: string[] = [];
        let after: string | undefined;
        for (;;) {
          const query = new URLSearchParams({ limit: '200' });
          if (after) query.set('after', after);
          const page = await this.asBot<RESTAPIPartialCurrentUserGuild[]>(Routes.userGuilds(), query);
          ids.push(...page.map((g) => g.id));
          if (page.length < 200) return ids;
          after = page[page.length - 1]!.id;
        }
      },
      fresh,
    );
  }

  /** The guild, or null when the bot is not in it. */
  getGuild(guildId: string, fresh = false): Promise<APIGuild | null> {
    return this.load(
      `guild:${guildId}`,
      this.ttl,
      () => this.asBotOrNull<APIGuild>(Routes.guild(guildId), new URLSearchParams({ with_counts: 'true' })),
      fresh,
    );
  }

  async getGuildChannels(guildId: string, fresh = false): Promise<APIChannel[]> {
    const channels = await this.load(`guild:${guildId}:channels`, this.ttl, () => this.asBot<APIChannel[]>(Routes.guildChannels(guildId)), fresh);
    this.rememberChannels(channels);
    return channels;
  }

  getGuildRoles(guildId: string, fresh = false): Promise<APIRole[]> {
    return this.load(`guild:${guildId}:roles`, this.ttl, () => this.asBot<APIRole[]>(Routes.guildRoles(guildId)), fresh);
  }

  getGuildEmojis(guildId: string, fresh = false): Promise<APIEmoji[]> {
    return this.load(`guild:${guildId}:emojis`, this.ttl, () => this.asBot<APIEmoji[]>(Routes.guildEmojis(guildId)), fresh);
  }

  /** The member, or null when the user is not in the guild. */
  getMember(guildId: string, userId: string, fresh = false): Promise<APIGuildMember | null> {
    return this.load(
      `guild:${guildId}:member:${userId}`,
      this.ttl,
      () => this.asBotOrNull<APIGuildMember>(Routes.guildMember(guildId, userId)),
      fresh,
    );
  }

  /**
   * What decides a user's role on a server, no older than `maxAgeSeconds`: the owner, each role's
   * permissions, and the roles the user holds (null when they are not a member: left, kicked or
   * banned). Null altogether when the bot is not in the server. The server's part is shared by
   * all its users.
   */
  async standing(guildId: string, userId: string, maxAgeSeconds: number): Promise<MemberStanding | null> {
    const guild = await this.guildStanding(guildId, maxAgeSeconds);
    if (!guild) return null;
    const member = await this.memberStanding(guildId, userId, maxAgeSeconds);
    return { ...guild, memberRoles: member ? member.roles : null };
  }

  /** The server's owner and each role's permissions; `fresh` reads them again (a role changed). */
  guildStanding(guildId: string, maxAgeSeconds: number, fresh = false): Promise<Omit<MemberStanding, 'memberRoles'> | null> {
    return this.load(
      `standing:${guildId}`,
      maxAgeSeconds,
      async () => {
        const found = await this.asBotOrNull<APIGuild>(Routes.guild(guildId));
        return found ? { ownerId: found.owner_id, roles: found.roles.map((r) => ({ id: r.id, permissions: r.permissions })) } : null;
      },
      fresh,
    );
  }

  /** The member as an access check sees them; `fresh` reads them again (their roles changed, or they left). */
  memberStanding(guildId: string, userId: string, maxAgeSeconds: number, fresh = false): Promise<APIGuildMember | null> {
    return this.load(`standing:${guildId}:${userId}`, maxAgeSeconds, () => this.asBotOrNull<APIGuildMember>(Routes.guildMember(guildId, userId)), fresh);
  }

  searchMembers(guildId: string, term: string, limit = 25): Promise<APIGuildMember[]> {
    return this.asBot<APIGuildMember[]>(
      Routes.guildMembersSearch(guildId),
      new URLSearchParams({ query: term, limit: String(limit) }),
    );
  }

  /** The user, or null when no such user exists. */
  getUser(userId: string): Promise<APIUser | null> {
    return this.load(`user:${userId}`, this.ttl, () => this.asBotOrNull<APIUser>(Routes.user(userId)));
  }

  // --- Messages -------------------------------------------------------------------------------

  /**
   * Bot writes whose refusals the caller words for the user (missing access, unknown emoji…), as
   * the bot that speaks on `serverId` (the main bot when null). A white-label token the platform
   * no longer takes (401) drops that bot, and the main bot makes the write instead. `fallback`
   * says which other refusals of the white-label bot the main bot should try (its own messages).
   */
  private async botWrite<T>(
    method: 'post' | 'put' | 'patch' | 'delete',
    route: `/${string}`,
    body?: unknown,
    serverId?: string | null,
    fallback?: (refusal: PlatformRefusal) => boolean,
  ): Promise<T> {
    const { rest, serverId: speaking } = await this.restOf(serverId);
    try {
      return await this.write<T>(rest, method, route, body);
    } catch (error) {
      if (speaking === null) throw error;
      const revoked = error instanceof PlatformRefusal && error.status === 401;
      if (revoked) this.forgetServerBot(speaking);
      if (revoked || (error instanceof PlatformRefusal && fallback?.(error))) return this.write<T>(this.bot, method, route, body);
      throw error;
    }
  }

  private async write<T>(rest: REST, method: 'post' | 'put' | 'patch' | 'delete', route: `/${string}`, body?: unknown): Promise<T> {
    try {
      return (await rest[method](route, body === undefined ? {} : { body })) as T;
    } catch (error) {
      if (error instanceof DiscordAPIError && error.status >= 400 && error.status < 500 && error.status !== 429) {
        throw new PlatformRefusal(error.status, Number(error.code), error.message);
      }
      return translate(error);
    }
  }

  /** The server a channel is in, as far as this process has seen it (channel lists, channels it made); null: the main bot writes there. */
  private serverOfChannel(channelId: string, serverId?: string): string | null {
    return serverId ?? this.channelGuilds.get(channelId) ?? null;
  }

  /** Posts in a channel as the bot of its server (`serverId`, else the server the channel is known to be in). */
  postMessage(channelId: string, body: RESTPostAPIChannelMessageJSONBody, serverId?: string): Promise<APIMessage> {
    return this.botWrite<APIMessage>('post', Routes.channelMessages(channelId), body, this.serverOfChannel(channelId, serverId));
  }

  /** A message the main bot sent before the server's white-label bot ran is edited by the main bot. */
  editMessage(channelId: string, messageId: string, body: RESTPatchAPIChannelMessageJSONBody, serverId?: string): Promise<APIMessage> {
    return this.botWrite<APIMessage>('patch', Routes.channelMessage(channelId, messageId), body, this.serverOfChannel(channelId, serverId), notOwnMessage);
  }

  async deleteMessage(channelId: string, messageId: string, serverId?: string): Promise<void> {
    await this.botWrite<void>('delete', Routes.channelMessage(channelId, messageId), undefined, this.serverOfChannel(channelId, serverId), notOwnMessage);
  }

  /**
   * Sends a user a direct message from the bot, the server's own when `serverId` says whose
   * business it is (the platform refuses users who share no server with it).
   */
  async sendDirectMessage(userId: string, body: RESTPostAPIChannelMessageJSONBody, serverId?: string): Promise<APIMessage> {
    const { serverId: speaking } = await this.restOf(serverId);
    const channel = await this.botWrite<APIChannel>('post', Routes.userChannels(), { recipient_id: userId }, speaking);
    return this.botWrite<APIMessage>('post', Routes.channelMessages(channel.id), body, speaking);
  }

  // --- Channels -------------------------------------------------------------------------------

  async createGuildChannel(guildId: string, body: RESTPostAPIGuildChannelJSONBody): Promise<APIChannel> {
    const channel = await this.botWrite<APIChannel>('post', Routes.guildChannels(guildId), body, guildId);
    this.rememberChannels([channel]);
    return channel;
  }

  editChannel(channelId: string, body: RESTPatchAPIChannelJSONBody, serverId?: string): Promise<APIChannel> {
    return this.botWrite<APIChannel>('patch', Routes.channel(channelId), body, this.serverOfChannel(channelId, serverId));
  }

  /** Sets one role's or member's permissions in a channel, leaving the others as they are. */
  async putChannelPermission(channelId: string, overwriteId: string, body: RESTPutAPIChannelPermissionJSONBody, serverId?: string): Promise<void> {
    await this.botWrite<void>('put', Routes.channelPermission(channelId, overwriteId), body, this.serverOfChannel(channelId, serverId));
  }

  async deleteChannelPermission(channelId: string, overwriteId: string, serverId?: string): Promise<void> {
    await this.botWrite<void>('delete', Routes.channelPermission(channelId, overwriteId), undefined, this.serverOfChannel(channelId, serverId));
  }

  /** Deletes a channel; one that is already gone counts as deleted. */
  async deleteChannel(channelId: string, serverId?: string): Promise<void> {
    try {
      await this.botWrite<APIChannel>('delete', Routes.channel(channelId), undefined, this.serverOfChannel(channelId, serverId));
    } catch (error) {
      if (error instanceof PlatformRefusal && error.status === 404) return;
      throw error;
    }
  }

  /**
   * The bot's own user id (its overwrites and membership in servers are under it); with
   * `serverId`, the id of the bot that speaks on that server (its white-label bot while it runs).
   */
  async botUserId(serverId?: string): Promise<string> {
    const own = serverId ? this.serverBot(serverId) : null;
    if (own) return own.userId;
    return (await this.load('bot:user', this.ttl, () => this.asBot<APIUser>(Routes.user()))).id;
  }

  /** A cheap authenticated call, for health checks. */
  async ping(): Promise<void> {
    await this.asBot<APIUser>(Routes.user());
  }
}
