import { Avatar, Button, Group, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AVATAR_COLORS } from '@/components/avatar-colors';
import { ChevronDownIcon } from '@/components/icons';
import { LazyMenu } from '@/components/lazy-menu';
import { useAuthStore } from '@/lib/auth-store';
import { paths } from '@/lib/routes';

/**
 * The signed-in user: a menu with their profile and the tour, and the way out beside it. Signing
 * out lands on /login through the layout's guard; on phones the navigation menu's Logout does it.
 */
/** `extraItems`: more entries for the menu, such as the shell's "Show the tour". */
export function UserMenu({ extraItems = [] }: { extraItems?: { label: string; onClick: () => void }[] }) {
  const { t } = useTranslation();
  const user = useAuthStore((state) => state.user);
  const logout = useAuthStore((state) => state.logout);
  const [signingOut, setSigningOut] = useState(false);
  if (!user) return null;
  const name = user.globalName ?? user.username;

  const signOut = async () => {
    setSigningOut(true);
    await logout();
  };

  return (
    <Group gap="xs" wrap="nowrap">
      <LazyMenu
        position="bottom-end"
        shadow="md"
        width={200}
        target={(props) => (
          <UnstyledButton
            px={4}
            py={2}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
            aria-label={t('nav.userMenu', { name })}
            {...props}
          >
            <Group gap={6} wrap="nowrap">
              {/* The name beside it says whose picture this is. */}
              <Avatar src={user.avatarUrl ?? null} alt="" name={name} {...AVATAR_COLORS} size="md" />
              <Text fw={500} visibleFrom="md" maw={160} truncate="end" component="span">
                {name}
              </Text>
              <ChevronDownIcon size={16} />
            </Group>
          </UnstyledButton>
        )}
      >
        {(Menu) => (
          <>
            <Menu.Label>{name}</Menu.Label>
            <Menu.Item component={Link} to={paths.profile()}>
              {t('menu.myProfile')}
            </Menu.Item>
            {extraItems.map((item) => (
              <Menu.Item key={item.label} onClick={item.onClick}>
                {item.label}
              </Menu.Item>
            ))}
          </>
        )}
      </LazyMenu>
      <Button variant="default" onClick={() => void signOut()} loading={signingOut} visibleFrom="sm">
        {t('auth.signOut')}
      </Button>
    </Group>
  );
}
