import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { SkipLink } from '@/components/skip-link';
import { loginPath } from '@/features/auth/login-path';
import { hasSession, useAuthStore } from '@/lib/auth-store';
import { leafHandle } from '@/lib/routes';
import { AppHeader } from './app-header';
import { AppNavbar } from './app-navbar';
import { ScreenTransition } from './screen-transition';
import { WelcomeTour } from '@/features/onboarding/components/welcome-tour';

const NAVBAR_ID = 'app-navbar';
const MAIN_ID = 'main-content';

/** The shell of every SIGNED_IN screen. The route loaders guard entry; this guards a session that ends while here. */
export function SignedInLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const routeName = leafHandle(useMatches())?.name;
  const signedIn = useAuthStore(hasSession);
  const [navbarOpened, navbar] = useDisclosure(false);
  const closeNavbar = navbar.close;

  // On phones the menu covers the screen: it closes once an item has been chosen.
  useEffect(() => {
    closeNavbar();
  }, [location.key, closeNavbar]);

  if (!signedIn) return <Navigate to={loginPath(location.pathname + location.search)} replace />;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !navbarOpened } }}
      padding="md"
    >
      <SkipLink targetId={MAIN_ID}>{t('nav.skipToContent')}</SkipLink>
      <AppShell.Header>
        <AppHeader navbarId={NAVBAR_ID} navbarOpened={navbarOpened} onToggleNavbar={navbar.toggle} />
      </AppShell.Header>
      <AppShell.Navbar id={NAVBAR_ID} aria-label={t('nav.mainNavigation')}>
        <AppNavbar routeName={routeName} />
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
        <ScreenTransition>
          <Outlet />
        </ScreenTransition>
      </AppShell.Main>
      <WelcomeTour />
    </AppShell>
  );
}
