import { Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentTitle } from '@/components/document-title';
import { useLoginConfig } from '@/features/auth/api/get-login-config';
import { isAdminRole, useAuthStore } from '@/lib/auth-store';
import { inviteUrlFor } from '../invite-url';
import { RefreshServersButton } from './refresh-servers-button';
import { ServerCard, ServerCardLink } from './server-card';

/** The dashboard: every server of the user, with the bot or still without it. */
export function ServersPage() {
  const { t } = useTranslation();
  const user = useAuthStore((state) => state.user);
  const inviteUrl = useLoginConfig().data?.inviteUrl;
  if (!user) return null;

  return (
    <Stack gap="xl" maw={1200} mx="auto">
      <DocumentTitle title={t('menu.dashboard')} />
      <Group justify="space-between" align="center">
        <Title order={1}>{t('servers.title')}</Title>
        <RefreshServersButton />
      </Group>

      {user.servers.length === 0 && user.uServers.length === 0 && <Text c="dimmed">{t('servers.empty')}</Text>}

      {user.servers.length > 0 && (
        <ServerSection title={t('servers.withBot')}>
          {user.servers.map((server) => (
            <ServerCard
              key={server.serverId}
              serverId={server.serverId}
              name={server.name}
              iconUrl={server.serverIcon}
              role={server.role}
            />
          ))}
        </ServerSection>
      )}

      {user.uServers.length > 0 && (
        <ServerSection title={t('servers.withoutBot')}>
          {user.uServers.map((server) => (
            <ServerCard
              key={server.serverId}
              serverId={server.serverId}
              name={server.name}
              iconUrl={server.serverIcon}
              role={server.role}
            >
              <Text size="sm" c="dimmed">
                {t('servers.botMissing')}
              </Text>
              {isAdminRole(server.role) && inviteUrl && (
                <ServerCardLink
                  href={inviteUrlFor(inviteUrl, server.serverId)}
                  label={t('servers.beginSetupFor', { name: server.name })}
                >
                  {t('servers.beginSetup')}
                </ServerCardLink>
              )}
            </ServerCard>
          ))}
        </ServerSection>
      )}
    </Stack>
  );
}

function ServerSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="md">
      <Title order={2} size="h3" id={headingId}>
        {title}
      </Title>
      <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 3 }} p={0} m={0} style={{ listStyle: 'none' }}>
        {children}
      </SimpleGrid>
    </Stack>
  );
}
