import { Group, NumberInput, Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useDraft } from './draft';

const MAX = 10_000;

/** A limit from 1 to 10 000, or none at all (null). */
export function LimitInput({
  label,
  description,
  value,
  onChange,
  disabled,
}: {
  label: string;
  description?: string;
  value: number | null;
  onChange: (value: number | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useDraft<number | string>(value ?? '');
  const valid = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX;
  return (
    <Group align="flex-start" gap="md" wrap="wrap">
      <NumberInput
        label={label}
        description={description}
        value={value === null ? '' : draft}
        min={1}
        max={MAX}
        allowDecimal={false}
        allowNegative={false}
        disabled={disabled || value === null}
        placeholder={value === null ? t('settings.limits.noLimit') : undefined}
        error={value !== null && !valid(draft) ? t('settings.limits.invalid', { max: MAX }) : undefined}
        onChange={(next) => {
          setDraft(next);
          if (valid(next)) onChange(next);
        }}
        style={{ flex: '1 1 200px' }}
      />
      <Switch
        mt={{ base: 0, xs: 30 }}
        label={t('settings.limits.noLimit')}
        checked={value === null}
        disabled={disabled}
        onChange={(event) => onChange(event.currentTarget.checked ? null : 1)}
      />
    </Group>
  );
}
