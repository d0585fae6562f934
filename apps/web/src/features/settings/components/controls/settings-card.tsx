import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';

interface SettingsCardProps {
  title: string;
  description?: ReactNode;
  /** Beside the title, e.g. the plan a card needs. */
  aside?: ReactNode;
  children: ReactNode;
}

/** One card of the subject settings: a titled region of related controls. */
export function SettingsCard({ title, description, aside, children }: SettingsCardProps) {
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <Title order={3} size="h4" id={headingId}>
          {title}
        </Title>
        {aside}
      </Group>
      {description && (
        <Text size="sm" c="dimmed" mt={4}>
          {description}
        </Text>
      )}
      <Stack gap="sm" mt="sm">
        {children}
      </Stack>
    </Paper>
  );
}

/** A group of controls with a legend, as a fieldset. */
export function FieldGroup({ legend, description, children }: { legend: string; description?: ReactNode; children: ReactNode }) {
  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <Text component="legend" fw={600} size="sm" p={0}>
        {legend}
      </Text>
      {description && (
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      )}
      <Stack gap="xs" mt={6}>
        {children}
      </Stack>
    </fieldset>
  );
}
