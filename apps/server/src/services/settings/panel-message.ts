import type { Embed, EmojiRef, MessageBody, PanelButton, PanelOption } from '@ticket/contracts';
import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIMessageComponentEmoji,
  type RESTPostAPIChannelMessageJSONBody,
} from 'discord-api-types/v10';

/** Ids the interactions endpoint reads back: which panel, and for a button which subject. */
export const panelCustomId = (panelId: string, subjectId?: string) => (subjectId ? `panel:${panelId}:${subjectId}` : `panel:${panelId}`);

export function parsePanelCustomId(customId: string): { panelId: string; subjectId: string | null } | null {
  const match = /^panel:([^:]+)(?::(.+))?$/.exec(customId);
  return match ? { panelId: match[1]!, subjectId: match[2] ?? null } : null;
}

const STYLES = { Primary: ButtonStyle.Primary, Secondary: ButtonStyle.Secondary, Success: ButtonStyle.Success, Danger: ButtonStyle.Danger } as const;

/** A panel has no member to fill placeholders for, so only real web addresses are sent. */
const webUrl = (url: string | undefined) => (url && /^https?:\/\//i.test(url.trim()) ? url.trim() : undefined);

const emoji = (e: EmojiRef | null): APIMessageComponentEmoji | undefined =>
  e ? { ...(e.id ? { id: e.id } : {}), ...(e.name ? { name: e.name } : {}), ...(e.animated ? { animated: true } : {}) } : undefined;

export function toPlatformEmbed(e: Embed): APIEmbed {
  const embed: APIEmbed = {};
  if (e.title) embed.title = e.title;
  if (e.description) embed.description = e.description;
  if (webUrl(e.url)) embed.url = webUrl(e.url);
  if (e.color !== undefined) embed.color = e.color;
  if (e.timestamp) embed.timestamp = e.timestamp;
  if (e.footer?.text) embed.footer = { text: e.footer.text, ...(webUrl(e.footer.iconUrl) ? { icon_url: webUrl(e.footer.iconUrl) } : {}) };
  if (webUrl(e.thumbnail?.url)) embed.thumbnail = { url: webUrl(e.thumbnail?.url)! };
  if (webUrl(e.image?.url)) embed.image = { url: webUrl(e.image?.url)! };
  if (e.author?.name) {
    embed.author = {
      name: e.author.name,
      ...(webUrl(e.author.url) ? { url: webUrl(e.author.url) } : {}),
      ...(webUrl(e.author.iconUrl) ? { icon_url: webUrl(e.author.iconUrl) } : {}),
    };
  }
  if (e.fields?.length) embed.fields = e.fields.map((f) => ({ name: f.name, value: f.value, ...(f.inline ? { inline: true } : {}) }));
  return embed;
}

/** What a posted panel is made of. */
export type PanelShape = { id: string; message: MessageBody } & ({ type: 'BUTTON'; subjects: PanelButton[] } | { type: 'LIST'; subjects: PanelOption[] });

/** The message as the platform takes it: content, embeds, and buttons in rows of five or one select menu. */
export function toPlatformMessage(panel: PanelShape): RESTPostAPIChannelMessageJSONBody {
  const rows: APIActionRowComponent<APIComponentInMessageActionRow>[] = [];
  if (panel.type === 'BUTTON') {
    const buttons = panel.subjects.map((b) => ({
      type: ComponentType.Button as const,
      style: STYLES[b.style],
      label: b.text,
      custom_id: panelCustomId(panel.id, b.subjectId!),
      ...(emoji(b.emoji) ? { emoji: emoji(b.emoji) } : {}),
    }));
    for (let i = 0; i < buttons.length; i += 5) rows.push({ type: ComponentType.ActionRow, components: buttons.slice(i, i + 5) });
  } else {
    rows.push({
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.StringSelect,
          custom_id: panelCustomId(panel.id),
          options: panel.subjects.map((o) => ({
            label: o.label,
            value: o.subjectId!,
            ...(o.description ? { description: o.description } : {}),
            ...(emoji(o.emoji) ? { emoji: emoji(o.emoji) } : {}),
          })),
        },
      ],
    });
  }
  return {
    content: panel.message.content,
    embeds: panel.message.embeds.map(toPlatformEmbed),
    components: rows,
    allowed_mentions: { parse: [] },
  };
}
