import { Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface OptionCard<T extends string> {
  value: T;
  label: string;
  description?: ReactNode;
  disabled?: boolean;
}

/** A choice of one among a few, each a card with a radio button, keyboard- and screen-reader-friendly. */
export function OptionCards<T extends string>({
  label,
  value,
  onChange,
  options,
  cols = 2,
}: {
  label: string;
  value: T | null;
  onChange: (value: T) => void;
  options: OptionCard<T>[];
  cols?: number;
}) {
  return (
    <Radio.Group label={label} value={value} onChange={(next) => onChange(next as T)}>
      <SimpleGrid cols={{ base: 1, sm: cols }} mt="xs">
        {options.map((option) => (
          <Radio.Card key={option.value} value={option.value} disabled={option.disabled} radius="md" p="md" data-option={option.value}>
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Radio.Indicator />
              <Stack gap={2}>
                <Text fw={600}>{option.label}</Text>
                {option.description && (
                  <Text size="sm" c="dimmed" component="div">
                    {option.description}
                  </Text>
                )}
              </Stack>
            </Group>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}
