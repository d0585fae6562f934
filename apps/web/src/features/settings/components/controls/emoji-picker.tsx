import { Button, Group, Popover, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import type { EmojiRef } from '@ticket/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerCache } from '@/lib/server-cache';

/** Unicode emojis offered beside the server's own, chosen for tickets and support. */
export const COMMON_EMOJIS = [
  '🎫', '🔒', '🔓', '🙋', '✅', '❌', '⚠️', '❓', '❗', '💬', '📩', '📨', '📝', '📌', '📎', '🛠️',
  '🔧', '⚙️', '💡', '🐛', '💰', '💳', '🛒', '📦', '🚚', '🎮', '🎉', '⭐', '❤️', '👍', '👎', '👋',
  '🙏', '🤝', '🔔', '🕒', '⏳', '🆘', '🚨', '🛡️', '👤', '👥', '📢', '🏷️', '🔗', '➡️', '✉️', '📄',
] as const;

/** How an emoji reads in the UI: a unicode one as itself, a custom one as :name:. */
export function emojiText(emoji: EmojiRef | null | undefined): string {
  if (!emoji) return '';
  if (emoji.id === null) return emoji.name ?? '';
  return `:${emoji.name ?? emoji.id}:`;
}

interface EmojiPickerProps {
  label: string;
  value: EmojiRef | null;
  onChange: (value: EmojiRef | null) => void;
  disabled?: boolean;
}

/** Picks an emoji for a button: one of the server's custom emojis or a common unicode one, or none. */
export function EmojiPicker({ label, value, onChange, disabled }: EmojiPickerProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const emojis = useServerCache('emojis');
  const labelId = useId();
  const custom = (emojis.data ?? []).filter(
    (e) => e.id !== null && e.available !== false && (search === '' || (e.name ?? '').toLowerCase().includes(search.toLowerCase())),
  );
  const pick = (emoji: EmojiRef | null) => {
    onChange(emoji);
    setOpened(false);
  };
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={labelId}>
        {label}
      </Text>
      <Popover opened={opened} onChange={setOpened} position="bottom-start" width={300} trapFocus withinPortal shadow="md">
        <Popover.Target>
          <Button
            variant="default"
            onClick={() => setOpened((o) => !o)}
            disabled={disabled}
            aria-describedby={labelId}
            aria-label={`${label}: ${value ? emojiText(value) : t('settings.emoji.none')}`}
            style={{ alignSelf: 'flex-start' }}
          >
            {value ? emojiText(value) : t('settings.emoji.choose')}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <Group justify="space-between">
              <Text size="sm" fw={600}>
                {label}
              </Text>
              <Button variant="subtle" size="compact-xs" onClick={() => pick(null)}>
                {t('settings.emoji.none')}
              </Button>
            </Group>
            <TextInput
              size="xs"
              label={t('settings.emoji.search')}
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
            />
            {custom.length > 0 && (
              <>
                <Text size="xs" c="dimmed">
                  {t('settings.emoji.server')}
                </Text>
                <Group gap={4}>
                  {custom.map((e) => (
                    <Button
                      key={e.id}
                      size="compact-xs"
                      variant="light"
                      onClick={() => pick({ id: e.id, name: e.name, ...(e.animated ? { animated: true } : {}) })}
                    >
                      :{e.name}:
                    </Button>
                  ))}
                </Group>
              </>
            )}
            <Text size="xs" c="dimmed">
              {t('settings.emoji.common')}
            </Text>
            <SimpleGrid cols={8} spacing={2}>
              {COMMON_EMOJIS.map((emoji) => (
                <UnstyledButton
                  key={emoji}
                  onClick={() => pick({ id: null, name: emoji })}
                  aria-label={emoji}
                  aria-pressed={value?.id === null && value.name === emoji}
                  style={{ fontSize: 20, lineHeight: '32px', textAlign: 'center', borderRadius: 4 }}
                >
                  {emoji}
                </UnstyledButton>
              ))}
            </SimpleGrid>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Stack>
  );
}
