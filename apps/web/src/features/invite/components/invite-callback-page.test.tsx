import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { json, mockFetch } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { InviteCallbackPage } from './invite-callback-page';

const ERROR = 'An error occurred while trying to join the server.';
const JOINED = '300000000000000001';

/** The user after the invite: Countess Lounge now has the bot. */
const afterInvite = () => {
  const user = testUser();
  return testUser({
    servers: [
      ...user.servers,
      { integrationType: 'Discord', serverId: JOINED, name: 'Countess Lounge', role: 'Admin', subjects: [] },
    ],
    uServers: user.uServers.filter((server) => server.serverId !== JOINED),
  });
};

/** The page's alert (toasts of earlier tests may still be on screen, alerts too). */
const errorAlert = async () => (await screen.findByText(ERROR)).closest('[role="alert"]')?.textContent;

describe('InviteCallbackPage', () => {
  it('refreshes the servers past the cache, then opens the new server for its admin', async () => {
    signIn(testUser());
    const { calls } = mockFetch(() => json(afterInvite()));
    const { router } = renderPage(<InviteCallbackPage />, {
      pattern: '/invite_callback',
      path: `/invite_callback?code=abc&guild_id=${JOINED}&permissions=8`,
    });

    await waitFor(() => expect(router.state.location.pathname).toBe(`/staff/${JOINED}`));
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['POST /api/authentication/user/refresh/bypass']);
    expect(useAuthStore.getState().user?.servers.some((server) => server.serverId === JOINED)).toBe(true);
    expect(await screen.findByText('The bot joined Countess Lounge')).toBeTruthy();
  });

  it('sends someone who is not an admin there to the dashboard', async () => {
    signIn(testUser());
    const user = afterInvite();
    mockFetch(() => json({ ...user, servers: user.servers.map((server) => ({ ...server, role: 'Member' })) }));
    const { router } = renderPage(<InviteCallbackPage />, {
      pattern: '/invite_callback',
      path: `/invite_callback?code=abc&guild_id=${JOINED}`,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('says exactly what went wrong when the platform answers with an error, and calls nothing', async () => {
    signIn(testUser());
    const { fetchMock } = mockFetch(() => json(afterInvite()));
    renderPage(<InviteCallbackPage />, {
      pattern: '/invite_callback',
      path: '/invite_callback?error=access_denied&error_description=The+resource+owner+denied',
    });

    expect(await errorAlert()).toBe(ERROR);
    expect(screen.getByRole('link', { name: 'Back to the dashboard' }).getAttribute('href')).toBe('/');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says the same when the refresh fails', async () => {
    signIn(testUser());
    mockFetch(() => json({ statusCode: 429, error: 'Too Many Requests', code: 'rate_limited', message: 'x' }, { status: 429 }));
    const { router } = renderPage(<InviteCallbackPage />, {
      pattern: '/invite_callback',
      path: `/invite_callback?code=abc&guild_id=${JOINED}`,
    });
    expect(await errorAlert()).toBe(ERROR);
    expect(router.state.location.pathname).toBe('/invite_callback');
  });

  it('says the same without a server to go to, or without a session', async () => {
    mockFetch(() => json(afterInvite()));
    renderPage(<InviteCallbackPage />, { pattern: '/invite_callback', path: `/invite_callback?guild_id=${JOINED}` });
    expect(await errorAlert()).toBe(ERROR);
  });
});
