import { Button, Group, Text } from '@mantine/core';
import type { AuthServer, AuthUnjoinedServer } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isAdminRole, isStaffRole } from '@/lib/auth-store';
import { inviteUrlFor } from '@/lib/invite-url';
import { paths } from '@/lib/routes';
import { myTicketsPath } from '../paths';
import { ServerCardLink } from './server-card';

/**
 * A server with the bot: admins open its dashboard; staff see its tickets in staff mode;
 * members see their own tickets there.
 */
export function JoinedServerActions({ server }: { server: AuthServer }) {
  const { t } = useTranslation();
  const { serverId, name, role } = server;
  const ticketsPath = isStaffRole(role) ? paths.tickets(serverId) : myTicketsPath(serverId);
  return (
    // Side by side where they fit, one under the other in a narrow card: never cut short.
    <Group gap="xs">
      {isAdminRole(role) && (
        <Button
          component={Link}
          to={paths.staffHome(serverId)}
          aria-label={t('servers.openDashboardFor', { name })}
          style={{ flex: '1 1 auto' }}
        >
          {t('servers.openDashboard')}
        </Button>
      )}
      <Button
        component={Link}
        to={ticketsPath}
        variant={isAdminRole(role) ? 'default' : 'light'}
        aria-label={t('servers.viewTicketsFor', { name })}
        style={{ flex: '1 1 auto' }}
      >
        {t('servers.viewTickets')}
      </Button>
    </Group>
  );
}

/** A server without the bot: only its owner and admins can add it (SPEC §6). */
export function UnjoinedServerActions({ server, inviteUrl }: { server: AuthUnjoinedServer; inviteUrl?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="sm" c="dimmed">
        {isAdminRole(server.role) ? t('servers.botMissing') : t('servers.botMissingAskAdmin')}
      </Text>
      {isAdminRole(server.role) && inviteUrl && (
        <ServerCardLink
          href={inviteUrlFor(inviteUrl, server.serverId)}
          label={t('servers.beginSetupFor', { name: server.name })}
        >
          {t('servers.beginSetup')}
        </ServerCardLink>
      )}
    </>
  );
}
