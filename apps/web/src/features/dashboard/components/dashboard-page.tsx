import { Button, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DocumentTitle } from '@/components/document-title';
import { isStaffRole, useAuthStore } from '@/lib/auth-store';
import { useLoginConfig } from '@/lib/queries/get-login-config';
import { CREATE_SERVER_URL } from '../paths';
import { GettingStarted } from './getting-started';
import { RefreshServersButton } from './refresh-servers-button';
import { ServerList } from './server-list';

/**
 * The signed-in home (SPEC §2): the user's servers with what they can do on each, setup steps
 * and shortcuts for the servers they manage. Everything here comes from the auth store except
 * the checklist, so the list paints at once.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const user = useAuthStore((state) => state.user);
  const inviteUrl = useLoginConfig().data?.inviteUrl;
  if (!user) return null;
  const managed = user.servers.filter((server) => isStaffRole(server.role));

  return (
    <Stack gap="xl" maw={1200} mx="auto">
      <DocumentTitle title={t('menu.dashboard')} />
      <Stack gap="xs">
        <Group justify="space-between" align="center" gap="sm">
          <Title order={1}>{t('servers.title')}</Title>
          <Group gap="xs">
            <Button
              component="a"
              href={CREATE_SERVER_URL}
              target="_blank"
              rel="noopener noreferrer"
              variant="subtle"
            >
              {t('dashboard.createServer')}
              <VisuallyHidden>{t('dashboard.opensInNewTab')}</VisuallyHidden>
            </Button>
            <RefreshServersButton />
          </Group>
        </Group>
        <Text c="dimmed">{t('dashboard.intro')}</Text>
      </Stack>
      {managed.length > 0 && <GettingStarted servers={managed} />}
      <ServerList user={user} inviteUrl={inviteUrl} />
    </Stack>
  );
}
