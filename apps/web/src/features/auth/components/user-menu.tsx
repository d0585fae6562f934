import { Avatar, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '@/lib/auth-store';

/** The signed-in user and the way out; signing out lands on /login through the layout's guard. */
export function UserMenu() {
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
    <Group gap="sm" wrap="nowrap">
      {/* The name beside it says whose picture this is. */}
      <Avatar src={user.avatarUrl ?? null} alt="" name={name} color="initials" size="md" />
      <Text fw={500} visibleFrom="xs" maw={180} truncate="end">
        {name}
      </Text>
      <Button variant="default" onClick={() => void signOut()} loading={signingOut}>
        {t('auth.signOut')}
      </Button>
    </Group>
  );
}
