import { Group, SegmentedControl, Stack, Text } from '@mantine/core';
import type { ChannelPermission, PermissionOverwrite } from '@ticket/contracts';
import { CHANNEL_PERMISSIONS } from '@ticket/contracts/rules';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { getAt, type InheritableGroup } from '../../lib/setting-paths';
import { useSettingWriter, useSubjectEditor } from '../subject-editor-context';
import { InheritToggle, useInherits } from './inherit-toggle';
import { FieldGroup } from './settings-card';

type PermissionState = 'deny' | 'neutral' | 'allow';

export const permissionState = (overwrite: PermissionOverwrite, permission: ChannelPermission): PermissionState =>
  overwrite.allow.includes(permission) ? 'allow' : overwrite.deny.includes(permission) ? 'deny' : 'neutral';

function PermissionRow({
  permission,
  state,
  onChange,
  disabled,
}: {
  permission: ChannelPermission;
  state: PermissionState;
  onChange: (state: PermissionState) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <Group justify="space-between" gap="xs" wrap="wrap" data-permission={permission}>
      <Text size="sm" id={labelId} style={{ flex: '1 1 150px' }}>
        {t(`settings.permissions.names.${permission}`)}
      </Text>
      <SegmentedControl
        aria-labelledby={labelId}
        size="xs"
        value={state}
        disabled={disabled}
        onChange={(value) => onChange(value as PermissionState)}
        // Dark shades: the chosen side's label is white on them and must stay readable.
        color={state === 'allow' ? 'teal.9' : state === 'deny' ? 'red.9' : 'gray.7'}
        data={[
          { value: 'deny', label: t('settings.permissions.deny') },
          { value: 'neutral', label: t('settings.permissions.neutral') },
          { value: 'allow', label: t('settings.permissions.allow') },
        ]}
      />
    </Group>
  );
}

/**
 * One permission overwrite (allow and deny lists) as a neutral / deny / allow choice per
 * permission. Choosing a side adds the permission to that list, which takes it out of the other
 * (the server does the same); neutral removes it from the list it was in.
 */
export function PermissionEditor({ group, legend, description }: { group: InheritableGroup; legend: string; description?: string }) {
  const { subject } = useSubjectEditor();
  const { add, remove } = useSettingWriter();
  const inherits = useInherits(group);
  const overwrite = getAt(subject, `${group}.value`) as PermissionOverwrite;
  const change = (permission: ChannelPermission, next: PermissionState) => {
    const current = permissionState(overwrite, permission);
    if (next === current) return;
    if (next === 'neutral') remove(`${group}.value.${current}`, permission);
    else add(`${group}.value.${next}`, permission);
  };
  return (
    <FieldGroup legend={legend} description={description}>
      <InheritToggle group={group} />
      <Stack gap={6}>
        {CHANNEL_PERMISSIONS.map((permission) => (
          <PermissionRow
            key={permission}
            permission={permission}
            state={permissionState(overwrite, permission)}
            disabled={inherits}
            onChange={(next) => change(permission, next)}
          />
        ))}
      </Stack>
    </FieldGroup>
  );
}
