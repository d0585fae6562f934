import { render, screen, waitFor, within } from '@testing-library/react';
import type { PlanType, ServerRole } from '@ticket/contracts';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import userEvent from '@testing-library/user-event';
import { useTourStore } from '@/features/onboarding/tour-store';
import { useAuthStore } from '@/lib/auth-store';
import { createQueryClient } from '@/lib/query-client';
import type { RouteName } from '@/lib/routes';
import { json, mockFetch } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { startApi } from '@/test/render';
import { AppProviders } from '../providers';
import { AppNavbar } from './app-navbar';
import { buildMenu, type MenuLabel } from './menu-items';

const SERVER = '700000000000000001';
const TOUR = ['Show the tour'];
const ALL: MenuLabel[] = ['dashboard', 'tickets', 'myTickets', 'settings', 'panels', 'whitelabel', 'apiKey', 'webhooks', 'premium', 'myProfile', 'myServers'];
const labelsOf = (menu: ReturnType<typeof buildMenu>) =>
  [...menu.top, ...(menu.server?.items ?? []), ...menu.personal].map((item) => item.label);

describe('buildMenu: each item only for whom it applies', () => {
  it('outside staff mode: Dashboard, My Tickets, My Profile, My Servers', () => {
    expect(labelsOf(buildMenu({ serverId: undefined, role: undefined, premiumLevel: 0 }))).toEqual([
      'dashboard',
      'myTickets',
      'myProfile',
      'myServers',
    ]);
  });

  const cases: [ServerRole | undefined, 0 | 1 | 2, MenuLabel[]][] = [
    ['Owner', 0, ['dashboard', 'tickets', 'settings', 'panels', 'premium', 'myTickets', 'myProfile', 'myServers']],
    ['Owner', 2, ['dashboard', 'tickets', 'settings', 'panels', 'whitelabel', 'apiKey', 'webhooks', 'premium', 'myTickets', 'myProfile', 'myServers']],
    ['Admin', 1, ['dashboard', 'tickets', 'settings', 'panels', 'premium', 'myTickets', 'myProfile', 'myServers']],
    ['Admin', 2, ['dashboard', 'tickets', 'settings', 'panels', 'whitelabel', 'apiKey', 'webhooks', 'premium', 'myTickets', 'myProfile', 'myServers']],
    ['Staff', 2, ['dashboard', 'tickets', 'myTickets', 'myProfile', 'myServers']],
    ['Member', 2, ['dashboard', 'myTickets', 'myProfile', 'myServers']],
    [undefined, 2, ['dashboard', 'myTickets', 'myProfile', 'myServers']],
  ];
  it.each(cases)('on a server as %s, premium level %i', (role, premiumLevel, expected) => {
    const menu = buildMenu({ serverId: SERVER, role, premiumLevel });
    expect(labelsOf(menu)).toEqual(expected);
    for (const label of ALL.filter((l) => !expected.includes(l))) expect(labelsOf(menu)).not.toContain(label);
  });

  it('links the server to its dashboard for admins and to its profile for staff', () => {
    expect(buildMenu({ serverId: SERVER, role: 'Admin', premiumLevel: 0 }).server?.home).toBe(`/staff/${SERVER}`);
    expect(buildMenu({ serverId: SERVER, role: 'Staff', premiumLevel: 0 }).server?.home).toBe(`/staff/${SERVER}/profile`);
    const menu = buildMenu({ serverId: SERVER, role: 'Owner', premiumLevel: 2 });
    expect(Object.fromEntries([...menu.top, ...(menu.server?.items ?? []), ...menu.personal].map((i) => [i.label, i.to]))).toEqual({
      dashboard: '/',
      tickets: `/staff/${SERVER}/tickets`,
      settings: `/staff/${SERVER}/settings`,
      panels: `/staff/${SERVER}/panels`,
      whitelabel: `/staff/${SERVER}/whitelabel`,
      apiKey: `/staff/${SERVER}/api-key`,
      webhooks: `/staff/${SERVER}/webhooks`,
      premium: `/staff/${SERVER}/premium`,
      myTickets: '/tickets',
      myProfile: '/profile',
      myServers: '/',
    });
  });
});

/** The navigation menu at `path`, for a user with `role` on a server on `plan`. */
function renderNavbar(path: string, routeName: RouteName, role: ServerRole | null, plan: PlanType = 'free') {
  startApi();
  useAuthStore.setState({
    token: 'tok',
    verified: true,
    user: testUser({
      servers: role ? [{ integrationType: 'Discord', serverId: SERVER, name: 'Lovelace Lab', role, subjects: [] }] : [],
    }),
  });
  mockFetch(() =>
    json({ serverId: SERVER, name: 'Lovelace Lab', iconUrl: null, active: true, subscription: plan, bannerUrl: null, ownerId: '1', memberCount: 3 }),
  );
  const element = (
    <nav aria-label="Main">
      <AppNavbar routeName={routeName} />
    </nav>
  );
  const router = createMemoryRouter(
    [
      { path: '/staff/:serverId/*', element },
      { path: '*', element },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return within(screen.getByRole('navigation', { name: 'Main' }));
}

/** The text of an element as read out: without what is hidden from assistive technology. */
const spoken = (element: HTMLElement) => {
  const copy = element.cloneNode(true) as HTMLElement;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return copy.textContent;
};
const visibleLabels = (nav: ReturnType<typeof renderNavbar>) =>
  [...nav.getAllByRole('link'), ...nav.getAllByRole('button')].map(spoken);

describe('the navigation menu', () => {
  it('shows exactly the SPEC labels an Enterprise owner gets, marking the current one', async () => {
    const nav = renderNavbar(`/staff/${SERVER}/settings`, 'settings', 'Owner', 'enterprise');
    expect(await nav.findByRole('link', { name: 'Whitelabel' })).toBeTruthy();
    expect(visibleLabels(nav)).toEqual([
      'Dashboard',
      'Lovelace Lab',
      'Tickets',
      'Settings',
      'Panels',
      'Whitelabel',
      'API Key',
      'Webhooks',
      'Premium',
      'My Tickets',
      'My Profile',
      'My Servers',
      ...TOUR,
      'Logout',
    ]);
    expect(nav.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
    expect(nav.getAllByRole('link').filter((link) => link.getAttribute('aria-current'))).toHaveLength(1);
    expect(nav.getByRole('link', { name: 'Lovelace Lab' }).getAttribute('href')).toBe(`/staff/${SERVER}`);
    expect(nav.getByRole('list', { name: 'Lovelace Lab' })).toBeTruthy();
  });

  it('gives an admin of a server without Enterprise no Whitelabel, no API Key and no Webhooks', async () => {
    const nav = renderNavbar(`/staff/${SERVER}`, 'staffHome', 'Admin', 'premium');
    await waitFor(() => expect(nav.getByRole('link', { name: 'Premium' })).toBeTruthy());
    // The plan has been loaded by now: still no Whitelabel.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(nav.queryByRole('link', { name: 'Whitelabel' })).toBeNull();
    expect(nav.queryByRole('link', { name: 'API Key' })).toBeNull();
    expect(nav.queryByRole('link', { name: 'Webhooks' })).toBeNull();
    expect(nav.getByRole('link', { name: 'Lovelace Lab' }).getAttribute('aria-current')).toBe('page');
  });

  it('gives staff Tickets and the server profile, and nothing of the admin', async () => {
    const nav = renderNavbar(`/staff/${SERVER}/tickets/5`, 'ticket', 'Staff', 'enterprise');
    expect(await nav.findByRole('link', { name: 'Tickets' })).toBeTruthy();
    expect(nav.getByRole('link', { name: 'Tickets' }).getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('link', { name: 'Lovelace Lab' }).getAttribute('href')).toBe(`/staff/${SERVER}/profile`);
    for (const label of ['Settings', 'Panels', 'Whitelabel', 'API Key', 'Webhooks', 'Premium']) expect(nav.queryByRole('link', { name: label })).toBeNull();
  });

  it('opens the welcome tour from "Show the tour"', async () => {
    useTourStore.setState({ isOpen: false, step: 2 });
    const nav = renderNavbar('/profile', 'profile', 'Owner');
    await userEvent.click(nav.getByRole('button', { name: 'Show the tour' }));
    expect(useTourStore.getState()).toMatchObject({ isOpen: true, step: 0 });
    useTourStore.setState({ isOpen: false });
  });

  it('outside staff mode shows the personal items only', () => {
    const nav = renderNavbar('/tickets', 'myTickets', 'Owner', 'enterprise');
    expect(visibleLabels(nav)).toEqual(['Dashboard', 'My Tickets', 'My Profile', 'My Servers', ...TOUR, 'Logout']);
    expect(nav.getByRole('link', { name: 'My Tickets' }).getAttribute('aria-current')).toBe('page');
  });
});
