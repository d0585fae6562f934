import { Anchor, AppShell, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { UserMenu } from '@/features/auth/components/user-menu';
import { useSessionRefresh } from '@/features/auth/hooks/use-session-refresh';
import { loginPath } from '@/features/auth/login-flow';
import { hasSession, useAuthStore } from '@/lib/auth-store';

/** The shell of every SIGNED_IN screen. The route loader guards entry; this guards a session that ends while here. */
export function SignedInLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const signedIn = useAuthStore(hasSession);
  useSessionRefresh();

  if (!signedIn) return <Navigate to={loginPath(location.pathname + location.search)} replace />;

  return (
    <AppShell header={{ height: 64 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/" fw={700} size="lg" underline="never" c="var(--mantine-color-text)">
            {t('app.name')}
          </Anchor>
          <UserMenu />
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
