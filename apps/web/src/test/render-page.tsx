import { configure, render } from '@testing-library/react';
import type { BearerUser } from '@ticket/contracts';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '@/app/providers';
import { useAuthStore } from '@/lib/auth-store';
import { createQueryClient } from '@/lib/query-client';
import { startApi } from './render';

// Screens load parts of themselves lazily (setup panel, dialogs, toasts): under a full parallel run
// the first import of each can take longer than testing-library's 1 s default.
configure({ asyncUtilTimeout: 5000 });

/** Signs `user` in for the test, as a confirmed session (no refresh call at start). */
export function signIn(user: BearerUser, token = 'tok-1'): void {
  useAuthStore.setState({ token, user, verified: true });
}

/**
 * One screen on its own, mounted at `pattern` and opened at `path`, without the app's router:
 * a screen's tests must not depend on where the shell mounts it. Other addresses render a marker
 * so tests can see where a screen navigated to.
 */
export function renderPage(element: ReactNode, { pattern = '/', path = pattern }: { pattern?: string; path?: string } = {}) {
  startApi();
  const routes: RouteObject[] = [
    { path: pattern, element },
    { path: '*', element: <p data-testid="elsewhere">elsewhere</p> },
  ];
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}
