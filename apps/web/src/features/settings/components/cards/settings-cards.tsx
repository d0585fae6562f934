import { Switch } from '@mantine/core';
import type { Subject } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { PlanBadge, PlanNote, usePlanGate } from '../controls/plan-note';
import { ChannelSelect } from '../controls/server-pickers';
import { FieldGroup, SettingsCard } from '../controls/settings-card';
import { useSettingWriter, useSubjectEditor } from '../subject-editor-context';

export function NotificationsCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  const mentions = usePlanGate('autoMention');
  const gated = (on: boolean) => !on && !mentions.available;
  return (
    <SettingsCard
      title={t('settings.cards.notifications.title')}
      description={t('settings.cards.notifications.description')}
      aside={!mentions.available && <PlanBadge feature="autoMention" />}
    >
      <Switch
        label={t('settings.notifications.notifyUser')}
        description={t('settings.notifications.notifyUserHint')}
        checked={subject.automation.notifyUser}
        onChange={(event) => set('automation.notifyUser', event.currentTarget.checked)}
      />
      <Switch
        label={t('settings.notifications.notifyClaimer')}
        description={t('settings.notifications.notifyClaimerHint')}
        checked={subject.automation.notifyClaimer}
        onChange={(event) => set('automation.notifyClaimer', event.currentTarget.checked)}
      />
      <FieldGroup legend={t('settings.notifications.mentions')}>
        <Switch
          label={t('settings.notifications.mentionOwner')}
          checked={subject.notifications.mentionOwnerOnReply}
          disabled={gated(subject.notifications.mentionOwnerOnReply)}
          onChange={(event) => set('notifications.mentionOwnerOnReply', event.currentTarget.checked)}
        />
        <Switch
          label={t('settings.notifications.mentionClaimee')}
          checked={subject.notifications.mentionClaimeeOnReply}
          disabled={gated(subject.notifications.mentionClaimeeOnReply)}
          onChange={(event) => set('notifications.mentionClaimeeOnReply', event.currentTarget.checked)}
        />
        <PlanNote feature="autoMention" />
      </FieldGroup>
    </SettingsCard>
  );
}

export function LogChannelCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  return (
    <SettingsCard title={t('settings.cards.logChannel.title')} description={t('settings.cards.logChannel.description')}>
      <ChannelSelect
        label={t('settings.logging.channel')}
        placeholder={t('settings.logging.noChannel')}
        value={subject.logging.channelId}
        onChange={(value) => set('logging.channelId', value)}
      />
    </SettingsCard>
  );
}

const EVENTS = ['created', 'claimed', 'closed', 'deleted', 'memberAdded', 'memberRemoved', 'subjectChanged'] as const satisfies readonly (keyof Subject['logging'])[];

export function EventLoggingCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  return (
    <SettingsCard
      title={t('settings.cards.eventLogging.title')}
      description={subject.logging.channelId ? t('settings.cards.eventLogging.description') : t('settings.logging.needsChannel')}
    >
      <FieldGroup legend={t('settings.logging.events')}>
        {EVENTS.map((event) => (
          <Switch
            key={event}
            label={t(`settings.logging.eventNames.${event}`)}
            checked={subject.logging[event]}
            onChange={(e) => set(`logging.${event}`, e.currentTarget.checked)}
          />
        ))}
      </FieldGroup>
    </SettingsCard>
  );
}

export function LogAppearanceCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  return (
    <SettingsCard title={t('settings.cards.logAppearance.title')} description={t('settings.cards.logAppearance.description')}>
      <Switch
        label={t('settings.logging.rainbowColors')}
        description={t('settings.logging.rainbowColorsHint')}
        checked={subject.logging.rainbowColors}
        onChange={(event) => set('logging.rainbowColors', event.currentTarget.checked)}
      />
    </SettingsCard>
  );
}
