import { Stack, Tabs, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BotMissing } from '@/components/bot-missing';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { StaffPageHeader } from '@/components/staff-page-header';
import { useCurrentServer } from '@/lib/use-current-server';
import { useServerCacheFor } from '../hooks/use-server-cache-for';
import { PublicStatsCard } from './public-stats-card';
import { SubjectList } from './subjects/subject-list';

// The activity log is read less often than the list: it loads when its tab is opened.
const AuditLog = lazy(async () => ({ default: (await import('./subjects/audit-log')).AuditLog }));
// So are the export and import of the whole configuration.
const ConfigurationTransfer = lazy(async () => ({ default: (await import('./configuration/configuration-transfer')).ConfigurationTransfer }));

const ADMIN_TABS = ['activity', 'configuration'] as const;

/** `/staff/:serverId/settings`: the server's subjects, and who changed what. */
export function SubjectsPage() {
  const { t } = useTranslation();
  const current = useCurrentServer();
  const { serverId } = current;
  useServerCacheFor(serverId);
  const [search, setSearch] = useSearchParams();
  const asked = ADMIN_TABS.find((name) => name === search.get('tab'));
  const tab = asked && current.isAdmin ? asked : 'subjects';

  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader current={current} title={t('staff.sections.settings')} />
      {current.notFound ? (
        <BotMissing serverId={serverId} canInvite={current.isAdmin} />
      ) : (
        <>
          {current.error ? <LoadError message={t('staff.serverLoadFailed')} onRetry={current.refetch} /> : null}
          <Tabs
            value={tab}
            keepMounted={false}
            onChange={(next) =>
              setSearch(
                (params) => {
                  const nextParams = new URLSearchParams(params);
                  const adminTab = ADMIN_TABS.find((name) => name === next);
                  if (adminTab) nextParams.set('tab', adminTab);
                  else nextParams.delete('tab');
                  return nextParams;
                },
                { replace: true, preventScrollReset: true },
              )
            }
          >
            <Tabs.List aria-label={t('settings.subjects.tabs')}>
              <Tabs.Tab value="subjects">{t('settings.subjects.tab')}</Tabs.Tab>
              {current.isAdmin && <Tabs.Tab value="activity">{t('settings.audit.tab')}</Tabs.Tab>}
              {current.isAdmin && <Tabs.Tab value="configuration">{t('settings.configuration.tab')}</Tabs.Tab>}
            </Tabs.List>
            <Tabs.Panel value="subjects" pt="md">
              <Stack gap="md">
                <Text>{t('settings.subjects.explanation')}</Text>
                <SubjectList current={current} />
                {current.isAdmin && <PublicStatsCard serverId={serverId} />}
              </Stack>
            </Tabs.Panel>
            {current.isAdmin && (
              <Tabs.Panel value="activity" pt="md">
                <Suspense fallback={<LoadingBlock />}>
                  <AuditLog serverId={serverId} />
                </Suspense>
              </Tabs.Panel>
            )}
            {current.isAdmin && (
              <Tabs.Panel value="configuration" pt="md">
                <Suspense fallback={<LoadingBlock />}>
                  <ConfigurationTransfer serverId={serverId} />
                </Suspense>
              </Tabs.Panel>
            )}
          </Tabs>
        </>
      )}
    </Stack>
  );
}
