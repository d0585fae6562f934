import { Avatar, Button, Text } from '@mantine/core';
import type { AuthServer } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronDownIcon } from '@/components/icons';
import { AVATAR_COLORS } from '@/components/avatar-colors';
import { LazyMenu } from '@/components/lazy-menu';
import { isStaffRole, useAuthStore } from '@/lib/auth-store';
import { useRecentServers } from '@/lib/recent-servers';
import { paths } from '@/lib/routes';
import { useServerContext } from '@/lib/server-context';
import { serverHomePath } from './menu-items';

/** Back to a recently managed server, or to the list of all of them. */
export function ServerSwitcher() {
  const { t } = useTranslation();
  const user = useAuthStore((state) => state.user);
  const { recent } = useRecentServers(user?.userId);
  const context = useServerContext();
  // Only servers the user still manages: a role may have been taken away since the visit.
  const servers = recent
    .map((serverId) => user?.servers.find((server) => server.serverId === serverId))
    .filter((server): server is AuthServer => server !== undefined && isStaffRole(server.role));
  const currentName = context.entry?.name;

  return (
    <LazyMenu
      position="bottom-end"
      shadow="md"
      width={260}
      target={(props) => (
        <Button
          variant="default"
          px="xs"
          leftSection={
            currentName ? (
              <Avatar src={context.entry?.serverIcon ?? null} alt="" name={currentName} {...AVATAR_COLORS} size={22} radius="sm" />
            ) : undefined
          }
          rightSection={<ChevronDownIcon size={16} />}
          maw={{ base: 'auto', sm: 240 }}
          aria-label={`${t('nav.switchServer')}: ${currentName ?? t('nav.servers')}`}
          {...props}
        >
          <Text span inherit truncate="end" visibleFrom="sm">
            {currentName ?? t('nav.servers')}
          </Text>
        </Button>
      )}
    >
      {(Menu) => (
        <>
          <Menu.Label>{t('nav.recentServers')}</Menu.Label>
          {servers.length === 0 && <Menu.Item disabled>{t('nav.noRecentServers')}</Menu.Item>}
          {servers.map((server) => (
            <Menu.Item
              key={server.serverId}
              component={Link}
              to={serverHomePath(server.serverId, server.role)}
              aria-current={server.serverId === context.serverId ? 'true' : undefined}
              leftSection={
                <Avatar src={server.serverIcon ?? null} alt="" name={server.name} {...AVATAR_COLORS} size={24} radius="sm" />
              }
            >
              {server.name}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item component={Link} to={paths.dashboard()}>
            {t('menu.myServers')}
          </Menu.Item>
        </>
      )}
    </LazyMenu>
  );
}
