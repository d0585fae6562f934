import { Select, Switch } from '@mantine/core';
import type { TicketRole } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { InheritToggle, useInherits } from '../controls/inherit-toggle';
import { PlanBadge, PlanNote, usePlanGate } from '../controls/plan-note';
import { SettingsCard } from '../controls/settings-card';
import { TimeSpanInput } from '../controls/time-span-input';
import { useSettingWriter, useSubjectEditor } from '../subject-editor-context';
import { SubjectButtonEditor } from './creation-cards';

const TICKET_ROLES: readonly TicketRole[] = ['Member', 'TicketOwner', 'Staff', 'Bot'];

export function CloseButtonsCard() {
  const { t } = useTranslation();
  return (
    <SettingsCard title={t('settings.cards.closeButtons.title')} description={t('settings.cards.closeButtons.description')}>
      <SubjectButtonEditor button="cancelCloseButton" />
      <SubjectButtonEditor button="closeNowButton" />
    </SettingsCard>
  );
}

export function CloseDelaysCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  return (
    <SettingsCard title={t('settings.cards.closeDelays.title')} description={t('settings.cards.closeDelays.description')}>
      <TimeSpanInput
        legend={t('settings.closing.closeDelay')}
        value={subject.automation.closeDelay}
        onChange={(value) => set('automation.closeDelay', value)}
      />
    </SettingsCard>
  );
}

export function AutoCloseCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  const gate = usePlanGate('autoClose');
  const inherits = useInherits('automation.autoCloseTime');
  const autoClose = subject.automation.autoCloseTime;
  return (
    <SettingsCard
      title={t('settings.cards.autoClose.title')}
      description={t('settings.cards.autoClose.description')}
      aside={!gate.available && <PlanBadge feature="autoClose" />}
    >
      <Switch
        label={t('settings.closing.autoCloseEnabled')}
        checked={autoClose.enabled}
        disabled={!autoClose.enabled && !gate.available}
        onChange={(event) => set('automation.autoCloseTime.enabled', event.currentTarget.checked)}
      />
      <PlanNote feature="autoClose" />
      <InheritToggle group="automation.autoCloseTime" />
      <TimeSpanInput
        legend={t('settings.closing.warnTime')}
        description={t('settings.closing.warnTimeHint')}
        value={autoClose.value.warnTime}
        disabled={inherits}
        onChange={(value) => set('automation.autoCloseTime.value.warnTime', value)}
      />
      <TimeSpanInput
        legend={t('settings.closing.closeTime')}
        description={t('settings.closing.closeTimeHint')}
        value={autoClose.value.closeTime}
        disabled={inherits}
        onChange={(value) => set('automation.autoCloseTime.value.closeTime', value)}
      />
    </SettingsCard>
  );
}

export function CloseBehaviorCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  return (
    <SettingsCard title={t('settings.cards.closeBehavior.title')} description={t('settings.cards.closeBehavior.description')}>
      <Switch
        label={t('settings.closing.requireCloseReason')}
        checked={subject.automation.requireCloseReason}
        onChange={(event) => set('automation.requireCloseReason', event.currentTarget.checked)}
      />
      <Switch
        label={t('settings.closing.closeOnLeave')}
        description={t('settings.closing.closeOnLeaveHint')}
        checked={subject.automation.closeOnLeave}
        onChange={(event) => set('automation.closeOnLeave', event.currentTarget.checked)}
      />
      <Select
        label={t('settings.closing.neededCloseRole')}
        description={t('settings.closing.neededCloseRoleHint')}
        data={TICKET_ROLES.map((role) => ({ value: role, label: t(`settings.ticketRoles.${role}`) }))}
        value={subject.limitations.neededCloseRole}
        allowDeselect={false}
        onChange={(value) => value && set('limitations.neededCloseRole', value)}
      />
    </SettingsCard>
  );
}
