import { Badge, Group, Select, Switch, Text, TextInput } from '@mantine/core';
import type { CategoryRef, Subject } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { subjectNameProblem } from '../../lib/subject-name';
import { useDraft } from '../controls/draft';
import { InheritToggle, useInherits } from '../controls/inherit-toggle';
import { CategoryMultiSelect, RoleMultiSelect } from '../controls/server-pickers';
import { SettingsCard } from '../controls/settings-card';
import { useSettingWriter, useSubjectEditor } from '../subject-editor-context';

/** Subjects this one may inherit from: not itself, nor one that (through others) inherits from it. */
export function inheritanceCandidates(subject: Subject, subjects: readonly Subject[]): Subject[] {
  const byId = new Map(subjects.map((s) => [s.subjectId, s]));
  const leadsBack = (start: Subject): boolean => {
    const seen = new Set<string>();
    for (let s: Subject | undefined = start; s; s = s.inheritsFrom ? byId.get(s.inheritsFrom) : undefined) {
      if (s.subjectId === subject.subjectId) return true;
      if (seen.has(s.subjectId)) return false;
      seen.add(s.subjectId);
    }
    return false;
  };
  return subjects.filter((s) => !s.deleted && !leadsBack(s));
}

export function SubjectInformationCard() {
  const { t } = useTranslation();
  const { subject, subjects } = useSubjectEditor();
  const { set } = useSettingWriter();
  const [name, setName] = useDraft(subject.name);
  const others = subjects.filter((s) => s.subjectId !== subject.subjectId).map((s) => s.name);
  const problem = subjectNameProblem(t, name, others);
  const candidates = inheritanceCandidates(subject, subjects);
  return (
    <SettingsCard title={t('settings.cards.subjectInformation.title')} description={t('settings.cards.subjectInformation.description')}>
      <TextInput
        label={t('settings.subject.name')}
        description={t('settings.subject.nameRules')}
        value={name}
        error={problem}
        maxLength={200}
        onChange={(event) => {
          const next = event.currentTarget.value;
          setName(next);
          if (!subjectNameProblem(t, next, others)) set('name', next.trim());
        }}
      />
      <Switch
        label={t('settings.subject.active')}
        description={t('settings.subject.activeHint')}
        checked={subject.active}
        onChange={(event) => set('active', event.currentTarget.checked)}
      />
      <Switch
        label={t('settings.subject.disableCreation')}
        description={t('settings.subject.disableCreationHint')}
        checked={subject.disableCreation}
        onChange={(event) => set('disableCreation', event.currentTarget.checked)}
      />
      <Select
        label={t('settings.subject.inheritsFrom')}
        description={t('settings.subject.inheritsFromHint')}
        data={[
          { value: '', label: t('settings.subject.inheritsNothing') },
          ...candidates.map((s) => ({ value: s.subjectId, label: s.name })),
        ]}
        value={subject.inheritsFrom ?? ''}
        allowDeselect={false}
        onChange={(value) => set('inheritsFrom', value ? value : null)}
      />
    </SettingsCard>
  );
}

export function StaffManagementCard() {
  const { t } = useTranslation();
  const { subject, serverId } = useSubjectEditor();
  const { add, remove } = useSettingWriter();
  const inherits = useInherits('staffRoles');
  return (
    <SettingsCard title={t('settings.cards.staffManagement.title')} description={t('settings.cards.staffManagement.description')}>
      <InheritToggle group="staffRoles" />
      <RoleMultiSelect
        serverId={serverId}
        label={t('settings.staff.roles')}
        description={t('settings.staff.rolesHint')}
        value={subject.staffRoles.value}
        disabled={inherits}
        onAdd={(id) => add('staffRoles.value', id)}
        onRemove={(id) => remove('staffRoles.value', id)}
      />
    </SettingsCard>
  );
}

function CategoryList({ kind }: { kind: 'waitingForStaff' | 'waitingForUser' }) {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { add, remove } = useSettingWriter();
  const refs: CategoryRef[] = subject.categories[kind];
  const path = `categories.${kind}`;
  const selfCreated = refs.filter((ref) => ref.selfCreated).length;
  return (
    <div>
      <CategoryMultiSelect
        label={t(`settings.categories.${kind}`)}
        description={t(`settings.categories.${kind}Hint`)}
        value={refs.map((ref) => ref.id)}
        onAdd={(id) => add(path, { id, selfCreated: false }, 'id')}
        onRemove={(id) => remove(path, { id }, 'id')}
      />
      {selfCreated > 0 && (
        <Group gap={4} mt={4}>
          <Badge variant="light" tt="none" size="sm">
            {t('settings.categories.selfCreated', { count: selfCreated })}
          </Badge>
        </Group>
      )}
    </div>
  );
}

export function TicketCategoriesCard() {
  const { t } = useTranslation();
  const { subject } = useSubjectEditor();
  const { set } = useSettingWriter();
  return (
    <SettingsCard title={t('settings.cards.ticketCategories.title')} description={t('settings.cards.ticketCategories.description')}>
      <CategoryList kind="waitingForStaff" />
      <CategoryList kind="waitingForUser" />
      <Switch
        label={t('settings.categories.moveTickets')}
        description={t('settings.categories.moveTicketsHint')}
        checked={subject.categories.moveTickets}
        onChange={(event) => set('categories.moveTickets', event.currentTarget.checked)}
      />
      {subject.categories.waitingForStaff.length === 0 && subject.categories.waitingForUser.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('settings.categories.none')}
        </Text>
      )}
    </SettingsCard>
  );
}
