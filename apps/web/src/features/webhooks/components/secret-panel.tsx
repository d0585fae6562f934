import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '@/lib/notify';

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
 * A signing secret just made, in full, this once: the service stores it sealed and never answers
 * it again, so dismissing this loses it. Focus moves to it, selected, ready to copy.
 */
export function SecretPanel({ secret, url, onDismiss }: { secret: string; url: string; onDismiss: () => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [secret]);

  const copy = async () => {
    if (await copyToClipboard(secret)) notifySuccess(t('webhooks.secret.copied'));
    else notifyError(t('webhooks.secret.copyFailed'));
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
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id={headingId}>
          {t('webhooks.secret.title')}
        </Title>
        <Text size="sm" dir="ltr" style={{ overflowWrap: 'anywhere' }}>
          {url}
        </Text>
        <Text size="sm">{t('webhooks.secret.once')}</Text>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            ref={input}
            readOnly
            value={secret}
            label={t('webhooks.secret.label')}
            onFocus={(event) => event.currentTarget.select()}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            style={{ flex: 1, minWidth: 0 }}
            spellCheck={false}
            autoComplete="off"
          />
          <Button onClick={() => void copy()}>{t('webhooks.secret.copy')}</Button>
        </Group>
        <Group>
          <Button variant="subtle" size="xs" onClick={onDismiss}>
            {t('webhooks.secret.dismiss')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
