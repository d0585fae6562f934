import { useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';
import { useSessionRefresh } from '@/features/auth/hooks/use-session-refresh';
import { i18n, takeStartupLocaleFailure } from '@/lib/i18n';
import { notifyError } from '@/lib/notify';
import { leafHandle } from '@/lib/routes';
import { useNavigationEffects } from './use-navigation-effects';

export function RootLayout() {
  const routeName = leafHandle(useMatches())?.name;
  useNavigationEffects();
  // SPEC §2: the session is not refreshed on the invite callback.
  useSessionRefresh(routeName === 'inviteCallback');
  useEffect(() => {
    // The stored language could not be loaded at start-up, so the UI came up in English.
    if (takeStartupLocaleFailure()) notifyError(i18n.t('language.loadFailed'));
  }, []);
  return <Outlet />;
}
