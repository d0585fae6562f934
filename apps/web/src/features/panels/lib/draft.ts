import type {
  Embed,
  EmojiRef,
  MessageBody,
  Panel,
  PanelButtonStyle,
  PanelContent,
  PanelInput,
  PanelType,
} from '@ticket/contracts';

/**
 * The panel as the wizard edits it. Lists carry a key each, so that reordering keeps each row's
 * inputs (and focus) with it; the buttons and the options are both kept, so switching between
 * buttons and a dropdown loses nothing typed. `toPanelInput` turns it into what the server takes.
 */
export interface ButtonDraft {
  key: string;
  subjectId: string | null;
  text: string;
  style: PanelButtonStyle;
  emoji: EmojiRef | null;
}

export interface OptionDraft {
  key: string;
  subjectId: string | null;
  label: string;
  description: string;
  emoji: EmojiRef | null;
}

export interface FieldDraft {
  key: string;
  name: string;
  value: string;
  inline: boolean;
}

export interface EmbedDraft {
  key: string;
  title: string;
  url: string;
  description: string;
  /** `#rrggbb`, or empty for the platform's default bar. */
  color: string;
  authorName: string;
  authorUrl: string;
  authorIconUrl: string;
  fields: FieldDraft[];
  imageUrl: string;
  thumbnailUrl: string;
  footerText: string;
  footerIconUrl: string;
  /** An ISO date-time, or empty for none. */
  timestamp: string;
}

export interface PanelDraft {
  name: string;
  type: PanelType;
  content: string;
  embeds: EmbedDraft[];
  buttons: ButtonDraft[];
  options: OptionDraft[];
  channelId: string | null;
}

let counter = 0;
/** A key for a new row, unique for the page's life. */
export const newKey = (): string => {
  counter += 1;
  return `row-${counter}`;
};

/** The colour new embeds start with: the platform's own brand colour. */
export const DEFAULT_EMBED_COLOR = '#5865f2';

export const newButton = (): ButtonDraft => ({ key: newKey(), subjectId: null, text: '', style: 'Primary', emoji: null });
export const newOption = (): OptionDraft => ({ key: newKey(), subjectId: null, label: '', description: '', emoji: null });
export const newField = (): FieldDraft => ({ key: newKey(), name: '', value: '', inline: false });
export const newEmbed = (): EmbedDraft => ({
  key: newKey(),
  title: '',
  url: '',
  description: '',
  color: DEFAULT_EMBED_COLOR,
  authorName: '',
  authorUrl: '',
  authorIconUrl: '',
  fields: [],
  imageUrl: '',
  thumbnailUrl: '',
  footerText: '',
  footerIconUrl: '',
  timestamp: '',
});

/** A new panel: one embed to write in and one button to fill, as most panels have. */
export const newPanelDraft = (): PanelDraft => ({
  name: '',
  type: 'BUTTON',
  content: '',
  embeds: [newEmbed()],
  buttons: [newButton()],
  options: [newOption()],
  channelId: null,
});

export const colorToHex = (color: number | undefined): string =>
  color === undefined ? '' : `#${color.toString(16).padStart(6, '0')}`;

export const hexToColor = (hex: string): number | undefined => {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  return match ? Number.parseInt(match[1] as string, 16) : undefined;
};

const blank = (value: string | null | undefined): boolean => value == null || value.trim() === '';

function embedDraftOf(embed: Embed): EmbedDraft {
  return {
    key: newKey(),
    title: embed.title ?? '',
    url: embed.url ?? '',
    description: embed.description ?? '',
    color: colorToHex(embed.color),
    authorName: embed.author?.name ?? '',
    authorUrl: embed.author?.url ?? '',
    authorIconUrl: embed.author?.iconUrl ?? '',
    fields: (embed.fields ?? []).map((f) => ({ key: newKey(), name: f.name, value: f.value, inline: f.inline ?? false })),
    imageUrl: embed.image?.url ?? '',
    thumbnailUrl: embed.thumbnail?.url ?? '',
    footerText: embed.footer?.text ?? '',
    footerIconUrl: embed.footer?.iconUrl ?? '',
    timestamp: embed.timestamp ?? '',
  };
}

/** A stored panel, ready to edit. */
export function draftOfPanel(panel: Panel): PanelDraft {
  const fresh = newPanelDraft();
  return {
    name: panel.name,
    type: panel.type,
    content: panel.message?.content ?? '',
    embeds: (panel.message?.embeds ?? []).map(embedDraftOf),
    buttons:
      panel.type === 'BUTTON'
        ? panel.subjects.map((b) => ({ key: newKey(), subjectId: b.subjectId, text: b.text, style: b.style, emoji: b.emoji }))
        : fresh.buttons,
    options:
      panel.type === 'LIST'
        ? panel.subjects.map((o) => ({
            key: newKey(),
            subjectId: o.subjectId,
            label: o.label,
            description: o.description ?? '',
            emoji: o.emoji,
          }))
        : fresh.options,
    channelId: panel.integrationDetails.channelId,
  };
}

/** An embed as the platform takes it: only the parts that were filled in. */
export function embedOf(draft: EmbedDraft): Embed {
  const embed: Embed = {};
  if (!blank(draft.title)) embed.title = draft.title;
  if (!blank(draft.url)) embed.url = draft.url.trim();
  if (!blank(draft.description)) embed.description = draft.description;
  const color = hexToColor(draft.color);
  if (color !== undefined) embed.color = color;
  if (!blank(draft.authorName) || !blank(draft.authorUrl) || !blank(draft.authorIconUrl)) {
    embed.author = {
      name: draft.authorName,
      ...(blank(draft.authorUrl) ? {} : { url: draft.authorUrl.trim() }),
      ...(blank(draft.authorIconUrl) ? {} : { iconUrl: draft.authorIconUrl.trim() }),
    };
  }
  if (draft.fields.length > 0) {
    embed.fields = draft.fields.map((f) => ({ name: f.name, value: f.value, ...(f.inline ? { inline: true } : {}) }));
  }
  if (!blank(draft.imageUrl)) embed.image = { url: draft.imageUrl.trim() };
  if (!blank(draft.thumbnailUrl)) embed.thumbnail = { url: draft.thumbnailUrl.trim() };
  if (!blank(draft.footerText) || !blank(draft.footerIconUrl)) {
    embed.footer = { text: draft.footerText, ...(blank(draft.footerIconUrl) ? {} : { iconUrl: draft.footerIconUrl.trim() }) };
  }
  if (!blank(draft.timestamp)) embed.timestamp = draft.timestamp;
  return embed;
}

/**
 * The message, or null while nothing at all is written (no text, no embed): that is the panel
 * rules' "A message is required", where embeds left empty are "The message needs content or an embed".
 */
export function messageOf(draft: PanelDraft): MessageBody | null {
  if (blank(draft.content) && draft.embeds.length === 0) return null;
  return { content: draft.content, embeds: draft.embeds.map(embedOf) };
}

/** What the panel rules (`panelProblems`) look at. */
export function contentOf(draft: PanelDraft): PanelContent {
  const common = { channelId: draft.channelId, message: messageOf(draft) };
  return draft.type === 'BUTTON'
    ? { ...common, type: 'BUTTON', subjects: draft.buttons.map(({ key: _, ...button }) => button) }
    : {
        ...common,
        type: 'LIST',
        subjects: draft.options.map(({ key: _, description, ...option }) => ({
          ...option,
          description: blank(description) ? null : description,
        })),
      };
}

/** The body of `createPanel` / `updatePanel`. */
export function toPanelInput(draft: PanelDraft, asDraft: boolean): PanelInput {
  return { ...contentOf(draft), name: draft.name.trim(), draft: asDraft };
}

/** Posted and not since saved as a draft: saving again edits the posted message. */
export const isSent = (panel: Panel): boolean => !panel.draft && panel.integrationDetails.messageId !== null;

/** Moves the item at `from` to `to` (both in range), returning a new list. */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}
