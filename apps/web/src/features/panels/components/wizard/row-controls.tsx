import { ActionIcon, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ArrowDownIcon, ArrowUpIcon, TrashIcon } from '@/components/icons';

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
