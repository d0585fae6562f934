import { randomBytes } from 'node:crypto';
import { GatewayIntentBits } from 'discord-api-types/v10';
import type { ApplicationKey } from './application-key.ts';
import { privateKeyHex } from './application-key.ts';
import type { FixtureApplication, PrivilegedIntentSettings } from './fixtures.ts';

/**
 * An application registered with the platform and its bot: the product's own (the main one) or a
 * white-label one a customer made in their own developer portal. Each has its own bot user, token,
 * key, privileged intent switches and guild memberships; REST and the gateway act as the bot whose
 * token they are given.
 */
export interface Application {
  clientId: string;
  clientSecret: string;
  /** Null once revoked (`DELETE /_sandbox/applications/:id/token`): nothing accepts the old one. */
  botToken: string | null;
  botUserId: string;
  botUsername: string;
  botDiscriminator: string;
  botAvatar: string | null;
  name: string;
  icon: string | null;
  description: string;
  redirectUris: string[];
  privilegedIntents: Partial<PrivilegedIntentSettings>;
  key: ApplicationKey;
  whiteLabel: boolean;
  /**
   * A white-label application's own Interactions Endpoint URL: null for none (its interactions go
   * over its gateway sessions), undefined to use the sandbox's (`PUT /_sandbox/config`). The main
   * application always uses the sandbox's.
   */
  interactionsUrl?: string | null;
}

const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function randomChars(length: number): string {
  return [...randomBytes(length)].map((b) => TOKEN_CHARS[b % TOKEN_CHARS.length]).join('');
}

/** Shaped like the platform's bot tokens: the bot user id in base64url, a timestamp part and an HMAC part. */
export function newBotToken(botUserId: string): string {
  return `${Buffer.from(botUserId).toString('base64url')}.${randomChars(6)}.${randomChars(38)}`;
}

export const newClientSecret = (): string => randomChars(32);

export function applicationFromFixture(fixture: FixtureApplication, key: ApplicationKey, whiteLabel: boolean): Application {
  return {
    clientId: fixture.clientId,
    clientSecret: fixture.clientSecret,
    botToken: fixture.botToken,
    botUserId: fixture.botUserId,
    botUsername: fixture.botUsername,
    botDiscriminator: fixture.botDiscriminator ?? '0',
    botAvatar: fixture.botAvatar ?? null,
    name: fixture.name ?? fixture.botUsername,
    icon: fixture.icon === undefined ? (fixture.botAvatar ?? null) : fixture.icon,
    description: fixture.description ?? (whiteLabel ? '' : 'Local sandbox application'),
    redirectUris: [...(fixture.redirectUris ?? [])],
    privilegedIntents: { ...fixture.privilegedIntents },
    key,
    whiteLabel,
  };
}

/** The privileged intents switched on in the developer portal (all, unless the fixtures or a control route say otherwise). */
export function enabledPrivilegedIntents(app: Application): number {
  const settings = app.privilegedIntents;
  return (
    (settings.guildMembers === false ? 0 : GatewayIntentBits.GuildMembers) |
    (settings.guildPresences === false ? 0 : GatewayIntentBits.GuildPresences) |
    (settings.messageContent === false ? 0 : GatewayIntentBits.MessageContent)
  );
}

export function privilegedIntentSwitches(app: Application): PrivilegedIntentSettings {
  const enabled = enabledPrivilegedIntents(app);
  return {
    guildMembers: (enabled & GatewayIntentBits.GuildMembers) !== 0,
    guildPresences: (enabled & GatewayIntentBits.GuildPresences) !== 0,
    messageContent: (enabled & GatewayIntentBits.MessageContent) !== 0,
  };
}

/** An application as the control routes show it: everything a test or the README needs, keys and token included. */
export function describeApplication(app: Application, guildIds: string[], interactionsUrl: string | null) {
  return {
    id: app.clientId,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    name: app.name,
    icon: app.icon,
    description: app.description,
    botToken: app.botToken,
    tokenRevoked: app.botToken === null,
    botUserId: app.botUserId,
    botUsername: app.botUsername,
    botDiscriminator: app.botDiscriminator,
    botAvatar: app.botAvatar,
    redirectUris: [...app.redirectUris],
    /** Hex of the raw Ed25519 public key: the portal's "Public Key", the API's `verify_key`. */
    publicKey: app.key.publicKey,
    /** Hex of the 32-byte Ed25519 seed interactions are signed with. */
    privateKey: privateKeyHex(app.key),
    privilegedIntents: privilegedIntentSwitches(app),
    whiteLabel: app.whiteLabel,
    /** Where its interactions are POSTed (null: over its gateway sessions), and whether that is its own setting or the sandbox's. */
    interactionsUrl,
    interactionsUrlSource: app.whiteLabel && app.interactionsUrl !== undefined ? 'application' : 'sandbox',
    guilds: guildIds,
  };
}
