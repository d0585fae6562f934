import { Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { DISCORD_LIMITS, TICKET_NAME_PLACEHOLDERS } from '@ticket/contracts/rules';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '@/lib/auth-store';
import { previewTicketName } from '../../lib/ticket-name';
import { useDraft } from './draft';

interface TicketNameFormatInputProps {
  value: string;
  subjectName: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}

/** The ticket channel's name format: placeholders to insert, and the name it gives a sample ticket. */
export function TicketNameFormatInput({ value, subjectName, onChange, disabled }: TicketNameFormatInputProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useDraft(value);
  const input = useRef<HTMLInputElement>(null);
  const user = useAuthStore((state) => state.user);
  const problem =
    draft.trim() === ''
      ? t('settings.ticketName.required')
      : draft.trim().length > DISCORD_LIMITS.channelName
        ? t('settings.ticketName.tooLong', { max: DISCORD_LIMITS.channelName })
        : undefined;

  const commit = (next: string) => {
    setDraft(next);
    const trimmed = next.trim();
    if (trimmed !== '' && trimmed.length <= DISCORD_LIMITS.channelName) onChange(next);
  };

  const insert = (placeholder: string) => {
    const element = input.current;
    const start = element?.selectionStart ?? draft.length;
    const end = element?.selectionEnd ?? draft.length;
    commit(draft.slice(0, start) + placeholder + draft.slice(end));
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + placeholder.length, start + placeholder.length);
    });
  };

  const preview = previewTicketName(draft, {
    number: 42,
    username: user?.username ?? 'member',
    userId: user?.userId ?? '123456789012345678',
    subject: subjectName,
  });

  return (
    <Stack gap="xs">
      <TextInput
        ref={input}
        label={t('settings.ticketName.label')}
        description={t('settings.ticketName.description')}
        value={draft}
        maxLength={DISCORD_LIMITS.channelName}
        disabled={disabled}
        error={problem}
        onChange={(event) => commit(event.currentTarget.value)}
      />
      <Group gap={6} role="group" aria-label={t('settings.ticketName.placeholders')}>
        {TICKET_NAME_PLACEHOLDERS.map((placeholder) => (
          <Button
            key={placeholder}
            size="compact-xs"
            variant="light"
            radius="xl"
            disabled={disabled}
            onClick={() => insert(placeholder)}
            aria-label={t('settings.ticketName.insert', { placeholder })}
          >
            {placeholder}
          </Button>
        ))}
      </Group>
      <Text size="sm" aria-live="polite">
        {t('settings.ticketName.preview')} <Code>#{preview || '…'}</Code>
      </Text>
    </Stack>
  );
}
