import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { getAt, type InheritableGroup } from '../../lib/setting-paths';
import { useSettingWriter, useSubjectEditor } from '../subject-editor-context';

/** Whether a group follows the subject it inherits from (its controls are then read-only). */
export function useInherits(group: InheritableGroup): boolean {
  const { subject } = useSubjectEditor();
  return getAt(subject, `${group}.inherits`) === true;
}

/**
 * The inherit switch of an inheritable group. Without a subject to inherit from it can only be
 * switched off: inheriting from nothing would change nothing.
 */
export function InheritToggle({ group }: { group: InheritableGroup }) {
  const { t } = useTranslation();
  const { subject, subjects } = useSubjectEditor();
  const { set } = useSettingWriter();
  const inherits = useInherits(group);
  const parent = subjects.find((s) => s.subjectId === subject.inheritsFrom && s.subjectId !== subject.subjectId);
  return (
    <Switch
      label={parent ? t('settings.inherit.from', { name: parent.name }) : t('settings.inherit.label')}
      description={
        !parent ? t('settings.inherit.noParent') : inherits ? t('settings.inherit.readOnly') : undefined
      }
      checked={inherits}
      disabled={!parent && !inherits}
      onChange={(event) => set(`${group}.inherits`, event.currentTarget.checked)}
    />
  );
}
