import { Button, CloseButton, Group, Input, Loader, Popover, VisuallyHidden } from '@mantine/core';
import type { EmojiRef } from '@ticket/contracts';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { emojiText } from '@/lib/emoji';
import { EmojiView } from '@/components/emoji-view';

// The picker, with its emoji set, is fetched the first time one is opened.
const ServerEmojiPicker = lazy(async () => ({ default: (await import('./emoji-picker')).ServerEmojiPicker }));

interface EmojiFieldProps {
  /** The visible label. */
  label: string;
  /** What the emoji is for, in the button's accessible name: "button 2". */
  name: string;
  value: EmojiRef | null;
  onChange: (emoji: EmojiRef | null) => void;
}

/** An optional emoji: shows the chosen one, opens the picker, and can be cleared. */
export function EmojiField({ label, name, value, onChange }: EmojiFieldProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const titleId = useId();
  return (
    <Input.Wrapper label={label} labelElement="div">
      <Group gap={4} wrap="nowrap">
        <Popover
          opened={opened}
          onChange={setOpened}
          trapFocus
          returnFocus
          position="bottom-start"
          shadow="md"
          withinPortal
        >
          <Popover.Target>
            <Button
              variant="default"
              onClick={() => setOpened((o) => !o)}
              aria-label={value ? t('panels.emoji.change', { name, emoji: emojiText(value) }) : t('panels.emoji.choose', { name })}
              leftSection={value ? <EmojiView emoji={value} size={20} decorative /> : undefined}
            >
              {value ? emojiText(value) : t('panels.emoji.add')}
            </Button>
          </Popover.Target>
          {/* Mantine names the dialog after its button; "Emoji for button 2" says more. */}
          <Popover.Dropdown aria-labelledby={titleId} p="xs">
            <VisuallyHidden id={titleId}>{t('panels.emoji.dialog', { name })}</VisuallyHidden>
            <Suspense fallback={<Loader size="sm" aria-label={t('app.loading')} />}>
              <ServerEmojiPicker
                onPick={(emoji) => {
                  onChange(emoji);
                  setOpened(false);
                }}
              />
            </Suspense>
          </Popover.Dropdown>
        </Popover>
        {value && <CloseButton aria-label={t('panels.emoji.remove', { name })} onClick={() => onChange(null)} />}
      </Group>
    </Input.Wrapper>
  );
}
