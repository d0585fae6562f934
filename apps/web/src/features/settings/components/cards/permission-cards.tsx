import { useTranslation } from 'react-i18next';
import { PermissionEditor } from '../controls/permission-editor';
import { SettingsCard } from '../controls/settings-card';

export function AccessControlCard() {
  const { t } = useTranslation();
  return (
    <SettingsCard title={t('settings.cards.accessControl.title')} description={t('settings.cards.accessControl.description')}>
      <PermissionEditor
        group="permissions.userPermissions"
        legend={t('settings.permissions.user')}
        description={t('settings.permissions.userHint')}
      />
      <PermissionEditor
        group="permissions.staffPermissions"
        legend={t('settings.permissions.staff')}
        description={t('settings.permissions.staffHint')}
      />
      <PermissionEditor
        group="permissions.claimPermissions"
        legend={t('settings.permissions.claim')}
        description={t('settings.permissions.claimHint')}
      />
    </SettingsCard>
  );
}
