import type { EmojiRef } from '@ticket/contracts';
import { type CSSProperties, useState } from 'react';
import { customEmojiUrl, emojiText } from '@/lib/emoji';

interface EmojiViewProps {
  emoji: EmojiRef;
  /** Height in pixels. */
  size?: number;
  /** Set when the text beside it already says what it is. */
  decorative?: boolean;
  style?: CSSProperties;
}

/**
 * One emoji as the platform shows it: a custom one as its image (`:name:` when the image cannot
 * be loaded), a unicode one as itself.
 */
export function EmojiView({ emoji, size = 20, decorative = false, style }: EmojiViewProps) {
  const [failed, setFailed] = useState(false);
  const text = emojiText(emoji);
  if (emoji.id && !failed) {
    return (
      <img
        src={customEmojiUrl(emoji.id, emoji.animated)}
        alt={decorative ? '' : text}
        width={size}
        height={size}
        loading="lazy"
        onError={() => setFailed(true)}
        style={{ objectFit: 'contain', verticalAlign: 'middle', ...style }}
      />
    );
  }
  if (emoji.id) {
    // A custom emoji whose image could not be loaded: its name, kept to the emoji's size.
    return (
      <span
        aria-hidden={decorative || undefined}
        title={text}
        style={{
          display: 'inline-block',
          maxWidth: size * 1.4,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
          fontSize: Math.max(10, size * 0.45),
          lineHeight: `${size}px`,
          verticalAlign: 'middle',
          ...style,
        }}
      >
        {text}
      </span>
    );
  }
  return (
    <span aria-hidden={decorative || undefined} style={{ fontSize: size * 0.9, lineHeight: 1, verticalAlign: 'middle', ...style }}>
      {text}
    </span>
  );
}
