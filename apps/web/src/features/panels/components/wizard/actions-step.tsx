import { Radio, Stack } from '@mantine/core';
import type { PanelType } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';

/** How members pick a subject: a button per subject, or one dropdown. */
export function ActionsStep({ type, onChange }: { type: PanelType; onChange: (type: PanelType) => void }) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      label={t('panels.actions.label')}
      description={t('panels.actions.hint')}
      value={type}
      onChange={(value) => onChange(value as PanelType)}
    >
      <Stack gap="sm" mt="sm">
        <Radio value="BUTTON" label={t('panels.actions.buttons')} description={t('panels.actions.buttonsHint')} />
        <Radio value="LIST" label={t('panels.actions.dropdown')} description={t('panels.actions.dropdownHint')} />
      </Stack>
    </Radio.Group>
  );
}
