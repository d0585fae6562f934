import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** What a panel shows when there is honestly nothing yet: what it will hold, and what to do. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Stack gap={6} align="flex-start" py="sm" data-empty>
      <Text fw={600}>{title}</Text>
      {children && (
        <Text size="sm" c="dimmed">
          {children}
        </Text>
      )}
      {action}
    </Stack>
  );
}
