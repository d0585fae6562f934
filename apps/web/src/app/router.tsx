import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { RootLayout } from './layouts/root-layout';
import { requireSignedIn, requireSignedOut } from './route-guards';
import { NotFoundPage } from './routes/not-found-page';
import { RouteErrorPage } from './routes/route-error-page';

/**
 * Every screen is its own chunk (`lazy`), so the first screen carries only itself. Guards are
 * loaders, so a visitor who may not see a screen is redirected before it renders at all.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorPage,
    children: [
      {
        path: 'login',
        loader: requireSignedOut,
        lazy: async () => ({ Component: (await import('@/features/auth/components/login-page')).LoginPage }),
      },
      {
        path: 'callback',
        lazy: async () => {
          const { CallbackPage, callbackLoader } = await import('@/features/auth/components/callback-page');
          return {
            Component: CallbackPage,
            loader: (args) => {
              requireSignedOut(args);
              return callbackLoader(args);
            },
          };
        },
      },
      {
        id: 'signed-in',
        loader: requireSignedIn,
        lazy: async () => ({ Component: (await import('./layouts/signed-in-layout')).SignedInLayout }),
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await import('@/features/servers/components/servers-page')).ServersPage,
            }),
          },
        ],
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
