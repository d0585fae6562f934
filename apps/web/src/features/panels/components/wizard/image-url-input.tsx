import { TextInput } from '@mantine/core';
import { imageUrlWarning } from '@ticket/contracts/rules';
import { useTranslation } from 'react-i18next';
import { translateImageWarning } from '../../lib/problems';
import classes from './wizard.module.css';

interface ImageUrlInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/**
 * An image URL, which may be a placeholder. What is neither gets a warning under it (SPEC §5):
 * a warning only, saving stays allowed.
 */
export function ImageUrlInput({ label, value, onChange }: ImageUrlInputProps) {
  const { t } = useTranslation();
  const warning = translateImageWarning(imageUrlWarning(value), t);
  return (
    <TextInput
      label={label}
      inputMode="url"
      placeholder="https://…"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      description={warning}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      classNames={warning ? { description: classes.warning } : undefined}
      data-warning={warning ? true : undefined}
    />
  );
}
