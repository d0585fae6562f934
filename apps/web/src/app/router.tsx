import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import type { AuthLevel, RouteHandle, RouteName } from '@/lib/routes';
import { RootLayout } from './layouts/root-layout';
import { guardRoute } from './route-guards';
import { NotFoundPage } from './routes/not-found-page';
import { RouteErrorPage, ScreenErrorPage } from './routes/route-error-page';
import { SignedInOrLanding } from './layouts/signed-in-or-landing';
import { orLanding } from './landing-gate';
import { lazyScreen, premiumResult, withArea } from './screens';

type RouteFields = Pick<RouteObject, 'id' | 'handle' | 'loader'>;

/** A route that shows a screen: named, with its auth level, guarded by a loader before it loads. */
function screen(name: RouteName, auth: AuthLevel, options: Pick<RouteHandle, 'preserveScroll'> = {}): RouteFields {
  const handle: RouteHandle = { name, auth, ...options };
  return { id: name, handle, ...(auth === 'open' ? {} : { loader: guardRoute(handle) }) };
}

/** The same route, whose guard lets a signed-out visitor at `/` through to the landing page. */
const landingAtRoot = (fields: RouteFields): RouteFields => ({ ...fields, loader: orLanding(guardRoute(fields.handle as RouteHandle)) });

/**
 * A route that only groups others under its path. It declares the level its children need at
 * least; each child's own loader enforces its level, so a denial is decided (and said) once.
 */
const area = (name: RouteName, auth: AuthLevel): RouteFields => ({ id: name, handle: { name, auth } satisfies RouteHandle });

/**
 * The route table of SPEC §2: every route's name (its `id`) and auth level (its `handle`) are
 * declared here and nowhere else. Every screen is its own chunk (`lazy`), so the first screen
 * carries only itself; guards are loaders, so a screen the user may not see never loads or renders.
 * The signed-in shell and the Dashboard, the first screen of a signed-in user, come with the entry
 * instead: one chunk with the start-up rather than three more round trips (see plugins/chunks.ts).
 */
export const routes: RouteObject[] = [
  {
    ...area('root', 'open'),
    Component: RootLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorPage,
    children: [
      {
        path: 'login',
        ...screen('login', 'NOT_AUTHENTICATED'),
        lazy: async () => ({
          Component: (await withArea('account', import('@/features/auth/components/login-page'))).LoginPage,
        }),
      },
      {
        path: 'callback',
        // Its loader comes with its module: the guard first, then the code exchange.
        ...area('callback', 'NOT_AUTHENTICATED'),
        lazy: async () => {
          const { CallbackPage, callbackLoader } = await withArea('account', import('@/features/auth/components/callback-page'));
          const guard = guardRoute({ auth: 'NOT_AUTHENTICATED' });
          return {
            Component: CallbackPage,
            loader: (args) => {
              guard(args);
              return callbackLoader(args);
            },
          };
        },
      },
      { path: 'invite_callback', ...screen('inviteCallback', 'open'), lazy: lazyScreen('inviteCallback') },
      { path: 'servers/:serverId/stats', ...screen('publicServerStats', 'open'), lazy: lazyScreen('publicServerStats') },
      {
        // Signed out, `/` is the landing page (see landing-gate.ts).
        ...landingAtRoot(screen('signedIn', 'SIGNED_IN')),
        Component: SignedInOrLanding,
        children: [
          {
            // A failing screen keeps the shell around it, so the way elsewhere stays on screen.
            ErrorBoundary: ScreenErrorPage,
            children: [
              { index: true, ...landingAtRoot(screen('dashboard', 'SIGNED_IN')), lazy: lazyScreen('dashboard') },
              { path: 'profile', ...screen('profile', 'SIGNED_IN'), lazy: lazyScreen('profile') },
              {
                path: 'tickets',
                ...area('myTicketsArea', 'SIGNED_IN'),
                children: [
                  { index: true, ...screen('myTickets', 'SIGNED_IN'), lazy: lazyScreen('myTickets') },
                  {
                    path: ':ticketId',
                    ...screen('myTicket', 'SIGNED_IN', { preserveScroll: true }),
                    lazy: lazyScreen('myTickets'),
                  },
                ],
              },
              {
                path: 'staff/:serverId',
                ...area('staff', 'STAFF'),
                children: [
                  { index: true, ...screen('staffHome', 'ADMIN'), lazy: lazyScreen('staffHome') },
                  { path: 'profile', ...screen('serverProfile', 'STAFF'), lazy: lazyScreen('serverProfile') },
                  {
                    path: 'settings',
                    ...area('settingsArea', 'ADMIN'),
                    children: [
                      { index: true, ...screen('settings', 'ADMIN'), lazy: lazyScreen('subjects') },
                      { path: ':subjectId', ...screen('subject', 'ADMIN'), lazy: lazyScreen('subjectSettings') },
                    ],
                  },
                  { path: 'panels', ...screen('panels', 'ADMIN'), lazy: lazyScreen('panels') },
                  { path: 'whitelabel', ...screen('whitelabel', 'ADMIN'), lazy: lazyScreen('whitelabel') },
                  { path: 'api-key', ...screen('apiKey', 'ADMIN'), lazy: lazyScreen('apiKey') },
                  { path: 'webhooks', ...screen('webhooks', 'ADMIN'), lazy: lazyScreen('webhooks') },
                  {
                    path: 'premium',
                    ...area('premiumArea', 'ADMIN'),
                    children: [
                      { index: true, ...screen('premium', 'ADMIN'), lazy: lazyScreen('premium') },
                      { path: 'cancel', ...screen('premiumCancel', 'ADMIN'), lazy: premiumResult('cancel') },
                      {
                        path: 'update/success',
                        ...screen('premiumUpdateSuccess', 'ADMIN'),
                        lazy: premiumResult('updateSuccess'),
                      },
                      { path: 'success', ...screen('premiumSuccess', 'ADMIN'), lazy: premiumResult('success') },
                    ],
                  },
                  {
                    path: 'tickets',
                    ...area('ticketsArea', 'STAFF'),
                    children: [
                      { index: true, ...screen('tickets', 'STAFF'), lazy: lazyScreen('serverTickets') },
                      {
                        path: ':ticketId',
                        ...screen('ticket', 'STAFF', { preserveScroll: true }),
                        lazy: lazyScreen('serverTickets'),
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', ...screen('notFound', 'open'), Component: NotFoundPage },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
