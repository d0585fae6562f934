import type { ChannelPermission, MessageBody, PermissionOverwrite, SubjectButton, TimeSpan } from '@ticket/contracts';
import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIMessageComponentEmoji,
  type APIOverwrite,
  ButtonStyle,
  ComponentType,
  OverwriteType,
  PermissionFlagsBits,
} from 'discord-api-types/v10';
import type { Say } from '../../i18n/bot-words';
import { toPlatformEmbed } from '../settings';

/** What a placeholder in a subject's texts stands for when a ticket is opened. */
export interface TicketContext {
  userId: string;
  username: string;
  ticketNumber: number;
  subjectName: string;
  serverName: string;
  channelId?: string;
}

const MS: Record<TimeSpan['unit'], number> = { seconds: 1000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };
export const spanMs = (span: TimeSpan | null | undefined): number => (span ? span.time * MS[span.unit] : 0);

/** A wait in words, as "in …" reads in the ticket's language: "2 hours", "1 minute", "45 seconds". */
export function spanText(ms: number, say: Say): string {
  for (const [unit, size] of [['time.days', 86_400_000], ['time.hours', 3_600_000], ['time.minutes', 60_000]] as const) {
    if (ms >= size) return say(unit, { count: Math.ceil(ms / size) });
  }
  return say('time.seconds', { count: Math.max(1, Math.ceil(ms / 1000)) });
}

/**
 * The channel name of a new ticket from the subject's format (SPEC §3 ticketNameFormat): the
 * placeholders filled in, then shaped as the platform names text channels (lower case, dashes,
 * letters, digits, `-` and `_` only, at most 100 characters).
 */
export function ticketChannelName(format: string, context: TicketContext): string {
  const filled = format
    .replaceAll('{number}', String(context.ticketNumber).padStart(4, '0'))
    .replaceAll('{username}', context.username)
    .replaceAll('{userId}', context.userId)
    .replaceAll('{subject}', context.subjectName);
  const name = filled
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^\p{L}\p{N}_-]/gu, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 100);
  return name || `ticket-${context.ticketNumber}`;
}

/** The placeholders of messages: `{user}` mentions, the rest are words. */
export function fillPlaceholders(text: string, context: TicketContext): string {
  return text
    .replaceAll('{user}', `<@${context.userId}>`)
    .replaceAll('{user.id}', context.userId)
    .replaceAll('{user.name}', context.username)
    .replaceAll('{ticket.number}', String(context.ticketNumber))
    .replaceAll('{ticket.channel}', context.channelId ? `<#${context.channelId}>` : '')
    .replaceAll('{subject}', context.subjectName)
    .replaceAll('{server}', context.serverName);
}

export function filledMessage(message: MessageBody, context: TicketContext): { content: string; embeds: ReturnType<typeof toPlatformEmbed>[] } {
  const fill = (text: string | undefined) => (text === undefined ? undefined : fillPlaceholders(text, context));
  return {
    content: fillPlaceholders(message.content, context),
    embeds: message.embeds.map((embed) =>
      toPlatformEmbed({
        ...embed,
        title: fill(embed.title),
        description: fill(embed.description),
        footer: embed.footer ? { ...embed.footer, text: fillPlaceholders(embed.footer.text, context) } : undefined,
        fields: embed.fields?.map((f) => ({ ...f, name: fillPlaceholders(f.name, context), value: fillPlaceholders(f.value, context) })),
      }),
    ),
  };
}

/** Ids the interactions endpoint reads back from a ticket's buttons and modals. */
export const ticketCustomId = (action: TicketAction, ticketId: string) => `ticket:${action}:${ticketId}`;
export type TicketAction = 'close' | 'claim' | 'cancel-close' | 'close-now' | 'close-reason';
export function parseTicketCustomId(customId: string): { action: TicketAction; ticketId: string } | null {
  const match = /^ticket:(close|claim|cancel-close|close-now|close-reason):(.+)$/.exec(customId);
  return match ? { action: match[1] as TicketAction, ticketId: match[2]! } : null;
}
export const formCustomId = (panelId: string, subjectId: string) => `form:${panelId}:${subjectId}`;
export function parseFormCustomId(customId: string): { panelId: string; subjectId: string } | null {
  const match = /^form:([^:]+):(.+)$/.exec(customId);
  return match ? { panelId: match[1]!, subjectId: match[2]! } : null;
}

const STYLES = { Primary: ButtonStyle.Primary, Secondary: ButtonStyle.Secondary, Success: ButtonStyle.Success, Danger: ButtonStyle.Danger } as const;

const emoji = (e: SubjectButton['emote']): APIMessageComponentEmoji | undefined =>
  e ? { ...(e.id ? { id: e.id } : {}), ...(e.name ? { name: e.name } : {}), ...(e.animated ? { animated: true } : {}) } : undefined;

/** A subject's button as the platform draws it; a Link-styled one needs its URL. */
export function platformButton(button: SubjectButton, customId: string, fallbackLabel: string): APIButtonComponent {
  const label = button.text.trim() || fallbackLabel;
  const icon = emoji(button.emote);
  if (button.style === 'Link' && button.url && /^https?:\/\//i.test(button.url)) {
    return { type: ComponentType.Button, style: ButtonStyle.Link, label, url: button.url, ...(icon ? { emoji: icon } : {}) };
  }
  const style = button.style === 'Link' ? ButtonStyle.Secondary : STYLES[button.style];
  return { type: ComponentType.Button, style, label, custom_id: customId, ...(icon ? { emoji: icon } : {}) };
}

export const row = (...components: APIButtonComponent[]): APIActionRowComponent<APIComponentInMessageActionRow> => ({
  type: ComponentType.ActionRow,
  components,
});

export const linkButton = (label: string, url: string): APIButtonComponent => ({ type: ComponentType.Button, style: ButtonStyle.Link, label, url });

const bits = (permissions: readonly ChannelPermission[]): bigint =>
  permissions.reduce((sum, permission) => sum | PermissionFlagsBits[permission], 0n);

/** One permission overwrite of a ticket channel from a subject's allow/deny lists. */
export function overwrite(id: string, type: 'role' | 'member', permissions: PermissionOverwrite, alsoAllow: readonly ChannelPermission[] = []): APIOverwrite {
  return {
    id,
    type: type === 'role' ? OverwriteType.Role : OverwriteType.Member,
    allow: String(bits([...permissions.allow, ...alsoAllow])),
    deny: String(bits(permissions.deny.filter((p) => !alsoAllow.includes(p)))),
  };
}

/** Nobody but the ticket's people sees it: `@everyone` (the server's own id as a role) is denied. */
export const hiddenFromEveryone = (serverId: string): APIOverwrite => ({
  id: serverId,
  type: OverwriteType.Role,
  allow: '0',
  deny: String(PermissionFlagsBits.ViewChannel),
});

/** The bot keeps what it needs to run the ticket whatever the subject's lists say. */
export const BOT_PERMISSIONS: readonly ChannelPermission[] = ['ViewChannel', 'SendMessages', 'EmbedLinks', 'AttachFiles', 'ReadMessageHistory', 'ManageChannels'];
