import { GatewayDispatchEvents, GatewayIntentBits, PermissionFlagsBits } from 'discord-api-types/v10';
import type { GatewayGuildCreateDispatchData, GatewayMessageCreateDispatchData } from 'discord-api-types/v10';
import type { Application } from './applications.ts';
import { hasPermission } from './permissions.ts';
import type { PlatformEvent } from './platform-events.ts';
import type { SandboxState } from './state.ts';

/** What a session asked for when it identified, as far as filtering is concerned. */
export interface Subscriber {
  intents: number;
  largeThreshold: number;
}

const I = GatewayIntentBits;
const E = GatewayDispatchEvents;

/** Discord's intents table: [in a guild, in a DM]; events not listed are sent regardless. */
const INTENT_OF: Partial<Record<GatewayDispatchEvents, [number, number | null]>> = {
  [E.GuildCreate]: [I.Guilds, null],
  [E.GuildUpdate]: [I.Guilds, null],
  [E.GuildDelete]: [I.Guilds, null],
  [E.GuildRoleCreate]: [I.Guilds, null],
  [E.GuildRoleUpdate]: [I.Guilds, null],
  [E.GuildRoleDelete]: [I.Guilds, null],
  [E.ChannelCreate]: [I.Guilds, null],
  [E.ChannelUpdate]: [I.Guilds, null],
  [E.ChannelDelete]: [I.Guilds, null],
  [E.GuildMemberAdd]: [I.GuildMembers, null],
  [E.GuildMemberUpdate]: [I.GuildMembers, null],
  [E.GuildMemberRemove]: [I.GuildMembers, null],
  [E.GuildAuditLogEntryCreate]: [I.GuildModeration, null],
  [E.MessageCreate]: [I.GuildMessages, I.DirectMessages],
  [E.MessageUpdate]: [I.GuildMessages, I.DirectMessages],
  [E.MessageDelete]: [I.GuildMessages, I.DirectMessages],
  [E.MessageDeleteBulk]: [I.GuildMessages, null],
  [E.MessageReactionAdd]: [I.GuildMessageReactions, I.DirectMessageReactions],
  [E.MessageReactionRemove]: [I.GuildMessageReactions, I.DirectMessageReactions],
  [E.MessageReactionRemoveAll]: [I.GuildMessageReactions, I.DirectMessageReactions],
  [E.MessageReactionRemoveEmoji]: [I.GuildMessageReactions, I.DirectMessageReactions],
};

/** Whether the intents let this event through; GUILD_MEMBER_UPDATE about the bot itself always passes. */
export function intentAllows(app: Application, subscriber: Subscriber, event: PlatformEvent): boolean {
  const entry = INTENT_OF[event.t];
  if (!entry) return true;
  if (event.t === E.GuildMemberUpdate && (event.d as { user?: { id?: string } }).user?.id === app.botUserId) return true;
  const needed = event.guildId === null ? entry[1] : entry[0];
  return needed !== null && (subscriber.intents & needed) !== 0;
}

/**
 * Whether the application's bot may see the event at all now: only its own events when the event
 * is for one application, guild events only while it is a member (except the GUILD_DELETE that
 * tells it it left), messages and reactions only in channels it can view, audit log entries only
 * with View Audit Log.
 */
export function botMaySee(state: SandboxState, app: Application, event: PlatformEvent): boolean {
  if (event.applicationId !== undefined && event.applicationId !== app.clientId) return false;
  if (event.guildId === null || event.t === E.GuildDelete) return true;
  const guild = state.guilds.get(event.guildId);
  if (!guild || !state.isBotIn(guild, app)) return false;
  if (event.t === E.GuildAuditLogEntryCreate) return hasPermission(state.memberPermissions(guild, app.botUserId), PermissionFlagsBits.ViewAuditLog);
  if (event.channelId === undefined) return true;
  const channel = guild.channels.find((c) => c.id === event.channelId);
  return !channel || hasPermission(state.botChannelPermissions(guild, channel, app), PermissionFlagsBits.ViewChannel);
}

function withoutContent(app: Application, message: GatewayMessageCreateDispatchData): GatewayMessageCreateDispatchData {
  const exempt = message.author.id === app.botUserId || message.mentions.some((u) => u.id === app.botUserId);
  const stripped: GatewayMessageCreateDispatchData = exempt ? message : { ...message, content: '', embeds: [], attachments: [], components: [] };
  if (!exempt) delete stripped.poll;
  if (message.referenced_message) stripped.referenced_message = withoutContent(app, message.referenced_message as GatewayMessageCreateDispatchData);
  return stripped;
}

/**
 * The event's data as this session receives it: message content emptied without MESSAGE_CONTENT
 * (unless the bot wrote the message or is mentioned; DMs keep theirs), and GUILD_CREATE members
 * trimmed as Discord does without GUILD_PRESENCES or above the large threshold.
 */
export function dataFor(app: Application, subscriber: Subscriber, event: PlatformEvent): unknown {
  const isMessage = event.t === E.MessageCreate || event.t === E.MessageUpdate;
  if (isMessage && event.guildId !== null && (subscriber.intents & I.MessageContent) === 0) {
    return withoutContent(app, event.d as GatewayMessageCreateDispatchData);
  }
  if (event.t === E.GuildCreate) {
    const guild = event.d as GatewayGuildCreateDispatchData;
    const large = guild.member_count > subscriber.largeThreshold;
    let members = guild.members;
    if ((subscriber.intents & I.GuildPresences) === 0) members = members.filter((m) => m.user.id === app.botUserId);
    else if (large) members = members.filter((m) => m.user.id === app.botUserId || m.roles.length > 0 || m.nick);
    return { ...guild, large, members };
  }
  return event.d;
}
