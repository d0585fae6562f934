import { Button, Group } from '@mantine/core';
import type { ServerRole } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isAdminRole, isStaffRole } from '@/lib/auth-store';
import { paths } from '@/lib/routes';

type QuickAction = 'openDashboard' | 'settings' | 'panels' | 'tickets' | 'premium' | 'serverProfile';

const pathOf: Record<QuickAction, (serverId: string) => string> = {
  openDashboard: paths.staffHome,
  settings: paths.settings,
  panels: paths.panels,
  tickets: paths.tickets,
  premium: paths.premium,
  serverProfile: paths.serverProfile,
};

/** What the role may open: admins everything, staff the tickets and the server's profile. */
export function quickActionsFor(role: ServerRole): QuickAction[] {
  if (isAdminRole(role)) return ['openDashboard', 'settings', 'panels', 'tickets', 'premium'];
  if (isStaffRole(role)) return ['tickets', 'serverProfile'];
  return [];
}

export function QuickActions({ serverId, role, labelledBy }: { serverId: string; role: ServerRole; labelledBy: string }) {
  const { t } = useTranslation();
  const actions = quickActionsFor(role);
  if (actions.length === 0) return null;
  return (
    <Group component="nav" aria-labelledby={labelledBy} gap="xs">
      {actions.map((action, index) => (
        <Button
          key={action}
          component={Link}
          to={pathOf[action](serverId)}
          variant={index === 0 ? 'filled' : 'default'}
          size="sm"
        >
          {t(`quickActions.${action}`)}
        </Button>
      ))}
    </Group>
  );
}
