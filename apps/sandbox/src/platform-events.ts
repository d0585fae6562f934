import { ChannelType, GatewayDispatchEvents } from 'discord-api-types/v10';
import type {
  APIAuditLogEntry,
  APIMessage,
  APIRole,
  GatewayChannelDeleteDispatchData,
  GatewayGuildDeleteDispatchData,
  GatewayGuildMemberRemoveDispatchData,
  GatewayGuildRoleDeleteDispatchData,
  GatewayMessageDeleteBulkDispatchData,
  GatewayMessageDeleteDispatchData,
} from 'discord-api-types/v10';
import type { Application } from './applications.ts';
import type { FixtureChannel } from './fixtures.ts';
import { gatewayGuild, gatewayMessage } from './gateway-payloads.ts';
import { toChannel, toGuildMember } from './serializers.ts';
import type { GuildState, InteractionRecord, MemberState, SandboxState, StoredMessage } from './state.ts';

/** Something that happened on the platform, as every gateway session with all intents would see it. */
export interface PlatformEvent {
  t: GatewayDispatchEvents;
  /** The dispatch's `d`, a snapshot taken when it happened. */
  d: unknown;
  /** Routes the event to the shard that owns this guild; null (DMs) goes to shard 0. */
  guildId: string | null;
  /** Message and reaction events reach only sessions whose bot can see this channel. */
  channelId?: string;
  /**
   * Only this application's sessions receive it: what concerns one bot alone (it joined or left a
   * guild, its DMs, an interaction with it). Otherwise every bot that may see it does.
   */
  applicationId?: string;
}

/** Where the sandbox's state changes are told; the gateway is one. */
export interface PlatformEventSink {
  /** Queues the event for every session that should receive it; answers how many did. */
  publish(event: PlatformEvent): number;
  /** Whether a connected or resumable session of the application would receive this guild's events (null: DMs). */
  reaches(guildId: string | null, applicationId: string): boolean;
  /** The application's token was revoked or reset, or the application is gone: its sessions end (4004). */
  revoked(applicationId: string): void;
}

export const NO_EVENTS: PlatformEventSink = { publish: () => 0, reaches: () => false, revoked: () => undefined };

type MessageEvent = GatewayDispatchEvents.MessageCreate | GatewayDispatchEvents.MessageUpdate;

/** A channel message was posted or edited; ephemeral messages never reach the gateway. */
export function publishMessage(state: SandboxState, t: MessageEvent, stored: StoredMessage): void {
  if (state.messages.get(stored.message.id) !== stored) return;
  const found = state.findChannel(stored.message.channel_id);
  const d = gatewayMessage(state, found?.guild ?? null, stored.message, found?.channel.type);
  // Discord documents `tts` as always false in updates.
  if (t === GatewayDispatchEvents.MessageUpdate) d.tts = false;
  state.events.publish({ t, d, guildId: stored.guildId, channelId: stored.message.channel_id });
}

export function publishMessageDelete(state: SandboxState, stored: StoredMessage): void {
  if (state.messages.get(stored.message.id) !== stored) return;
  const d: GatewayMessageDeleteDispatchData = { id: stored.message.id, channel_id: stored.message.channel_id, guild_id: stored.guildId };
  state.events.publish({ t: GatewayDispatchEvents.MessageDelete, d, guildId: stored.guildId, channelId: stored.message.channel_id });
}

export function publishMessagesDeleted(state: SandboxState, guildId: string, channelId: string, ids: string[]): void {
  const d: GatewayMessageDeleteBulkDispatchData = { ids, channel_id: channelId, guild_id: guildId };
  state.events.publish({ t: GatewayDispatchEvents.MessageDeleteBulk, d, guildId, channelId });
}

/** A bot's own message in its DM channel: DM events carry no guild, go to shard 0, and only to that bot. */
export function publishDirectMessage(state: SandboxState, app: Application, message: APIMessage): void {
  const d = gatewayMessage(state, null, message, ChannelType.DM);
  state.events.publish({ t: GatewayDispatchEvents.MessageCreate, d, guildId: null, applicationId: app.clientId });
}

type ChannelEvent = GatewayDispatchEvents.ChannelCreate | GatewayDispatchEvents.ChannelUpdate | GatewayDispatchEvents.ChannelDelete;

export function publishChannel(state: SandboxState, t: ChannelEvent, guild: GuildState, channel: FixtureChannel): void {
  const d = toChannel(guild, channel) as GatewayChannelDeleteDispatchData;
  state.events.publish({ t, d, guildId: guild.id });
}

/** The bot joined the guild: only its own sessions hear of it this way. */
export function publishGuildCreate(state: SandboxState, guild: GuildState, app: Application): void {
  state.events.publish({ t: GatewayDispatchEvents.GuildCreate, d: gatewayGuild(state, guild, app), guildId: guild.id, applicationId: app.clientId });
}

/** The bot left or was removed: `unavailable` is absent, which is how clients tell it from an outage. */
export function publishGuildDelete(state: SandboxState, guildId: string, app: Application): void {
  const d: GatewayGuildDeleteDispatchData = { id: guildId };
  state.events.publish({ t: GatewayDispatchEvents.GuildDelete, d, guildId, applicationId: app.clientId });
}

type RoleEvent = GatewayDispatchEvents.GuildRoleCreate | GatewayDispatchEvents.GuildRoleUpdate;

export function publishRole(state: SandboxState, t: RoleEvent, guild: GuildState, role: APIRole): void {
  state.events.publish({ t, d: { guild_id: guild.id, role: structuredClone(role) }, guildId: guild.id });
}

export function publishRoleDelete(state: SandboxState, guild: GuildState, roleId: string): void {
  const d: GatewayGuildRoleDeleteDispatchData = { guild_id: guild.id, role_id: roleId };
  state.events.publish({ t: GatewayDispatchEvents.GuildRoleDelete, d, guildId: guild.id });
}

type MemberEvent = GatewayDispatchEvents.GuildMemberAdd | GatewayDispatchEvents.GuildMemberUpdate;

export function publishMember(state: SandboxState, t: MemberEvent, guild: GuildState, member: MemberState): void {
  state.events.publish({ t, d: { ...toGuildMember(state, member), guild_id: guild.id }, guildId: guild.id });
}

export function publishMemberRemove(state: SandboxState, guild: GuildState, userId: string): void {
  const user = state.publicUser(userId);
  if (!user) return;
  const d: GatewayGuildMemberRemoveDispatchData = { guild_id: guild.id, user };
  state.events.publish({ t: GatewayDispatchEvents.GuildMemberRemove, d, guildId: guild.id });
}

/** A member's click or submit, for an application without an interactions endpoint URL: to that application only. */
export function publishInteraction(state: SandboxState, record: InteractionRecord): number {
  return state.events.publish({
    t: GatewayDispatchEvents.InteractionCreate,
    d: structuredClone(record.payload),
    guildId: record.guildId,
    applicationId: record.applicationId,
  });
}

export function publishAuditLogEntry(state: SandboxState, guildId: string, entry: APIAuditLogEntry): void {
  state.events.publish({ t: GatewayDispatchEvents.GuildAuditLogEntryCreate, d: { ...structuredClone(entry), guild_id: guildId }, guildId });
}
