import { Box, Text } from '@mantine/core';
import type { ButtonStyle, EmojiRef } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { emojiText } from './emoji-picker';

export const BUTTON_STYLES: readonly ButtonStyle[] = ['Primary', 'Secondary', 'Success', 'Danger', 'Link'];

/** The platform's button colours. */
const COLOURS: Record<ButtonStyle, string> = {
  Primary: '#5865f2',
  Secondary: '#4e5058',
  Success: '#248046',
  Danger: '#da373c',
  Link: '#4e5058',
};

/** A button as members will see it in the chat, for the editors' live preview. */
export function ButtonPreview({ text, style, emoji }: { text: string; style: ButtonStyle; emoji: EmojiRef | null }) {
  const { t } = useTranslation();
  const shown = [emojiText(emoji), text].filter(Boolean).join(' ');
  return (
    <Box>
      <Text size="xs" c="dimmed">
        {t('settings.buttons.preview')}
      </Text>
      <Box
        component="span"
        data-button-style={style}
        style={{
          display: 'inline-flex',
          alignItems: 'center',
          gap: 6,
          minHeight: 32,
          padding: '2px 16px',
          borderRadius: 4,
          background: COLOURS[style],
          color: '#fff',
          fontSize: 14,
          fontWeight: 500,
          maxWidth: '100%',
          overflowWrap: 'anywhere',
        }}
      >
        {shown || '\u00a0'}
        {style === 'Link' && <span aria-hidden>↗</span>}
      </Box>
    </Box>
  );
}
