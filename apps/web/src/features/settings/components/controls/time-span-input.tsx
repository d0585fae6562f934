import { Group, NumberInput, Select } from '@mantine/core';
import type { TimeSpan, TimeUnit } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { FieldGroup } from './settings-card';
import { useDraft } from './draft';

export const TIME_UNITS: readonly TimeUnit[] = ['seconds', 'minutes', 'hours', 'days'];

interface TimeSpanInputProps {
  legend: string;
  description?: string;
  value: TimeSpan;
  onChange: (value: TimeSpan) => void;
  disabled?: boolean;
  /** The least amount allowed (default 0). */
  min?: number;
}

/** A time span (SPEC §3): an amount and a unit from seconds to days. */
export function TimeSpanInput({ legend, description, value, onChange, disabled, min = 0 }: TimeSpanInputProps) {
  const { t } = useTranslation();
  const [time, setTime] = useDraft<number | string>(value.time);
  const valid = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= min && n <= 1_000_000;
  return (
    <FieldGroup legend={legend} description={description}>
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <NumberInput
          label={t('settings.timeSpan.amount')}
          value={time}
          min={min}
          max={1_000_000}
          allowDecimal={false}
          allowNegative={false}
          disabled={disabled}
          error={valid(time) ? undefined : t('settings.timeSpan.invalid', { min })}
          onChange={(next) => {
            setTime(next);
            if (valid(next)) onChange({ ...value, time: next });
          }}
          style={{ flex: 1, minWidth: 0 }}
        />
        <Select
          label={t('settings.timeSpan.unit')}
          data={TIME_UNITS.map((unit) => ({ value: unit, label: t(`settings.timeSpan.units.${unit}`) }))}
          value={value.unit}
          allowDeselect={false}
          disabled={disabled}
          onChange={(unit) => unit && onChange({ ...value, unit: unit as TimeUnit })}
          style={{ flex: 1, minWidth: 0 }}
        />
      </Group>
    </FieldGroup>
  );
}
