import { Anchor, Avatar, Group, Stack, Text, Title } from '@mantine/core';
import type { AuthServer, AuthUnjoinedServer } from '@ticket/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RoleBadge } from '@/components/role-badge';
import { isStaffRole, useAuthStore } from '@/lib/auth-store';
import { paths } from '@/lib/routes';
import { ProfileSection } from './profile-section';

/** The user's servers and role on each, with the bot and without it. */
export function ServersSection() {
  const { t } = useTranslation();
  const user = useAuthStore((state) => state.user);
  if (!user) return null;
  return (
    <ProfileSection title={t('profile.servers.title')}>
      {user.servers.length === 0 && user.uServers.length === 0 ? (
        <Text c="dimmed">{t('servers.empty')}</Text>
      ) : (
        <>
          <ServerGroup title={t('servers.withBot')} servers={user.servers} linked />
          <ServerGroup title={t('servers.withoutBot')} servers={user.uServers} />
        </>
      )}
    </ProfileSection>
  );
}

function ServerGroup({
  title,
  servers,
  linked = false,
}: {
  title: string;
  servers: (AuthServer | AuthUnjoinedServer)[];
  linked?: boolean;
}) {
  const headingId = useId();
  if (servers.length === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5" id={headingId}>
        {title}
      </Title>
      <Stack component="ul" aria-labelledby={headingId} gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
        {servers.map((server) => (
          <Group component="li" key={server.serverId} gap="sm" wrap="nowrap" justify="space-between">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <Avatar src={server.serverIcon ?? null} alt="" name={server.name} color="initials" radius="md" size="sm" />
              {linked && isStaffRole(server.role) ? (
                <Anchor component={Link} to={paths.serverProfile(server.serverId)} truncate="end">
                  {server.name}
                </Anchor>
              ) : (
                <Text truncate="end">{server.name}</Text>
              )}
            </Group>
            <RoleBadge role={server.role} />
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
