import { ActionIcon, Button, Fieldset, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowDownIcon, ArrowUpIcon, PlusIcon, TrashIcon } from '@/components/screen-icons';
import { move } from '../../lib/draft';

interface RowControlsProps {
  index: number;
  count: number;
  /** The row in words, for the controls' names: "Button 2". */
  name: string;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
}

/** Move up, move down and remove, for one row of a list the admin orders. */
export function RowControls({ index, count, name, onMove, onRemove }: RowControlsProps) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={t('panels.rows.moveUp', { name })}
        disabled={index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        <ArrowUpIcon />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={t('panels.rows.moveDown', { name })}
        disabled={index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        <ArrowDownIcon />
      </ActionIcon>
      <ActionIcon variant="subtle" color="red" aria-label={t('panels.rows.remove', { name })} onClick={() => onRemove(index)}>
        <TrashIcon />
      </ActionIcon>
    </Group>
  );
}

interface ListRowProps<T> {
  legend: ReactNode;
  /** The row in words, for its controls' names. */
  name: string;
  index: number;
  items: readonly T[];
  onChange: (items: T[]) => void;
  children: ReactNode;
}

/** One row of a panel's buttons or options: its name, its controls, and its fields in two columns. */
export function ListRow<T>({ legend, name, index, items, onChange, children }: ListRowProps<T>) {
  return (
    <Fieldset legend={legend} variant="filled">
      <Stack gap="sm">
        <Group justify="flex-end" mt={-8}>
          <RowControls
            index={index}
            count={items.length}
            name={name}
            onMove={(from, to) => onChange(move([...items], from, to))}
            onRemove={(at) => onChange(items.filter((_, i) => i !== at))}
          />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {children}
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
}

/** Adding one more row, until the platform's most, which is then said. */
export function AddRow({ label, full, fullText, onAdd }: { label: string; full: boolean; fullText: string; onAdd: () => void }) {
  return (
    <Group>
      <Button variant="light" leftSection={<PlusIcon />} disabled={full} onClick={onAdd}>
        {label}
      </Button>
      {full && (
        <Text size="sm" c="dimmed">
          {fullText}
        </Text>
      )}
    </Group>
  );
}
