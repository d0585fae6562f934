// The dashboard as the whole app serves it at `/`: shell, session refresh and sign-out included.
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BearerUser } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { json, mockFetch, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

// The whole app loads its screens, toasts and dialogs lazily: under a full parallel run the first
// import of each can take longer than testing-library's 1 s default.
configure({ asyncUtilTimeout: 5000 });

const INVITE = 'https://discord.example/oauth2/authorize?client_id=123&scope=bot';
const loginConfig = {
  clientId: '123',
  authorizeUrl: 'https://discord.example/oauth2/authorize',
  scope: 'identify guilds',
  responseType: 'code',
  prompt: 'none',
  inviteUrl: INVITE,
};

/** A user signed in on an earlier visit: what the persisted store holds in localStorage. */
async function storeSession(user: BearerUser) {
  localStorage.setItem('auth', JSON.stringify({ state: { token: 'tok-1', user }, version: 1 }));
  await useAuthStore.persist.rehydrate();
}

/** The server: login config, a session refresh that confirms the stored user, and whatever `extra` answers. */
const server = (user: BearerUser, extra?: (request: Recorded) => Response | undefined) =>
  mockFetch((request) => {
    const answer = extra?.(request);
    if (answer) return answer;
    if (request.url.endsWith('/login/config')) return json(loginConfig);
    if (request.url.endsWith('/user/refresh')) return json(user);
    if (request.method === 'DELETE') return new Response(null, { status: 204 });
    return json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });
  });

const card = (serverId: string) => {
  const element = document.querySelector<HTMLElement>(`[data-server-id="${serverId}"]`);
  if (!element) throw new Error(`no card for ${serverId}`);
  return element;
};

describe('/ (the user’s servers)', () => {
  it('lists the servers of a stored user as cards with the user’s role', async () => {
    const user = testUser();
    await storeSession(user);
    server(user);
    renderApp('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Your servers' })).toBeTruthy();
    const expected = [
      ['200000000000000001', 'Analytical Engine', 'Owner'],
      ['200000000000000002', 'Difference Club', 'Staff'],
      ['200000000000000003', 'Poetry Science', 'Member'],
      ['300000000000000001', 'Countess Lounge', 'Admin'],
      ['300000000000000002', 'Babbage Fans', 'Member'],
    ];
    for (const [serverId, name, role] of expected) {
      const view = within(card(serverId as string));
      expect(view.getByRole('heading', { name })).toBeTruthy();
      expect(view.getByText(role as string)).toBeTruthy();
    }
    expect(screen.getByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
  });

  it('offers Begin setup, preset to the server, only where the bot is missing and the user may add it', async () => {
    const user = testUser();
    await storeSession(user);
    server(user);
    renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Your servers' });

    const link = await within(card('300000000000000001')).findByRole('link', { name: 'Begin setup for Countess Lounge' });
    const href = new URL(link.getAttribute('href') ?? '');
    expect(href.searchParams.get('client_id')).toBe('123');
    expect(href.searchParams.get('guild_id')).toBe('300000000000000001');
    expect(href.searchParams.get('disable_guild_select')).toBe('true');
    expect(href.searchParams.get('response_type')).toBe('code');
    expect(href.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/invite_callback`);
    expect(within(card('300000000000000002')).queryByRole('link')).toBeNull();
    // Where the bot already is, there is nothing to set up: the card leads to the server instead.
    expect(within(card('200000000000000001')).queryByRole('link', { name: /Begin setup/ })).toBeNull();
    expect(within(card('200000000000000001')).getByRole('link', { name: 'Open dashboard for Analytical Engine' })).toBeTruthy();
  });

  it('Refresh Servers asks for fresh data and shows the new list', async () => {
    const user = testUser();
    await storeSession(user);
    const renamed = testUser({ servers: [{ ...user.servers[0]!, name: 'Analytical Engine II' }] });
    const { calls } = server(user, (request) => (request.url.endsWith('/refresh/bypass') ? json(renamed) : undefined));
    renderApp('/');

    await userEvent.click(await screen.findByRole('button', { name: 'Refresh Servers' }));
    expect(await screen.findByText('Servers refreshed')).toBeTruthy();
    expect(within(card('200000000000000001')).getByRole('heading', { name: 'Analytical Engine II' })).toBeTruthy();
    expect(calls.some((call) => call.url === '/api/authentication/user/refresh/bypass')).toBe(true);
  });

  it("Refresh Servers shows 'Too many requests' on a 429 and keeps the user signed in", async () => {
    const user = testUser();
    await storeSession(user);
    server(user, (request) =>
      request.url.endsWith('/refresh/bypass')
        ? json({ statusCode: 429, error: 'Too Many Requests', code: 'rate_limited', message: 'slow' }, {
            status: 429,
            headers: { 'Retry-After': '30' },
          })
        : undefined,
    );
    renderApp('/');

    await userEvent.click(await screen.findByRole('button', { name: 'Refresh Servers' }));
    expect(await screen.findByText('Too many requests')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Cool down - retry in \d+s/ })).toBeTruthy();
    expect(useAuthStore.getState().token).toBe('tok-1');
  });

  it("Refresh Servers shows 'Failed to refresh' on another error and signs the user out", async () => {
    const user = testUser();
    await storeSession(user);
    server(user, (request) =>
      request.url.endsWith('/refresh/bypass')
        ? json({ statusCode: 500, error: 'Internal Server Error', code: 'internal', message: 'oops' }, { status: 500 })
        : undefined,
    );
    const { router } = renderApp('/');

    await userEvent.click(await screen.findByRole('button', { name: 'Refresh Servers' }));
    expect(await screen.findByText('Failed to refresh')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(useAuthStore.getState().token).toBeNull();
  });

  it('Sign out ends the session and lands on /login', async () => {
    const user = testUser();
    await storeSession(user);
    const { calls } = server(user);
    const { router } = renderApp('/');

    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Sign in with Discord' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(calls.some((call) => call.method === 'DELETE' && call.url === '/api/authentication/user')).toBe(true);
    expect(useAuthStore.getState()).toMatchObject({ token: null, user: null });
  });

  it('sends a signed-out visitor to /login and remembers where they were going', async () => {
    server(testUser());
    // (At `/` itself a signed-out visitor gets the landing page instead: features/landing.)
    const { router } = renderApp('/tickets?tab=x');
    expect(await screen.findByRole('button', { name: 'Sign in with Discord' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/tickets?tab=x')}`);
  });

  it('confirms a stored session once, and signs out when the server no longer knows it', async () => {
    const user = testUser();
    await storeSession(user);
    server(user, (request) =>
      request.url.endsWith('/user/refresh')
        ? json({ statusCode: 401, error: 'Unauthorized', code: 'unauthorized', message: 'gone' }, { status: 401 })
        : undefined,
    );
    const { router } = renderApp('/');
    expect(await screen.findByRole('button', { name: 'Sign in with Discord' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });
});
