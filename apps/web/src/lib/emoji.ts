import type { EmojiRef } from '@ticket/contracts';

/** Where the platform serves a custom emoji's image. */
export const customEmojiUrl = (id: string, animated = false): string =>
  `https://cdn.discordapp.com/emojis/${id}.${animated ? 'gif' : 'png'}?size=48`;

/** How the platform writes an emoji in text: the unicode character, or `:name:`. */
export const emojiText = (emoji: EmojiRef): string => (emoji.id ? `:${emoji.name ?? emoji.id}:` : (emoji.name ?? ''));
