import { Anchor, Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadError } from '@/components/load-error';
import { notifyError } from '@/lib/notify';
import { paths } from '@/lib/routes';
import { useServerCache, useServerCacheFor } from '@/lib/server-cache';
import { useUpdateServerSettings } from '../api/update-server-settings';
import { SettingsCard } from './controls/settings-card';

/** Whether anyone may see the server's statistics on a public page (off until an admin says so). */
export function PublicStatsCard({ serverId }: { serverId: string }) {
  // The server's cached settings, once the caches belong to this server.
  return useServerCacheFor(serverId) ? <PublicStatsSwitch serverId={serverId} /> : null;
}

function PublicStatsSwitch({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const settings = useServerCache('settings');
  const update = useUpdateServerSettings(serverId);
  const on = settings.data?.publicStats ?? false;
  const shown = update.isPending ? Boolean(update.variables.value) : on;

  return (
    <SettingsCard title={t('settings.publicStats.title')} description={t('settings.publicStats.description')}>
      {settings.error ? (
        <LoadError message={t('settings.language.loadFailed')} onRetry={settings.reload} />
      ) : (
        <Switch
          label={t('settings.publicStats.toggle')}
          checked={shown}
          disabled={!settings.data || update.isPending}
          onChange={(event) =>
            update.mutate(
              { path: 'publicStats', operation: 'set', value: event.currentTarget.checked },
              { onError: () => notifyError(t('settings.publicStats.failed')) },
            )
          }
        />
      )}
      {on && !update.isPending && (
        <Anchor component={Link} to={paths.publicServerStats(serverId)} target="_blank" rel="noopener">
          {t('settings.publicStats.link')}
        </Anchor>
      )}
    </SettingsCard>
  );
}
