import { act, render, screen, waitFor } from '@testing-library/react';
import type { BearerUser } from '@ticket/contracts';
import { createMemoryRouter, matchRoutes, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { useNavigationStore } from '@/lib/navigation-store';
import { createQueryClient } from '@/lib/query-client';
import { useRecentServersStore } from '@/lib/recent-servers';
import { isRouteHandle, leafHandle, type RouteHandle } from '@/lib/routes';
import { serverCache } from '@/lib/server-cache';
import { json, mockFetch, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderApp, startApi } from '@/test/render';
import { RootLayout } from './layouts/root-layout';
import { AppProviders } from './providers';
import { guardRoute } from './route-guards';
import { routes } from './router';
import { SCREENS } from './screens';

describe('the route table (SPEC §2)', () => {
  const table: [string, RouteHandle][] = [
    ['/', { name: 'dashboard', auth: 'SIGNED_IN' }],
    ['/profile', { name: 'profile', auth: 'SIGNED_IN' }],
    ['/staff/1', { name: 'staffHome', auth: 'ADMIN' }],
    ['/staff/1/profile', { name: 'serverProfile', auth: 'STAFF' }],
    ['/staff/1/settings', { name: 'settings', auth: 'ADMIN' }],
    ['/staff/1/settings/s-1', { name: 'subject', auth: 'ADMIN' }],
    ['/staff/1/panels', { name: 'panels', auth: 'ADMIN' }],
    ['/staff/1/whitelabel', { name: 'whitelabel', auth: 'ADMIN' }],
    ['/staff/1/api-key', { name: 'apiKey', auth: 'ADMIN' }],
    ['/staff/1/webhooks', { name: 'webhooks', auth: 'ADMIN' }],
    ['/staff/1/premium', { name: 'premium', auth: 'ADMIN' }],
    ['/staff/1/premium/cancel', { name: 'premiumCancel', auth: 'ADMIN' }],
    ['/staff/1/premium/update/success', { name: 'premiumUpdateSuccess', auth: 'ADMIN' }],
    ['/staff/1/premium/success', { name: 'premiumSuccess', auth: 'ADMIN' }],
    ['/staff/1/tickets', { name: 'tickets', auth: 'STAFF' }],
    ['/staff/1/tickets/t-1', { name: 'ticket', auth: 'STAFF', preserveScroll: true }],
    ['/tickets', { name: 'myTickets', auth: 'SIGNED_IN' }],
    ['/tickets/t-1', { name: 'myTicket', auth: 'SIGNED_IN', preserveScroll: true }],
    ['/invite_callback', { name: 'inviteCallback', auth: 'open' }],
    ['/servers/1/stats', { name: 'publicServerStats', auth: 'open' }],
    ['/callback', { name: 'callback', auth: 'NOT_AUTHENTICATED' }],
    ['/login', { name: 'login', auth: 'NOT_AUTHENTICATED' }],
    ['/no/such/page', { name: 'notFound', auth: 'open' }],
  ];

  it.each(table)('%s is %o', (path, handle) => {
    const matches = matchRoutes(routes, path) ?? [];
    const leaf = matches.at(-1)?.route;
    expect(leaf?.handle).toEqual(handle);
    expect(leaf?.id).toBe(handle.name);
  });

  it('guards every screen that is not open with a loader, on the screen’s own route', () => {
    const unguarded: string[] = [];
    const visit = (list: RouteObject[]) => {
      for (const route of list) {
        const screen = route.lazy !== undefined || route.Component !== undefined;
        const auth = isRouteHandle(route.handle) ? route.handle.auth : undefined;
        // The callback's loader comes with its module and guards first.
        if (screen && auth && auth !== 'open' && !route.loader && route.id !== 'callback') unguarded.push(String(route.id));
        if (route.children) visit(route.children);
      }
    };
    visit(routes);
    expect(unguarded).toEqual([]);
  });

  it('loads a screen for every route that shows one', async () => {
    const lazyRoutes: string[] = [];
    const visit = async (list: RouteObject[]) => {
      for (const route of list) {
        if (typeof route.lazy === 'function') {
          const loaded = await route.lazy();
          expect(loaded.element ?? loaded.Component, String(route.id)).toBeTruthy();
          lazyRoutes.push(String(route.id));
        }
        if (route.children) await visit(route.children);
      }
    };
    await visit(routes);
    // Every route but the signed-in shell's, which comes with the entry (see router.tsx).
    expect(lazyRoutes).toHaveLength(22);
    expect(Object.keys(SCREENS)).toHaveLength(16);
  });
});

/** A small app with the real root layout, the route names of SPEC §2 and guard loaders. */
function renderShellless(initialPath: string) {
  startApi();
  const page = (name: RouteHandle['name'], auth: RouteHandle['auth'], extra: Partial<RouteHandle> = {}) => {
    const handle: RouteHandle = { name, auth, ...extra };
    return { id: name, handle, ...(auth === 'open' ? {} : { loader: guardRoute(handle) }), element: <h1>{name}</h1> };
  };
  const tree: RouteObject[] = [
    {
      id: 'root',
      element: <RootLayout />,
      children: [
        { path: '/invite_callback', ...page('inviteCallback', 'open') },
        { path: '/profile', ...page('profile', 'SIGNED_IN') },
        {
          path: '/tickets',
          id: 'myTicketsArea',
          element: <Outlet />,
          children: [
            { index: true, ...page('myTickets', 'SIGNED_IN') },
            { path: ':ticketId', ...page('myTicket', 'SIGNED_IN', { preserveScroll: true }) },
          ],
        },
      ],
    },
  ];
  const router = createMemoryRouter(tree, { initialEntries: [initialPath] });
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

async function storeSession(user: BearerUser, verified = false) {
  localStorage.setItem('auth', JSON.stringify({ state: { token: 'tok-1', user }, version: 1 }));
  await useAuthStore.persist.rehydrate();
  useAuthStore.setState({ verified });
}

describe('navigation (SPEC §2)', () => {
  const scrollTo = vi.fn();
  beforeEach(() => {
    scrollTo.mockClear();
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
  });
  afterEach(() => {
    window.scrollTo = () => {};
  });

  it('scrolls to the top on a new screen, not for the same path, nor between a list and its tickets', async () => {
    await storeSession(testUser(), true);
    const router = renderShellless('/profile');
    await screen.findByRole('heading', { name: 'profile' });
    const go = async (path: string, name: string) => {
      scrollTo.mockClear();
      await act(() => router.navigate(path));
      await screen.findByRole('heading', { name });
    };

    await go('/tickets', 'myTickets');
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    await go('/tickets?page=2', 'myTickets');
    expect(scrollTo).not.toHaveBeenCalled();
    await go('/tickets/5', 'myTicket');
    expect(scrollTo).not.toHaveBeenCalled();
    await go('/tickets/6', 'myTicket');
    expect(scrollTo).not.toHaveBeenCalled();
    await go('/tickets', 'myTickets');
    expect(scrollTo).not.toHaveBeenCalled();
    await go('/profile', 'profile');
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('remembers the route before the current one', async () => {
    await storeSession(testUser(), true);
    const router = renderShellless('/profile');
    await screen.findByRole('heading', { name: 'profile' });
    expect(useNavigationStore.getState()).toMatchObject({ routeName: 'profile', previousRouteName: null });
    await act(() => router.navigate('/tickets/3'));
    await screen.findByRole('heading', { name: 'myTicket' });
    expect(useNavigationStore.getState()).toMatchObject({ routeName: 'myTicket', previousRouteName: 'profile' });
    expect(leafHandle(router.state.matches.map((match) => ({ handle: match.route.handle })))?.name).toBe('myTicket');
  });

  it('does not refresh the session on /invite_callback, and does once the user goes on', async () => {
    const user = testUser();
    await storeSession(user);
    const { calls } = mockFetch(() => json(user));
    const router = renderShellless('/invite_callback');
    await screen.findByRole('heading', { name: 'inviteCallback' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);

    await act(() => router.navigate('/profile'));
    await screen.findByRole('heading', { name: 'profile' });
    await waitFor(() => expect(calls.map((call) => call.url)).toEqual(['/api/authentication/user/refresh']));
  });
});

describe('the signed-in shell', () => {
  const OWNED = '200000000000000001';
  const STAFFED = '200000000000000002';
  const server = (user: BearerUser) =>
    mockFetch((request: Recorded) => {
      const details = /\/api\/server\/servers\/(\d+)$/.exec(request.url);
      if (details) {
        return json({ serverId: details[1], name: 'A server', iconUrl: null, active: true, subscription: 'free', bannerUrl: null, ownerId: '1', memberCount: 5 });
      }
      if (request.url.endsWith('/user/refresh')) return json(user);
      return json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });
    });

  beforeEach(() => useRecentServersStore.setState({ users: {} }));

  it('has a skip link, a header, the navigation and the main landmark', async () => {
    const user = testUser();
    await storeSession(user, true);
    server(user);
    renderApp('/profile');
    expect(await screen.findByRole('banner', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    const main = screen.getByRole('main');
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip.getAttribute('href')).toBe(`#${main.id}`);
    act(() => skip.click());
    expect(document.activeElement).toBe(main);
    expect(screen.getByRole('button', { name: 'Show or hide the menu' }).getAttribute('aria-controls')).toBe(
      screen.getByRole('navigation', { name: 'Main' }).id,
    );
  });

  it('loads a server on entering it, adds it to the recent servers, and discards the caches on switching', async () => {
    const user = testUser();
    await storeSession(user, true);
    const { calls } = server(user);
    const { router } = renderApp(`/staff/${OWNED}/panels`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/staff/${OWNED}/panels`), { timeout: 5000 });
    await waitFor(() => expect(calls.some((call) => call.url === `/api/server/servers/${OWNED}`)).toBe(true));
    expect(serverCache.getState().serverId).toBe(OWNED);
    serverCache.setState({ entries: { ...serverCache.getState().entries, roles: { status: 'loaded', data: [], error: false } } });

    await act(() => router.navigate(`/staff/${STAFFED}/tickets`));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/staff/${STAFFED}/tickets`));
    expect(serverCache.getState().serverId).toBe(STAFFED);
    expect(serverCache.getState().entries.roles.status).toBe('not loaded');
    await waitFor(() => expect(calls.some((call) => call.url === `/api/server/servers/${STAFFED}`)).toBe(true));

    await act(() => router.navigate(`/staff/${OWNED}/settings`));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/staff/${OWNED}/settings`));
    expect(useRecentServersStore.getState().users[user.userId]).toEqual({
      recent: [OWNED, STAFFED],
      visits: { [OWNED]: 2, [STAFFED]: 1 },
    });
    const stored = JSON.parse(localStorage.getItem('recentServers') ?? '{}') as { state?: unknown };
    expect(stored.state).toEqual({ users: { [user.userId]: { recent: [OWNED, STAFFED], visits: { [OWNED]: 2, [STAFFED]: 1 } } } });
  });

  it('fades in a new screen but not a ticket opened from its list', async () => {
    const user = testUser();
    await storeSession(user, true);
    server(user);
    const { router } = renderApp('/profile');
    const content = async () => {
      await waitFor(() => expect(document.querySelector('[data-screen]')).not.toBeNull());
      const element = document.querySelector<HTMLElement>('[data-screen]');
      return { screen: element?.dataset.screen, fade: element?.dataset.fade };
    };
    expect(await content()).toEqual({ screen: '/profile', fade: 'a' });
    await act(() => router.navigate('/tickets'));
    await waitFor(async () => expect(await content()).toEqual({ screen: '/tickets', fade: 'b' }));
    await act(() => router.navigate('/tickets/9'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tickets/9'));
    expect(await content()).toEqual({ screen: '/tickets', fade: 'b' });
  });

  it("keeps a server's ticket list mounted while one of its tickets is open, in the app's own routes", async () => {
    const user = testUser();
    await storeSession(user, true);
    const item = {
      ticketId: 't1',
      number: 3,
      name: 'broken-login',
      author: user.userId,
      server: { serverId: OWNED, name: 'A server', iconUrl: null },
      subject: { subjectId: 's1', name: 'Help' },
      createdAt: '2025-03-01T10:00:00.000Z',
      state: 'PendingStaff',
      assignee: null,
      closed: null,
      users: [],
    };
    mockFetch((request: Recorded) => {
      const path = request.url.split('?')[0];
      if (path === `/api/server/servers/${OWNED}`) {
        return json({ serverId: OWNED, name: 'A server', iconUrl: null, active: true, subscription: 'free', bannerUrl: null, ownerId: '1', memberCount: 5 });
      }
      if (path === `/api/support/servers/${OWNED}/tickets`) {
        return json({ page: 1, maxPage: 1, elements: [{ ...item, highlights: [], lastMessage: null, lastActivity: item.createdAt, attendees: [] }] });
      }
      if (path === `/api/support/servers/${OWNED}/tickets/t1`) return json({ ...item, messages: [], members: [], templateAnswers: [] });
      return json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });
    });
    const { router } = renderApp(`/staff/${OWNED}/tickets?active=1`);
    const table = await screen.findByRole('table', undefined, { timeout: 5000 });
    await act(() => screen.getByRole('link', { name: 'broken-login' }).click());
    expect(await screen.findByRole('heading', { level: 1, name: 'Ticket #3' })).toBeTruthy();
    expect(router.state.location.search).toBe('?active=1');
    expect(screen.queryByRole('table')).toBeNull();
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('heading', { level: 1, name: 'Tickets' })).toBeTruthy();
    expect(screen.getByRole('table')).toBe(table);
  });

  it('denies a member a staff screen typed in directly, and lands on the Dashboard', async () => {
    const user = testUser();
    await storeSession(user, true);
    server(user);
    const { router } = renderApp('/staff/200000000000000003/tickets');
    // Toasts load their library with the first one: in a cold test run that takes a moment.
    expect(await screen.findByText('You do not have the required permissions to access this page', undefined, { timeout: 3000 })).toBeTruthy();
    // The first load of the Dashboard's modules can take a while in a cold test run.
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 5000 });
  });
});
