import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { notifyError, notifySuccess } from '@/lib/notify';

/** Writes the text to the clipboard; false when the browser refuses (no permission, not a secure page). */
async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export interface ShownOnceTexts {
  title: string;
  /** That it will not be shown again. */
  once: string;
  label: string;
  copy: string;
  copied: string;
  copyFailed: string;
  dismiss: string;
}

/**
 * A secret the service has just made (an API key, a signing secret), in full, this once: the
 * service never answers it again, so dismissing this loses it. Focus moves to it, selected, ready
 * to copy; copying says whether it worked.
 */
export function ShownOnceSecret({ value, texts, onDismiss, children }: { value: string; texts: ShownOnceTexts; onDismiss: () => void; children?: ReactNode }) {
  const headingId = useId();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [value]);

  const copy = async () => {
    if (await copyToClipboard(value)) notifySuccess(texts.copied);
    else notifyError(texts.copyFailed);
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
          {texts.title}
        </Title>
        {children}
        <Text size="sm">{texts.once}</Text>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            ref={input}
            readOnly
            value={value}
            label={texts.label}
            onFocus={(event) => event.currentTarget.select()}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            style={{ flex: 1, minWidth: 0 }}
            spellCheck={false}
            autoComplete="off"
          />
          <Button onClick={() => void copy()}>{texts.copy}</Button>
        </Group>
        <Group>
          <Button variant="subtle" size="xs" onClick={onDismiss}>
            {texts.dismiss}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
