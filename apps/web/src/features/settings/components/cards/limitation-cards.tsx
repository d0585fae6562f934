import { Button, Group, Switch, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldGroup, SettingsCard } from '../controls/settings-card';
import { LimitInput } from '../controls/limit-input';
import { RoleMultiSelect } from '../controls/server-pickers';
import { TimeSpanInput } from '../controls/time-span-input';
import { useSettingWriter, useSubjectEditor } from '../subject-editor-context';

const SNOWFLAKE = /^\d{17,20}$/;

function Whitelist() {
  const { t } = useTranslation();
  const { subject, serverId } = useSubjectEditor();
  const { set, add, remove } = useSettingWriter();
  const { inverted, ids } = subject.limitations.whitelist;
  const [userId, setUserId] = useState('');
  const userIdValid = SNOWFLAKE.test(userId.trim());
  const addUser = () => {
    if (!userIdValid) return;
    add('limitations.whitelist.ids', userId.trim());
    setUserId('');
  };
  return (
    <FieldGroup
      legend={inverted ? t('settings.limits.blockList') : t('settings.limits.allowList')}
      description={
        inverted
          ? t('settings.limits.blockListHint')
          : ids.length === 0
            ? t('settings.limits.allowListEmpty')
            : t('settings.limits.allowListHint')
      }
    >
      <Switch
        label={t('settings.limits.inverted')}
        description={t('settings.limits.invertedHint')}
        checked={inverted}
        onChange={(event) => set('limitations.whitelist.inverted', event.currentTarget.checked)}
      />
      <RoleMultiSelect
        serverId={serverId}
        label={t('settings.limits.whitelistIds')}
        value={ids}
        otherLabel={(id) => t('settings.limits.userId', { id })}
        onAdd={(id) => add('limitations.whitelist.ids', id)}
        onRemove={(id) => remove('limitations.whitelist.ids', id)}
      />
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          label={t('settings.limits.addUser')}
          description={t('settings.limits.addUserHint')}
          value={userId}
          inputMode="numeric"
          error={userId.trim() !== '' && !userIdValid ? t('settings.limits.userIdInvalid') : undefined}
          onChange={(event) => setUserId(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              addUser();
            }
          }}
          style={{ flex: 1, minWidth: 0 }}
        />
        <Button variant="light" onClick={addUser} disabled={!userIdValid}>
          {t('settings.limits.add')}
        </Button>
      </Group>
    </FieldGroup>
  );
}

export function UserLimitsCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  return (
    <SettingsCard title={t('settings.cards.userLimits.title')} description={t('settings.cards.userLimits.description')}>
      <LimitInput
        label={t('settings.limits.maxActivePerUser')}
        value={subject.limitations.maxActivePerUser}
        onChange={(value) => set('limitations.maxActivePerUser', value)}
      />
      <TimeSpanInput
        legend={t('settings.limits.cooldown')}
        description={t('settings.limits.cooldownHint')}
        value={subject.limitations.cooldown}
        onChange={(value) => set('limitations.cooldown', value)}
      />
      <Whitelist />
    </SettingsCard>
  );
}

export function ServerLimitsCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  return (
    <SettingsCard title={t('settings.cards.serverLimits.title')} description={t('settings.cards.serverLimits.description')}>
      <LimitInput
        label={t('settings.limits.maxActiveTotal')}
        value={subject.limitations.maxActiveTotal}
        onChange={(value) => set('limitations.maxActiveTotal', value)}
      />
    </SettingsCard>
  );
}
