import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface SubjectItem {
  value: string;
  label: string;
}

interface SubjectSelectProps {
  label: string;
  subjects: readonly SubjectItem[];
  value: string | null;
  onChange: (subjectId: string | null) => void;
  error?: string;
  loading?: boolean;
}

/** The subject a button or option opens a ticket in. A subject since deleted stays shown as such. */
export function SubjectSelect({ label, subjects, value, onChange, error, loading = false }: SubjectSelectProps) {
  const { t } = useTranslation();
  const data =
    value && !subjects.some((s) => s.value === value)
      ? [...subjects, { value, label: loading ? t('app.loading') : t('panels.subjects.deleted') }]
      : [...subjects];
  return (
    <Select
      label={label}
      placeholder={t('panels.subjects.placeholder')}
      data={data}
      value={value}
      onChange={onChange}
      error={error}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('panels.subjects.noMatch')}
      withAsterisk
    />
  );
}
