import { DISCORD_LIMITS, Embed as EmbedSchema, type Attachment, type EmojiRef, type Embed } from '@ticket/contracts';
import { GatewayDispatchEvents } from 'discord-api-types/v10';
import type { APIAttachment, APIEmbed, APIMessage, GatewayDispatchPayload } from 'discord-api-types/v10';
import type { Report } from './reports';

/** Whether a channel holds an open ticket: `unknown` when the runtime cannot tell yet (decided when sending). */
export type TicketChannelAnswer = 'yes' | 'no' | 'unknown';

export interface DispatchContext {
  shardId: number;
  /** The shard's gateway session: with the sequence it names a dispatch for good. */
  sessionId: string;
  /** The bot's own user id, whose messages the API records itself; null until known. */
  botUserId: string | null;
  /**
   * The other bots the API speaks as (the main bot, the white-label bots this runtime runs): their
   * messages are the API's own too, whichever session sees them.
   */
  isOtherOwnBot?(userId: string): boolean;
  ticketChannel(guildId: string, channelId: string): TicketChannelAnswer;
}

const MAX_ATTACHMENTS = 10;
const MAX_MENTIONS = 100;

/** Discord's embed (snake_case, any kind) as the contract's; null when it does not fit the contract. */
export function toEmbed(embed: APIEmbed): Embed | null {
  const candidate: Embed = {
    ...(embed.title !== undefined && { title: embed.title }),
    ...(embed.description !== undefined && { description: embed.description }),
    ...(embed.url !== undefined && { url: embed.url }),
    ...(embed.color !== undefined && { color: embed.color }),
    ...(embed.timestamp !== undefined && { timestamp: embed.timestamp }),
    ...(embed.footer && { footer: { text: embed.footer.text, ...(embed.footer.icon_url && { iconUrl: embed.footer.icon_url }) } }),
    ...(embed.thumbnail?.url && { thumbnail: { url: embed.thumbnail.url } }),
    ...(embed.image?.url && { image: { url: embed.image.url } }),
    ...(embed.author && {
      author: {
        name: embed.author.name,
        ...(embed.author.url && { url: embed.author.url }),
        ...(embed.author.icon_url && { iconUrl: embed.author.icon_url }),
      },
    }),
    ...(embed.fields && { fields: embed.fields.map((f) => ({ name: f.name, value: f.value, ...(f.inline !== undefined && { inline: f.inline }) })) }),
  };
  if (Object.keys(candidate).length === 0) return null;
  const parsed = EmbedSchema.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}

export function toEmbeds(embeds: readonly APIEmbed[] | undefined): Embed[] {
  return (embeds ?? [])
    .map(toEmbed)
    .filter((e): e is Embed => e !== null)
    .slice(0, DISCORD_LIMITS.embedsPerMessage);
}

export function toAttachment(a: APIAttachment): Attachment {
  return { id: a.id, filename: a.filename, url: a.url, size: a.size, contentType: a.content_type ?? null };
}

/** The longest message a member may write (twice the usual limit, with the platform's larger allowance); longer is cut rather than lost whole. */
const MAX_CONTENT = 2 * DISCORD_LIMITS.messageContent;

export function toContent(content: string | undefined): string {
  const text = content ?? '';
  return text.length > MAX_CONTENT ? text.slice(0, MAX_CONTENT) : text;
}

function toEmojiRef(emoji: { id: string | null; name: string | null; animated?: boolean }): EmojiRef {
  return { id: emoji.id, name: emoji.name, ...(emoji.animated !== undefined && { animated: emoji.animated }) };
}

function messageCreated(message: APIMessage & { guild_id?: string }, guildId: string): Report | null {
  const content = toContent(message.content);
  const embeds = toEmbeds(message.embeds);
  const attachments = (message.attachments ?? []).slice(0, MAX_ATTACHMENTS).map(toAttachment);
  // Nothing to show (a sticker, a poll, or content withheld without the Message Content intent).
  if (content.trim() === '' && embeds.length === 0 && attachments.length === 0) return null;
  return {
    kind: 'messageCreated',
    guildId,
    channelId: message.channel_id,
    messageId: message.id,
    authorId: message.author.id,
    content,
    embeds,
    mentions: [...new Set((message.mentions ?? []).map((u) => u.id))].slice(0, MAX_MENTIONS),
    attachments,
    replyTo: message.message_reference?.message_id ?? null,
  };
}

/**
 * The reports one gateway dispatch asks for: pure, so that the same dispatch delivered twice
 * (a resume's replay) gives the same reports with the same event ids.
 */
export function mapDispatch(payload: GatewayDispatchPayload, ctx: DispatchContext): Report[] {
  // Events without ids of their own are named by where the gateway put them.
  const dispatchId = `${ctx.shardId}:${ctx.sessionId}:${payload.s}`;
  const ownBot = (userId: string | undefined) => userId !== undefined && ((ctx.botUserId !== null && userId === ctx.botUserId) || ctx.isOtherOwnBot?.(userId) === true);
  const inTicket = (guildId: string | undefined, channelId: string): guildId is string =>
    guildId !== undefined && ctx.ticketChannel(guildId, channelId) !== 'no';

  switch (payload.t) {
    case GatewayDispatchEvents.MessageCreate: {
      const m = payload.d;
      if (!inTicket(m.guild_id, m.channel_id)) return [];
      if (ownBot(m.author.id)) return [];
      const report = messageCreated(m, m.guild_id!);
      return report ? [report] : [];
    }
    case GatewayDispatchEvents.MessageUpdate: {
      const m = payload.d as Partial<APIMessage> & { id: string; channel_id: string; guild_id?: string };
      if (!inTicket(m.guild_id, m.channel_id)) return [];
      if (ownBot(m.author?.id)) return [];
      // An update without content or embeds (a pin, an unfurl's metadata) changes nothing the ticket shows.
      if (typeof m.content !== 'string' && m.embeds === undefined) return [];
      return [
        {
          kind: 'messageUpdated',
          guildId: m.guild_id!,
          channelId: m.channel_id,
          messageId: m.id,
          content: toContent(m.content),
          embeds: toEmbeds(m.embeds),
        },
      ];
    }
    case GatewayDispatchEvents.MessageDelete: {
      const d = payload.d;
      if (!inTicket(d.guild_id, d.channel_id)) return [];
      return [{ kind: 'messageDeleted', guildId: d.guild_id!, channelId: d.channel_id, messageId: d.id }];
    }
    case GatewayDispatchEvents.MessageDeleteBulk: {
      const d = payload.d;
      if (!inTicket(d.guild_id, d.channel_id)) return [];
      return d.ids.map((id) => ({ kind: 'messageDeleted', guildId: d.guild_id!, channelId: d.channel_id, messageId: id }));
    }
    case GatewayDispatchEvents.MessageReactionAdd: {
      const d = payload.d;
      if (!inTicket(d.guild_id, d.channel_id)) return [];
      return [{ kind: 'reactionAdded', guildId: d.guild_id!, channelId: d.channel_id, messageId: d.message_id, userId: d.user_id, emoji: toEmojiRef(d.emoji) }];
    }
    case GatewayDispatchEvents.MessageReactionRemove: {
      const d = payload.d;
      if (!inTicket(d.guild_id, d.channel_id)) return [];
      return [{ kind: 'reactionRemoved', guildId: d.guild_id!, channelId: d.channel_id, messageId: d.message_id, userId: d.user_id, emoji: toEmojiRef(d.emoji) }];
    }
    case GatewayDispatchEvents.MessageReactionRemoveAll: {
      const d = payload.d;
      if (!inTicket(d.guild_id, d.channel_id)) return [];
      return [{ kind: 'reactionsCleared', guildId: d.guild_id!, channelId: d.channel_id, messageId: d.message_id, emoji: null }];
    }
    case GatewayDispatchEvents.MessageReactionRemoveEmoji: {
      const d = payload.d;
      if (!inTicket(d.guild_id, d.channel_id)) return [];
      return [{ kind: 'reactionsCleared', guildId: d.guild_id, channelId: d.channel_id, messageId: d.message_id, emoji: toEmojiRef(d.emoji) }];
    }
    case GatewayDispatchEvents.GuildCreate: {
      const d = payload.d as { id: string; unavailable?: boolean };
      if (d.unavailable) return [];
      // Once per session: a server seen again after an outage is the same news.
      return [{ kind: 'serverEvent', guildId: d.id, event: { eventId: `botAdded:${d.id}:${ctx.sessionId}`, type: 'botAdded' } }];
    }
    case GatewayDispatchEvents.GuildDelete: {
      const d = payload.d;
      if (d.unavailable) return [];
      return [{ kind: 'serverEvent', guildId: d.id, event: { eventId: `botRemoved:${d.id}:${dispatchId}`, type: 'botRemoved' } }];
    }
    case GatewayDispatchEvents.GuildMemberRemove: {
      const d = payload.d;
      return [{ kind: 'serverEvent', guildId: d.guild_id, event: { eventId: `memberLeft:${d.guild_id}:${d.user.id}:${dispatchId}`, type: 'memberLeft', userId: d.user.id } }];
    }
    case GatewayDispatchEvents.GuildMemberUpdate: {
      const d = payload.d;
      return [
        { kind: 'serverEvent', guildId: d.guild_id, event: { eventId: `memberUpdated:${d.guild_id}:${d.user.id}:${dispatchId}`, type: 'memberUpdated', userId: d.user.id } },
      ];
    }
    case GatewayDispatchEvents.GuildRoleCreate:
    case GatewayDispatchEvents.GuildRoleUpdate: {
      const d = payload.d;
      return [{ kind: 'serverEvent', guildId: d.guild_id, event: { eventId: `rolesChanged:${d.guild_id}:${d.role.id}:${dispatchId}`, type: 'rolesChanged' } }];
    }
    case GatewayDispatchEvents.GuildRoleDelete: {
      const d = payload.d;
      return [{ kind: 'serverEvent', guildId: d.guild_id, event: { eventId: `rolesChanged:${d.guild_id}:${d.role_id}:${dispatchId}`, type: 'rolesChanged' } }];
    }
    case GatewayDispatchEvents.ChannelCreate:
    case GatewayDispatchEvents.ChannelUpdate: {
      const d = payload.d as { id: string; guild_id?: string };
      if (d.guild_id === undefined) return [];
      return [{ kind: 'serverEvent', guildId: d.guild_id, event: { eventId: `channelsChanged:${d.id}:${dispatchId}`, type: 'channelsChanged' } }];
    }
    case GatewayDispatchEvents.ChannelDelete: {
      const d = payload.d as { id: string; guild_id?: string };
      if (d.guild_id === undefined) return [];
      const changed: Report = { kind: 'serverEvent', guildId: d.guild_id, event: { eventId: `channelsChanged:${d.id}:${dispatchId}`, type: 'channelsChanged' } };
      // A channel is deleted once: its id names the event.
      if (ctx.ticketChannel(d.guild_id, d.id) === 'no') return [changed];
      return [{ kind: 'channelDeleted', guildId: d.guild_id, channelId: d.id, eventId: `channelDeleted:${d.id}` }, changed];
    }
    default:
      return [];
  }
}
