import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The search box of a long server list; its own chunk, since most users never have one. */
export function ServerSearch({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <TextInput
      type="search"
      label={t('dashboard.search')}
      placeholder={t('dashboard.searchPlaceholder')}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      maw={360}
    />
  );
}
