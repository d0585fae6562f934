import type { DirectMessage } from './api-direct-messages.ts';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type {
  APIAuditLogEntry,
  APIMessage,
  APIMessageComponentGuildInteraction,
  APIModalInteractionResponseCallbackComponent,
  APIModalSubmitGuildInteraction,
  APIRole,
  APIUser,
  InteractionType,
  RoleFlags,
  UserFlags,
} from 'discord-api-types/v10';
import { applicationKeyFromSeed, createApplicationKey } from './application-key.ts';
import type { ApplicationKey } from './application-key.ts';
import { applicationFromFixture, newBotToken, newClientSecret } from './applications.ts';
import type { Application } from './applications.ts';
import type { FormErrorTree } from './errors.ts';
import type { FixtureApplication, FixtureChannel, FixtureGuild, FixtureUser, Fixtures, PrivilegedIntentSettings } from './fixtures.ts';
import { NO_EVENTS } from './platform-events.ts';
import type { PlatformEventSink } from './platform-events.ts';
import { basePermissions, channelPermissions } from './permissions.ts';
import type { SandboxConfig } from './sandbox-config.ts';
import { createSnowflakeGenerator, discordTimestamp } from './snowflake.ts';

export interface MemberState {
  userId: string;
  roles: string[];
  nick: string | null;
  avatar: string | null;
  joinedAt: string;
  premiumSince: string | null;
  pending: boolean;
  communicationDisabledUntil: string | null;
  flags: number;
}

export interface GuildState extends Omit<FixtureGuild, 'members' | 'botMember' | 'whiteLabelBots'> {
  members: Map<string, MemberState>;
}

export interface AuthorizationCode {
  code: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  userId: string;
  expiresAt: number;
  /** Set when the code came from a bot-install authorization, so the token answer can carry the guild. */
  guildId: string | null;
}

export interface OAuthGrant {
  accessToken: string;
  refreshToken: string;
  clientId: string;
  userId: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

export interface MessageRevision {
  content: string;
  embeds: APIMessage['embeds'];
  components: APIMessage['components'];
  flags: number;
  /** When this revision stopped being current. */
  replacedAt: string;
}

export interface StoredMessage {
  message: APIMessage;
  guildId: string;
  deleted: boolean;
  deletedAt: string | null;
  /** Earlier versions, oldest first, so tests can see what members saw before an edit. */
  revisions: MessageRevision[];
}

/** A message only one member can see: an ephemeral interaction response or follow-up. */
export interface EphemeralMessage extends StoredMessage {
  userId: string;
  interactionId: string;
}

/** A modal the platform is showing a member, waiting for them to submit it. */
export interface OpenModal {
  interactionId: string;
  userId: string;
  guildId: string;
  channelId: string;
  /** The message whose component opened it; Discord carries it into the submit interaction. */
  messageId: string | null;
  /** The application that opened it: the submit goes to it. */
  applicationId: string;
  customId: string;
  title: string;
  components: APIModalInteractionResponseCallbackComponent[];
  openedAt: string;
}

/** Why Discord refused a response, in the body its callback endpoint would have answered. */
export interface InteractionProblem {
  message: string;
  code: number;
  errors?: FormErrorTree;
}

/** One interaction the sandbox sent on behalf of a member, and everything that came of it. */
export interface InteractionRecord {
  id: string;
  token: string;
  /** The application it is for: the one whose bot posted the message acted on (or that opened the modal). */
  applicationId: string;
  type: InteractionType.MessageComponent | InteractionType.ModalSubmit;
  guildId: string;
  channelId: string;
  userId: string;
  /** The message acted on: the one clicked, or the one whose component opened the modal. */
  messageId: string | null;
  customId: string;
  componentType: number | null;
  values: string[] | null;
  fields: Record<string, string> | null;
  payload: APIMessageComponentGuildInteraction | APIModalSubmitGuildInteraction;
  /** POSTed to the interactions endpoint URL, or dispatched as INTERACTION_CREATE when there is none. */
  via: 'endpoint' | 'gateway';
  sentAt: string;
  /** Tokens work for 15 minutes of sandbox time, as on Discord. */
  expiresAt: number;
  /** The endpoint's HTTP status and body (JSON, else text); null while pending or when it could not be reached. */
  status: number | null;
  response: unknown;
  /** Whether an initial response was accepted, by HTTP answer or by the callback route. */
  acknowledged: boolean;
  responseType: number | null;
  /** A deferred (type 5) response's flags decide whether the later @original message is ephemeral. */
  deferredFlags: number;
  /** The @original message once there is one; for types 6 and 7 it is the message acted on. */
  originalMessageId: string | null;
  followUpIds: string[];
  /** Responses Discord would have refused; the member would see "This interaction failed". */
  errors: InteractionProblem[];
  /** Things Discord would tolerate but a developer should know, e.g. a slow answer. */
  warnings: string[];
  /** The modal this interaction opened, whether or not it is still open. */
  modal: OpenModal | null;
  /** For a modal submit: the component interaction that opened the modal. */
  triggeringInteractionId: string | null;
}

/** Bytes a test put on the CDN as a message attachment (POST /_sandbox/attachments). */
export interface StoredAttachment {
  id: string;
  channelId: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** Who reacted to a message with one emoji, in the order they did. */
export interface ReactionEntry {
  emoji: { id: string | null; name: string | null; animated?: boolean };
  userIds: string[];
}

export interface AuditLogRecord {
  guildId: string;
  entry: APIAuditLogEntry;
}

export type FaultStatus = 429 | 500 | 502 | 503;

export interface Fault {
  id: number;
  status: FaultStatus;
  remaining: number;
  pattern: RegExp;
  method: string | null;
  retryAfter: number;
  global: boolean;
}

export type AuthKind = 'bot' | 'bearer' | 'none' | 'invalid';

export interface RequestLogEntry {
  id: number;
  method: string;
  path: string;
  query: string;
  route: string | null;
  auth: AuthKind;
  userId: string | null;
  status: number;
  fault: FaultStatus | null;
  time: string;
  at: number;
}

// These bitfield enums have no zero member, yet zero is what Discord sends for "no flags".
const NO_USER_FLAGS = 0 as UserFlags;
const REQUEST_LOG_LIMIT = 10_000;
const BOT_JOINED_AT = '2024-06-01T12:00:00.000000+00:00';
// What the install flow grants when the authorize URL carries no `permissions`.
const DEFAULT_BOT_ROLE_PERMISSIONS = (
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.ReadMessageHistory
).toString();

/** The whole mutable world. Rebuilt from fixtures on reset; the clock and id counter survive resets. */
export class SandboxState {
  readonly fixtures: Fixtures;
  readonly now: () => number;
  readonly nextId: () => string;

  /** The product's own application (the main bot). */
  application!: Application;
  /** Every application by client id, the main one included. */
  applications = new Map<string, Application>();
  users = new Map<string, FixtureUser>();
  guilds = new Map<string, GuildState>();
  codes = new Map<string, AuthorizationCode>();
  grantsByAccessToken = new Map<string, OAuthGrant>();
  grantsByRefreshToken = new Map<string, OAuthGrant>();
  /** userId:clientId → approved scopes, for prompt=none. */
  approvals = new Map<string, Set<string>>();
  messages = new Map<string, StoredMessage>();
  /** By attachment id. */
  attachments = new Map<string, StoredAttachment>();
  faults: Fault[] = [];
  requests: RequestLogEntry[] = [];
  /** Channels made through POST /guilds/{id}/channels (shown as `createdByBot` in GET /_sandbox/state). */
  botCreatedChannels = new Set<string>();
  /** By interaction id; tokens are looked up through interactionTokens. */
  interactions = new Map<string, InteractionRecord>();
  interactionTokens = new Map<string, string>();
  /** By message id; never listed in a channel, only shown to their member. */
  ephemeralMessages = new Map<string, EphemeralMessage>();
  /** The bots' DM channels: channel id → the user it reaches and the application whose bot it is. */
  dmChannels = new Map<string, { recipientId: string; applicationId: string }>();
  /** What the bot sent users directly, oldest first. */
  directMessages: DirectMessage[] = [];
  /** By user id: a member sees at most one modal at a time. */
  openModals = new Map<string, OpenModal>();
  /** By message id: each emoji with the users who reacted with it, in the order first used. */
  reactions = new Map<string, ReactionEntry[]>();
  /** Every guild's audit log, oldest first. */
  auditLog: AuditLogRecord[] = [];
  /** Where platform events go: the gateway once the sandbox has one. Survives resets, as the wiring does. */
  events: PlatformEventSink = NO_EVENTS;
  /** Interaction id → who waits for its first response (an interaction delivered over the gateway). */
  acknowledgementWaiters = new Map<string, () => void>();
  /** Generated once per sandbox and kept across resets, as a product is configured with it at start-up. */
  readonly applicationKey: ApplicationKey = createApplicationKey();
  /** Keys made for applications whose fixtures give none, by client id; kept across resets like the main one. */
  private readonly madeKeys = new Map<string, ApplicationKey>();
  /** Where the product listens; wiring rather than world, so it survives resets too. */
  config: SandboxConfig = { interactionsUrl: null };
  private faultSeq = 0;
  private requestSeq = 0;

  /** Added to the base clock; lets black-box tests expire codes and tokens without waiting. */
  clockOffsetMs = 0;
  /** Told after the clock moves forward, so time-driven work (renewals, period ends) happens then. */
  readonly clockListeners: ((now: number) => Promise<void> | void)[] = [];
  /** Told at the end of reset(), so worlds kept beside this one (the payment providers) are cleared with it. */
  readonly resetListeners: (() => void)[] = [];

  constructor(fixtures: Fixtures, baseNow: () => number = Date.now) {
    // Kept pristine so reset() can always go back to exactly what the caller passed.
    this.fixtures = structuredClone(fixtures);
    this.now = () => baseNow() + this.clockOffsetMs;
    this.nextId = createSnowflakeGenerator(this.now);
    this.reset();
  }

  reset(): void {
    const fx = structuredClone(this.fixtures);
    this.applications = new Map();
    this.application = this.addApplication(fx.application, false);
    for (const app of fx.whiteLabelApplications ?? []) this.addApplication(app, true);
    this.users = new Map(fx.users.map((u) => [u.id, u]));
    this.guilds = new Map();
    for (const guild of fx.guilds) {
      const { members, botMember, whiteLabelBots, ...rest } = guild;
      const state: GuildState = { ...rest, members: new Map() };
      for (const m of members) {
        state.members.set(m.userId, {
          userId: m.userId,
          roles: [...m.roles],
          nick: m.nick ?? null,
          avatar: m.avatar ?? null,
          joinedAt: m.joined_at,
          premiumSince: m.premium_since ?? null,
          pending: m.pending ?? false,
          communicationDisabledUntil: m.communication_disabled_until ?? null,
          flags: m.flags ?? 0,
        });
      }
      if (botMember) this.addBotMember(state, BOT_JOINED_AT);
      for (const clientId of whiteLabelBots ?? []) this.addBotMember(state, BOT_JOINED_AT, undefined, this.applications.get(clientId)!);
      this.guilds.set(guild.id, state);
    }
    this.codes.clear();
    this.grantsByAccessToken.clear();
    this.grantsByRefreshToken.clear();
    this.approvals.clear();
    this.messages.clear();
    this.attachments.clear();
    this.faults = [];
    this.requests = [];
    this.botCreatedChannels.clear();
    this.interactions.clear();
    this.interactionTokens.clear();
    this.ephemeralMessages.clear();
    this.openModals.clear();
    this.reactions.clear();
    this.auditLog = [];
    this.dmChannels.clear();
    this.directMessages = [];
    this.clockOffsetMs = 0;
    for (const listener of this.resetListeners) listener();
  }

  private addApplication(fixture: FixtureApplication, whiteLabel: boolean): Application {
    let key: ApplicationKey;
    if (fixture.privateKey) key = applicationKeyFromSeed(fixture.privateKey);
    else if (!whiteLabel) key = this.applicationKey;
    else {
      key = this.madeKeys.get(fixture.clientId) ?? createApplicationKey();
      this.madeKeys.set(fixture.clientId, key);
    }
    const app = applicationFromFixture(fixture, key, whiteLabel);
    this.applications.set(app.clientId, app);
    return app;
  }

  /**
   * A new white-label application, as a customer makes one in a developer portal: a new client id
   * (also its bot user's id), secret, bot token and key. It is gone after a reset.
   */
  createApplication(input: { name: string; botUsername?: string; botAvatar?: string | null; icon?: string | null; privilegedIntents?: Partial<PrivilegedIntentSettings> }): Application {
    const clientId = this.nextId();
    const fixture: FixtureApplication = {
      clientId,
      clientSecret: newClientSecret(),
      botToken: newBotToken(clientId),
      botUserId: clientId,
      botUsername: input.botUsername ?? input.name,
      botAvatar: input.botAvatar ?? null,
      name: input.name,
      icon: input.icon === undefined ? (input.botAvatar ?? null) : input.icon,
      ...(input.privilegedIntents ? { privilegedIntents: input.privilegedIntents } : {}),
    };
    const app = applicationFromFixture(fixture, createApplicationKey(), true);
    this.applications.set(clientId, app);
    return app;
  }

  /** The application whose bot this token belongs to; revoked tokens belong to none. */
  applicationByToken(token: string): Application | null {
    for (const app of this.applications.values()) if (app.botToken !== null && app.botToken === token) return app;
    return null;
  }

  /** The application whose bot user this is, if it is a bot. */
  applicationByBotUser(userId: string): Application | null {
    for (const app of this.applications.values()) if (app.botUserId === userId) return app;
    return null;
  }

  /** A new token for the application's bot: the old one stops working at once. */
  resetBotToken(app: Application): string {
    app.botToken = newBotToken(app.botUserId);
    return app.botToken;
  }

  /** Where the application's interactions are POSTed; null: over its gateway sessions. */
  interactionsUrlOf(app: Application): string | null {
    return app.whiteLabel && app.interactionsUrl !== undefined ? app.interactionsUrl : this.config.interactionsUrl;
  }

  /** Ids of the guilds the application's bot is in, in fixture order. */
  guildIdsOf(app: Application): string[] {
    return [...this.guilds.values()].filter((g) => this.isBotIn(g, app)).map((g) => g.id);
  }

  get publicKey(): string {
    return this.applicationKey.publicKey;
  }

  get botUserId(): string {
    return this.application.botUserId;
  }

  botUser(app: Application = this.application): APIUser {
    return {
      id: app.botUserId,
      username: app.botUsername,
      discriminator: app.botDiscriminator,
      global_name: null,
      avatar: app.botAvatar,
      bot: true,
      system: false,
      banner: null,
      accent_color: null,
      flags: NO_USER_FLAGS,
      public_flags: NO_USER_FLAGS,
      avatar_decoration_data: null,
    };
  }

  /** Any user known to the platform, including the bot, in the shape other users see. */
  publicUser(userId: string): APIUser | null {
    const bot = this.applicationByBotUser(userId);
    if (bot) return this.botUser(bot);
    const user = this.users.get(userId);
    if (!user) return null;
    return {
      id: user.id,
      username: user.username,
      discriminator: user.discriminator ?? '0',
      global_name: user.global_name,
      avatar: user.avatar,
      banner: user.banner ?? null,
      accent_color: user.accent_color ?? null,
      public_flags: user.public_flags ?? 0,
      flags: user.public_flags ?? 0,
      avatar_decoration_data: null,
      collectibles: null,
      primary_guild: null,
    };
  }

  isBotIn(guild: GuildState, app: Application = this.application): boolean {
    return guild.members.has(app.botUserId);
  }

  everyoneRole(guild: GuildState): APIRole | undefined {
    return guild.roles.find((r) => r.id === guild.id);
  }

  memberPermissions(guild: GuildState, userId: string): bigint {
    const member = guild.members.get(userId);
    return basePermissions({ ownerId: guild.owner_id, everyoneRoleId: guild.id, roles: guild.roles }, userId, member?.roles ?? []);
  }

  botChannelPermissions(guild: GuildState, channel: FixtureChannel, app: Application = this.application): bigint {
    return this.memberChannelPermissions(guild, channel, app.botUserId);
  }

  /** What a member (or the bot) may do in a channel, overwrites included; 0 for non-members. */
  memberChannelPermissions(guild: GuildState, channel: FixtureChannel, userId: string): bigint {
    const member = guild.members.get(userId);
    if (!member) return 0n;
    return channelPermissions(
      { ownerId: guild.owner_id, everyoneRoleId: guild.id, roles: guild.roles },
      userId,
      member.roles,
      channel.permission_overwrites ?? [],
    );
  }

  /** A live interaction by token: unknown and expired tokens are the same to callers, as on Discord. */
  interactionByToken(token: string): InteractionRecord | null {
    const id = this.interactionTokens.get(token);
    const record = id === undefined ? undefined : this.interactions.get(id);
    return record && record.expiresAt > this.now() ? record : null;
  }

  /** A channel message or an ephemeral one, by id. */
  anyMessage(messageId: string): StoredMessage | EphemeralMessage | null {
    return this.messages.get(messageId) ?? this.ephemeralMessages.get(messageId) ?? null;
  }

  findChannel(channelId: string): { guild: GuildState; channel: FixtureChannel } | null {
    for (const guild of this.guilds.values()) {
      const channel = guild.channels.find((c) => c.id === channelId);
      if (channel) return { guild, channel };
    }
    return null;
  }

  /** Guilds the user is a member of, in fixture order. */
  guildsOf(userId: string): GuildState[] {
    return [...this.guilds.values()].filter((g) => g.members.has(userId));
  }

  setBotMember(guild: GuildState, member: boolean, permissions?: string, app: Application = this.application): void {
    if (member) {
      if (!this.isBotIn(guild, app)) this.addBotMember(guild, discordTimestamp(this.now()), permissions, app);
      else if (permissions !== undefined) {
        const role = this.botRoles(guild, app)[0];
        if (role) role.permissions = permissions;
      }
      return;
    }
    guild.members.delete(app.botUserId);
    // Discord deletes the integration role when a bot leaves; overwrites on it go with it.
    const removed = new Set(this.botRoles(guild, app).map((r) => r.id));
    guild.roles = guild.roles.filter((r) => !removed.has(r.id));
    for (const channel of guild.channels) {
      if (channel.permission_overwrites) {
        channel.permission_overwrites = channel.permission_overwrites.filter((o) => !removed.has(o.id));
      }
    }
  }

  /** The bot's managed (integration) roles in the guild. */
  botRoles(guild: GuildState, app: Application = this.application): APIRole[] {
    return guild.roles.filter((r) => r.managed && r.tags?.bot_id === app.botUserId);
  }

  private addBotMember(guild: GuildState, joinedAt: string, permissions?: string, app: Application = this.application): void {
    let roles = this.botRoles(guild, app);
    if (roles.length === 0) {
      const position = guild.roles.reduce((max, r) => Math.max(max, r.position), 0) + 1;
      const role: APIRole = {
        id: this.nextId(),
        name: app.botUsername,
        color: 0,
        colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
        hoist: false,
        icon: null,
        unicode_emoji: null,
        position,
        permissions: permissions ?? DEFAULT_BOT_ROLE_PERMISSIONS,
        managed: true,
        mentionable: false,
        flags: 0 as RoleFlags,
        tags: { bot_id: app.botUserId },
      };
      guild.roles.push(role);
      roles = [role];
    }
    guild.members.set(app.botUserId, {
      userId: app.botUserId,
      roles: roles.map((r) => r.id),
      nick: null,
      avatar: null,
      joinedAt,
      premiumSince: null,
      pending: false,
      communicationDisabledUntil: null,
      flags: 0,
    });
  }

  addFault(input: Omit<Fault, 'id'>): Fault {
    this.faultSeq += 1;
    const fault = { id: this.faultSeq, ...input };
    this.faults.push(fault);
    return fault;
  }

  /** Consumes one use of the first fault that matches, if any. */
  takeFault(method: string, path: string): Fault | null {
    const fault = this.faults.find((f) => f.remaining > 0 && (f.method === null || f.method === method) && f.pattern.test(path));
    if (!fault) return null;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }

  logRequest(entry: Omit<RequestLogEntry, 'id'>): void {
    this.requestSeq += 1;
    this.requests.push({ id: this.requestSeq, ...entry });
    if (this.requests.length > REQUEST_LOG_LIMIT) this.requests.splice(0, this.requests.length - REQUEST_LOG_LIMIT);
  }
}

