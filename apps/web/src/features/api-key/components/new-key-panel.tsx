import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '@/lib/notify';

/** Writes the key to the clipboard; false when the browser refuses (no permission, not a secure page). */
async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The key just generated, in full, this once: the service keeps only its hash, so leaving the page
 * or dismissing this loses it for good. Focus moves to the key, selected, ready to copy.
 */
export function NewKeyPanel({ apiKey, onDismiss }: { apiKey: string; onDismiss: () => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [apiKey]);

  const copy = async () => {
    if (await copyToClipboard(apiKey)) notifySuccess(t('apiKey.new.copied'));
    else notifyError(t('apiKey.new.copyFailed'));
  };

  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      radius="md"
      p="md"
      bg="var(--mantine-color-teal-light)"
      style={{ borderColor: 'var(--mantine-color-teal-outline)' }}
      data-new-api-key
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id={headingId}>
          {t('apiKey.new.title')}
        </Title>
        <Text size="sm">{t('apiKey.new.once')}</Text>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            ref={input}
            readOnly
            value={apiKey}
            label={t('apiKey.new.label')}
            onFocus={(event) => event.currentTarget.select()}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            style={{ flex: 1, minWidth: 0 }}
            spellCheck={false}
            autoComplete="off"
          />
          <Button onClick={() => void copy()}>{t('apiKey.new.copy')}</Button>
        </Group>
        <Group>
          <Button variant="subtle" size="xs" onClick={onDismiss}>
            {t('apiKey.new.dismiss')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
