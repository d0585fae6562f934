import { Radio, Stack, Switch, Text } from '@mantine/core';
import type { StorageExceededPolicy } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { PLANS } from 'virtual:plans';
import { useFormatters } from '@/components/formatters';
import { SettingsCard } from '../controls/settings-card';
import { TimeSpanInput } from '../controls/time-span-input';
import { useSettingWriter, useSubjectEditor } from '../subject-editor-context';

const POLICIES: readonly StorageExceededPolicy[] = ['Reject', 'Inform', 'DeleteOldestFileSameSubject', 'DeleteOldestFileGlobal'];

/** SPEC §9 shows 90 days in the tier table: the retention a newly switched-on rule starts with. */
const DEFAULT_RETENTION = { time: 90, unit: 'days' } as const;

export function StoragePoliciesCard() {
  const { t } = useTranslation();
  const { subject, plan, planKnown } = useSubjectEditor();
  const { set } = useSettingWriter();
  const format = useFormatters();
  const storage = PLANS[plan].storageBytes;
  return (
    <SettingsCard title={t('settings.cards.storagePolicies.title')} description={t('settings.cards.storagePolicies.description')}>
      {planKnown && (
        <Text size="sm" c="dimmed">
          {storage > 0
            ? t('settings.storage.planStorage', { size: format.bytes(storage), plan: t(`staff.plans.${plan}`) })
            : t('settings.storage.noStorage', { plan: t(`staff.plans.${plan}`) })}
        </Text>
      )}
      <Radio.Group
        label={t('settings.storage.policy')}
        value={subject.files.storageExceeded}
        onChange={(value) => set('files.storageExceeded', value)}
      >
        <Stack gap="xs" mt="xs">
          {POLICIES.map((policy) => (
            <Radio
              key={policy}
              value={policy}
              label={t(`settings.storage.policies.${policy}.label`)}
              description={t(`settings.storage.policies.${policy}.description`)}
            />
          ))}
        </Stack>
      </Radio.Group>
    </SettingsCard>
  );
}

export function DataRetentionCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  const retention = subject.files.retentionTime;
  return (
    <SettingsCard title={t('settings.cards.dataRetention.title')} description={t('settings.cards.dataRetention.description')}>
      <Switch
        label={t('settings.storage.deleteAfter')}
        checked={retention !== null}
        onChange={(event) => set('files.retentionTime', event.currentTarget.checked ? DEFAULT_RETENTION : null)}
      />
      {retention === null ? (
        <Text size="sm" c="dimmed">
          {t('settings.storage.keepForever')}
        </Text>
      ) : (
        <TimeSpanInput
          legend={t('settings.storage.retentionTime')}
          value={retention}
          min={1}
          onChange={(value) => set('files.retentionTime', value)}
        />
      )}
    </SettingsCard>
  );
}
