import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BearerUser, ServerRole } from '@ticket/contracts';
import { useState } from 'react';
import { createMemoryRouter, Link, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { testUser } from '@/test/fixtures';
import { startApi } from '@/test/render';
import { useAuthStore } from '@/lib/auth-store';
import { createQueryClient } from '@/lib/query-client';
import type { AuthLevel, RouteHandle } from '@/lib/routes';
import { serverCache } from '@/lib/server-cache';
import { useRecentServersStore } from '@/lib/recent-servers';
import { AppProviders } from './providers';
import { RootLayout } from './layouts/root-layout';
import { decide, type GuardDecision, guardRoute } from './route-guards';

const SERVER = '900000000000000001';
const userWith = (role: ServerRole | null): BearerUser =>
  testUser({
    servers: role ? [{ integrationType: 'Discord', serverId: SERVER, name: 'Guarded', role, subjects: [] }] : [],
    // A server without the bot gives no staff mode, whatever the role there.
    uServers: [{ integrationType: 'Discord', serverId: SERVER, name: 'Guarded', role: 'Owner' }],
  });

describe('decide(route, user, from): SPEC §6', () => {
  const roles: (ServerRole | null)[] = ['Owner', 'Admin', 'Staff', 'Member', null];
  const allowed: Record<'STAFF' | 'ADMIN', (ServerRole | null)[]> = {
    STAFF: ['Owner', 'Admin', 'Staff'],
    ADMIN: ['Owner', 'Admin'],
  };
  const starts: [string, string | null, boolean][] = [
    ['the first load', null, true],
    ['the root', '/', true],
    ['the root with a query', '/?tab=2', true],
    ['another screen', '/profile', false],
    ['another server', '/staff/1/tickets', false],
  ];

  describe.each(starts)('a navigation starting at %s', (_, from, atRoot) => {
    it('lets anyone through an open route', () => {
      expect(decide({ auth: 'open' }, null, from)).toBe('allow');
      expect(decide({ auth: 'open' }, userWith('Member'), from)).toBe('allow');
    });

    it('lets only the signed-out through a NOT_AUTHENTICATED route', () => {
      expect(decide({ auth: 'NOT_AUTHENTICATED' }, null, from)).toBe('allow');
      expect(decide({ auth: 'NOT_AUTHENTICATED' }, userWith('Owner'), from)).toBe('already-signed-in');
    });

    it.each<AuthLevel>(['SIGNED_IN', 'STAFF', 'ADMIN'])('sends the signed-out to sign in from a %s route', (auth) => {
      expect(decide({ auth, serverId: SERVER }, null, from)).toBe('login');
    });

    it.each(roles)('lets any signed-in user (role %s) through a SIGNED_IN route', (role) => {
      expect(decide({ auth: 'SIGNED_IN' }, userWith(role), from)).toBe('allow');
    });

    for (const auth of ['STAFF', 'ADMIN'] as const) {
      it.each(roles)(`${auth}: role %s`, (role) => {
        const expected: GuardDecision = allowed[auth].includes(role)
          ? 'allow'
          : atRoot
            ? 'deny-to-dashboard'
            : 'deny-cancel';
        expect(decide({ auth, serverId: SERVER }, userWith(role), from)).toBe(expected);
      });
    }
  });

  it('decides by the route’s own server', () => {
    expect(decide({ auth: 'ADMIN', serverId: '1' }, userWith('Owner'), '/profile')).toBe('deny-cancel');
    expect(decide({ auth: 'STAFF', serverId: undefined }, userWith('Owner'), null)).toBe('deny-to-dashboard');
  });
});

/** A counter that would start again from 0 if its screen were mounted anew. */
function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <>
      <h1>{label}</h1>
      <button type="button" onClick={() => setCount((value) => value + 1)}>
        Clicked {count}
      </button>
      <Link to={`/staff/${SERVER}/settings`}>to settings</Link>
      <Link to={`/staff/${SERVER}/tickets`}>to tickets</Link>
    </>
  );
}

const guarded = (name: RouteHandle['name'], auth: AuthLevel, path: string, label: string): RouteObject => {
  const handle: RouteHandle = { name, auth };
  return { id: name, path, handle, loader: guardRoute(handle), element: <Counter label={label} /> };
};

/** A small app with the real root layout and guard loaders. */
function renderGuarded(user: BearerUser | null, ...initialEntries: string[]) {
  startApi();
  if (user) useAuthStore.setState({ token: 'tok', user, verified: true });
  const routes: RouteObject[] = [
    {
      id: 'root',
      element: <RootLayout />,
      children: [
        {
          id: 'signedIn',
          handle: { name: 'signedIn', auth: 'SIGNED_IN' },
          loader: guardRoute({ auth: 'SIGNED_IN' }),
          element: <Outlet />,
          children: [
            guarded('dashboard', 'SIGNED_IN', '/', 'Dashboard'),
            guarded('profile', 'SIGNED_IN', '/profile', 'Profile'),
            guarded('settings', 'ADMIN', '/staff/:serverId/settings', 'Settings'),
            guarded('tickets', 'STAFF', '/staff/:serverId/tickets', 'Tickets'),
          ],
        },
        { id: 'login', path: '/login', element: <h1>Sign in</h1> },
      ],
    },
  ];
  const router = createMemoryRouter(routes, { initialEntries });
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

const NO_PERMISSION = 'You do not have the required permissions to access this page';
/** Toasts load their library with the first one: in a cold test run that takes a moment. */
const findToast = (text: string) => screen.findByText(text, undefined, { timeout: 3000 });

describe('guard loaders', () => {
  beforeEach(() => useRecentServersStore.setState({ users: {} }));

  it('cancels a forbidden navigation: same screen, same state, same history, and says why', async () => {
    // Two entries: the Dashboard, then the profile on display.
    const router = renderGuarded(userWith('Staff'), '/', '/profile');
    await userEvent.click(await screen.findByRole('button', { name: 'Clicked 0' }));
    await userEvent.click(screen.getByRole('button', { name: 'Clicked 1' }));

    await userEvent.click(screen.getByRole('link', { name: 'to settings' }));
    expect(await findToast(NO_PERMISSION)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/profile');
    expect(router.state.navigation.state).toBe('idle');
    // Still the same mounted screen: its state survived.
    expect(screen.getByRole('heading', { name: 'Profile' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Clicked 2' })).toBeTruthy();
    // The server was not entered.
    expect(serverCache.getState().serverId).toBeNull();
    // Nothing was pushed: Back leads where it led before.
    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/');
  });

  it('lets the same user into a STAFF screen of that server, and enters the server', async () => {
    const router = renderGuarded(userWith('Staff'), '/profile');
    await userEvent.click(await screen.findByRole('link', { name: 'to tickets' }));
    expect(await screen.findByRole('heading', { name: 'Tickets' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/staff/${SERVER}/tickets`);
    expect(serverCache.getState().serverId).toBe(SERVER);
    expect(useRecentServersStore.getState().users[testUser().userId]?.recent).toEqual([SERVER]);
  });

  it('lands on the Dashboard when a forbidden screen is the first one', async () => {
    const router = renderGuarded(userWith('Member'), `/staff/${SERVER}/tickets`);
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(await findToast(NO_PERMISSION)).toBeTruthy();
    // Neither entered nor remembered as visited.
    expect(serverCache.getState().serverId).toBeNull();
    expect(useRecentServersStore.getState().users).toEqual({});
  });

  it('lands on the Dashboard when the forbidden navigation starts at the root', async () => {
    const router = renderGuarded(userWith('Staff'), '/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await act(() => router.navigate(`/staff/${SERVER}/settings`));
    expect(router.state.location.pathname).toBe('/');
    expect(await findToast(NO_PERMISSION)).toBeTruthy();
  });

  it('sends a signed-out visitor to sign in, remembering where they were going', async () => {
    const router = renderGuarded(null, `/staff/${SERVER}/tickets?page=2`);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent(`/staff/${SERVER}/tickets?page=2`)}`);
    expect(screen.queryByText(NO_PERMISSION)).toBeNull();
  });

  it('takes the user to the Dashboard when the screen on display is no longer allowed', async () => {
    const user = userWith('Owner');
    const router = renderGuarded(user, `/staff/${SERVER}/settings`);
    await screen.findByRole('heading', { name: 'Settings' });
    // Demoted meanwhile; the screen's data is loaded again.
    useAuthStore.setState({ user: userWith('Staff') });
    await act(() => router.revalidate());
    expect(router.state.location.pathname).toBe('/');
    expect(await findToast(NO_PERMISSION)).toBeTruthy();
  });
});
