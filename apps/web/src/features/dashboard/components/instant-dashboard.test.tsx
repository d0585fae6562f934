import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { useAuthStore } from '@/lib/auth-store';
import { INSTANT_DASHBOARD_KEY } from '@/lib/instant-dashboard';
import html from '../../../../index.html?raw';
import { DashboardPage } from './dashboard-page';

/** The inline script of the app's page, as the browser runs it before the app's scripts arrive. */
const inlineScript = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join('\n');
const runInlineScript = () => {
  document.body.innerHTML = '<div id="root"></div>';
  new Function(inlineScript)();
  return document.getElementById('root')!;
};

const OWNED = '200000000000000001';
const STAFFED = '200000000000000002';

/** Draws the Dashboard once, as a signed-in user's visit does, which keeps what it drew. */
async function visitDashboard() {
  signIn(testUser());
  mockFetch((request) => (request.url.endsWith('/login/config') ? json({ clientId: '1', authorizeUrl: 'https://x/', scope: 'identify', responseType: 'code', prompt: 'none' }) : json([])));
  renderPage(<DashboardPage />);
  await screen.findByRole('link', { name: 'Open dashboard for Analytical Engine' });
  cleanup();
}

describe('the instant server list', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    document.body.innerHTML = '';
    document.documentElement.lang = 'en';
  });

  it("draws the list the app drew last, with the same links, before the app's scripts run", async () => {
    await visitDashboard();
    const root = runInlineScript();

    const card = within(root.querySelector<HTMLElement>(`[data-server-id="${OWNED}"]`)!);
    expect(card.getByRole('heading', { name: 'Analytical Engine' })).toBeTruthy();
    expect(card.getByRole('link', { name: 'Open dashboard for Analytical Engine' }).getAttribute('href')).toBe(`/staff/${OWNED}`);
    expect(card.getByRole('link', { name: 'View tickets of Analytical Engine' }).getAttribute('href')).toBe(`/staff/${OWNED}/tickets`);
    // A staff member's card has no server dashboard, as in the app.
    const staffed = within(root.querySelector<HTMLElement>(`[data-server-id="${STAFFED}"]`)!);
    expect(staffed.queryByRole('link', { name: /Open dashboard/ })).toBeNull();
    expect(within(root).getByRole('heading', { level: 1, name: 'Your servers' })).toBeTruthy();
  });

  it('draws nothing for a signed-out visitor, after a sign-out, or for another user than the one it was drawn for', async () => {
    await visitDashboard();
    const snapshot = localStorage.getItem(INSTANT_DASHBOARD_KEY);
    expect(snapshot).not.toBeNull();

    useAuthStore.setState({ user: { ...testUser(), userId: '100000000000000999' } });
    expect(runInlineScript().childElementCount).toBe(0);

    await useAuthStore.getState().logout();
    expect(localStorage.getItem(INSTANT_DASHBOARD_KEY)).toBeNull();
    localStorage.setItem(INSTANT_DASHBOARD_KEY, snapshot!);
    expect(runInlineScript().childElementCount).toBe(0);
  });

  it('never draws a link that leaves the app, and shows names as text', async () => {
    signIn(testUser());
    localStorage.setItem(
      INSTANT_DASHBOARD_KEY,
      JSON.stringify({
        userId: testUser().userId,
        lang: 'de',
        dir: 'ltr',
        brand: 'Ticket Dashboard',
        title: 'Deine Server',
        sections: [{ title: 'Mit Bot', servers: [{ id: OWNED, name: '<img src=x onerror=alert(1)>', links: [{ href: 'https://evil.example/', text: 'Go', label: null }, { href: '//evil.example/', text: 'Go too', label: null }, { href: `/staff/${OWNED}`, text: 'Öffnen', label: null }] }] }],
      }),
    );
    const root = runInlineScript();
    expect(document.documentElement.lang).toBe('de');
    expect([...root.querySelectorAll('a')].map((link) => link.getAttribute('href'))).toEqual(['/', `/staff/${OWNED}`]);
    expect(root.querySelector('img')).toBeNull();
    expect(within(root).getByRole('heading', { level: 3 }).textContent).toBe('<img src=x onerror=alert(1)>');
  });
});
