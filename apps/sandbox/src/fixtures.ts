import { readFileSync } from 'node:fs';
import { applicationKeyFromSeed } from './application-key.ts';
import { ChannelType } from 'discord-api-types/v10';
import type {
  APIEmoji,
  APIGuildCategoryChannel,
  APIGuildForumChannel,
  APIGuildMediaChannel,
  APIGuildStageVoiceChannel,
  APIGuildVoiceChannel,
  APINewsChannel,
  APIRole,
  APITextChannel,
  GuildFeature,
  Snowflake,
} from 'discord-api-types/v10';

/** The OAuth2 application and its bot, as configured in a developer portal. */
export interface FixtureApplication {
  clientId: Snowflake;
  clientSecret: string;
  botToken: string;
  botUserId: Snowflake;
  botUsername: string;
  /** Name shown on the consent page; defaults to botUsername. */
  name?: string;
  botDiscriminator?: string;
  botAvatar?: string | null;
  /**
   * Registered redirect URIs. Left empty, any http(s) URI is accepted, because test servers
   * listen on random ports and cannot be registered ahead of time.
   */
  redirectUris?: string[];
  /** The developer portal's "Privileged Gateway Intents" switches; each is on unless set to false. */
  privilegedIntents?: Partial<PrivilegedIntentSettings>;
  /** The application's icon hash; defaults to botAvatar. */
  icon?: string | null;
  description?: string;
  /**
   * The Ed25519 key interactions are signed with: `privateKey` is the 32-byte seed in hex and
   * `publicKey` (optional, checked) the portal's "Public Key". Without one a key is made once per
   * sandbox and kept across resets.
   */
  privateKey?: string;
  publicKey?: string;
}

export interface PrivilegedIntentSettings {
  guildMembers: boolean;
  guildPresences: boolean;
  messageContent: boolean;
}

export interface FixtureUser {
  id: Snowflake;
  username: string;
  global_name: string | null;
  avatar: string | null;
  email: string | null;
  locale: string;
  discriminator?: string;
  verified?: boolean;
  mfa_enabled?: boolean;
  banner?: string | null;
  accent_color?: number | null;
  premium_type?: number;
  public_flags?: number;
  /** Demo people are offered on the consent page; the others only populate member lists. */
  demo?: boolean;
}

export interface FixtureMember {
  userId: Snowflake;
  roles: Snowflake[];
  nick?: string | null;
  avatar?: string | null;
  joined_at: string;
  premium_since?: string | null;
  pending?: boolean;
  communication_disabled_until?: string | null;
  flags?: number;
}

/** Guild channels are stored in their API shape minus guild_id, which is filled in when served. */
export type FixtureChannel =
  | Omit<APIGuildCategoryChannel, 'guild_id'>
  | Omit<APITextChannel, 'guild_id'>
  | Omit<APINewsChannel, 'guild_id'>
  | Omit<APIGuildVoiceChannel, 'guild_id'>
  | Omit<APIGuildStageVoiceChannel, 'guild_id'>
  | Omit<APIGuildForumChannel, 'guild_id'>
  | Omit<APIGuildMediaChannel, 'guild_id'>;

export interface FixtureGuild {
  id: Snowflake;
  name: string;
  icon: string | null;
  banner: string | null;
  splash?: string | null;
  description?: string | null;
  owner_id: Snowflake;
  features: GuildFeature[];
  preferred_locale?: string;
  premium_tier?: number;
  premium_subscription_count?: number;
  verification_level?: number;
  system_channel_id?: Snowflake | null;
  rules_channel_id?: Snowflake | null;
  /** Whether the application's bot has joined this guild. */
  botMember: boolean;
  /** Client ids of the white-label applications whose bots have joined this guild. */
  whiteLabelBots?: Snowflake[];
  roles: APIRole[];
  channels: FixtureChannel[];
  emojis: APIEmoji[];
  members: FixtureMember[];
}

export interface Fixtures {
  application: FixtureApplication;
  /**
   * Further applications with a bot each, as a customer makes one in their own developer portal for
   * a white-label bot: REST and the gateway accept their tokens and act as their bot users.
   */
  whiteLabelApplications?: FixtureApplication[];
  users: FixtureUser[];
  guilds: FixtureGuild[];
}

const SNOWFLAKE = /^\d{17,20}$/;
const DEMO_FIXTURES_URL = new URL('../fixtures/demo.json', import.meta.url);

/** Reads a fresh copy each call so callers can mutate the result freely. */
export function loadDemoFixtures(): Fixtures {
  const parsed: unknown = JSON.parse(readFileSync(DEMO_FIXTURES_URL, 'utf8'));
  assertFixtures(parsed);
  return parsed;
}

/**
 * Catches inconsistent hand-written fixtures at start-up rather than as odd API answers later:
 * dangling role ids, members of unknown users, channels under non-categories.
 */
export function assertFixtures(value: unknown): asserts value is Fixtures {
  const problems = validateFixtures(value);
  if (problems.length > 0) {
    throw new Error(`Invalid sandbox fixtures:\n- ${problems.join('\n- ')}`);
  }
}

export function validateFixtures(value: unknown): string[] {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null) return ['fixtures must be an object'];
  const fx = value as Partial<Fixtures>;
  const apps: FixtureApplication[] = [];
  const checkApplication = (app: unknown, where: string): void => {
    if (!app || typeof app !== 'object') {
      problems.push(`${where} is missing`);
      return;
    }
    const a = app as FixtureApplication;
    for (const key of ['clientId', 'clientSecret', 'botToken', 'botUserId', 'botUsername'] as const) {
      if (typeof a[key] !== 'string' || a[key] === '') problems.push(`${where}.${key} must be a non-empty string`);
    }
    if (typeof a.botUserId === 'string' && !SNOWFLAKE.test(a.botUserId)) problems.push(`${where}.botUserId must be a snowflake`);
    if (typeof a.clientId === 'string' && !SNOWFLAKE.test(a.clientId)) problems.push(`${where}.clientId must be a snowflake`);
    if (a.privateKey !== undefined) {
      try {
        const key = applicationKeyFromSeed(a.privateKey);
        if (a.publicKey !== undefined && a.publicKey !== key.publicKey) problems.push(`${where}.publicKey does not belong to its privateKey (expected ${key.publicKey})`);
      } catch (error) {
        problems.push(`${where}.privateKey: ${(error as Error).message}`);
      }
    } else if (a.publicKey !== undefined) {
      problems.push(`${where}.publicKey needs its privateKey, to sign interactions`);
    }
    for (const other of apps) {
      if (other.clientId === a.clientId) problems.push(`${where}: clientId ${a.clientId} is taken by another application`);
      if (other.botUserId === a.botUserId) problems.push(`${where}: botUserId ${a.botUserId} is taken by another application`);
      if (other.botToken === a.botToken) problems.push(`${where}: botToken is the same as another application's`);
    }
    apps.push(a);
  };
  checkApplication(fx.application, 'application');
  if (fx.whiteLabelApplications !== undefined && !Array.isArray(fx.whiteLabelApplications)) problems.push('whiteLabelApplications must be an array');
  (Array.isArray(fx.whiteLabelApplications) ? fx.whiteLabelApplications : []).forEach((a, i) => checkApplication(a, `whiteLabelApplications.${i}`));
  const whiteLabelIds = new Set((Array.isArray(fx.whiteLabelApplications) ? fx.whiteLabelApplications : []).map((a) => a.clientId));
  if (!Array.isArray(fx.users)) return [...problems, 'users must be an array'];
  if (!Array.isArray(fx.guilds)) return [...problems, 'guilds must be an array'];

  const userIds = new Set<string>();
  for (const user of fx.users) {
    if (!SNOWFLAKE.test(String(user.id))) problems.push(`user ${String(user.id)}: id must be a 17-20 digit snowflake`);
    if (userIds.has(user.id)) problems.push(`user ${user.id}: duplicate id`);
    if (apps.some((a) => user.id === a.botUserId)) problems.push(`user ${user.id}: collides with a bot user id`);
    if (typeof user.username !== 'string' || user.username === '') problems.push(`user ${user.id}: username is required`);
    userIds.add(user.id);
  }

  const channelIds = new Set<string>();
  for (const guild of fx.guilds) {
    const where = `guild ${String(guild.id)}`;
    if (!SNOWFLAKE.test(String(guild.id))) problems.push(`${where}: id must be a snowflake`);
    if (typeof guild.botMember !== 'boolean') problems.push(`${where}: botMember must be a boolean`);
    if (guild.whiteLabelBots !== undefined && (!Array.isArray(guild.whiteLabelBots) || guild.whiteLabelBots.some((id) => !whiteLabelIds.has(id)))) {
      problems.push(`${where}: whiteLabelBots must list client ids of whiteLabelApplications`);
    }
    if (!Array.isArray(guild.roles) || !Array.isArray(guild.channels) || !Array.isArray(guild.members) || !Array.isArray(guild.emojis)) {
      problems.push(`${where}: roles, channels, emojis and members must be arrays`);
      continue;
    }
    const roleIds = new Set(guild.roles.map((r) => r.id));
    if (!roleIds.has(guild.id)) problems.push(`${where}: the @everyone role must have the guild id`);
    for (const role of guild.roles) {
      if (!/^\d+$/.test(role.permissions)) problems.push(`${where} role ${role.id}: permissions must be a decimal string`);
    }
    const categories = new Set(guild.channels.filter((c) => c.type === ChannelType.GuildCategory).map((c) => c.id));
    for (const channel of guild.channels) {
      if (channelIds.has(channel.id)) problems.push(`channel ${channel.id}: duplicate id`);
      channelIds.add(channel.id);
      const parent = 'parent_id' in channel ? channel.parent_id : null;
      if (parent && !categories.has(parent)) problems.push(`channel ${channel.id}: parent_id ${parent} is not a category of ${where}`);
    }
    const memberIds = new Set<string>();
    for (const member of guild.members) {
      if (!userIds.has(member.userId)) problems.push(`${where}: member ${member.userId} is not in users`);
      if (memberIds.has(member.userId)) problems.push(`${where}: member ${member.userId} listed twice`);
      memberIds.add(member.userId);
      for (const roleId of member.roles) {
        if (!roleIds.has(roleId)) problems.push(`${where}: member ${member.userId} has unknown role ${roleId}`);
      }
    }
    if (!memberIds.has(guild.owner_id)) problems.push(`${where}: owner ${guild.owner_id} must be a member`);
    for (const emoji of guild.emojis) {
      for (const roleId of emoji.roles ?? []) {
        if (!roleIds.has(roleId)) problems.push(`${where}: emoji ${String(emoji.id)} references unknown role ${roleId}`);
      }
    }
  }
  return problems;
}
