import { Box, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface BarListItem {
  key: string;
  label: ReactNode;
  value: number;
  /** The value as written beside the bar. */
  display: string;
}

/** A ranked list with a bar under each entry, sized against the largest (or against `max`). */
export function BarList({ items, max }: { items: BarListItem[]; max?: number }) {
  const largest = max ?? Math.max(0, ...items.map((item) => item.value));
  return (
    <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
      {items.map((item) => (
        <li key={item.key}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" truncate="end" miw={0}>
              {item.label}
            </Text>
            <Text size="sm" fw={600} style={{ flexShrink: 0 }}>
              {item.display}
            </Text>
          </Group>
          <Box
            aria-hidden
            mt={4}
            h={6}
            style={{
              width: largest > 0 ? `${Math.max((item.value / largest) * 100, item.value > 0 ? 2 : 0)}%` : 0,
              background: 'var(--mantine-primary-color-light-color)',
              borderRadius: 3,
            }}
          />
        </li>
      ))}
    </Stack>
  );
}
