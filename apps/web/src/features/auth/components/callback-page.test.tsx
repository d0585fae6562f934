import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { json, mockFetch } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const rememberLogin = (state: string, next = '/') => sessionStorage.setItem('login', JSON.stringify({ state, next }));

describe('/callback', () => {
  it("shows 'state does not match' and never sends the code when the state is not ours", async () => {
    rememberLogin('expected-state');
    const { fetchMock } = mockFetch(() => json({}));
    renderApp('/callback?code=c0de&state=forged-state');
    expect(await screen.findByText('state does not match')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Sign-in failed' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/login');
    // Nothing goes to the authentication service (the screen's texts may come from the translations service).
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/authentication/'))).toEqual([]);
    expect(useAuthStore.getState().token).toBeNull();
  });

  it('explains a refusal on the platform and offers to try again', async () => {
    rememberLogin('s1', '/profile');
    mockFetch(() => json({}));
    renderApp('/callback?error=access_denied&state=s1');
    expect(await screen.findByText(/You cancelled sign-in on Discord/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/login?next=%2Fprofile');
  });

  it('exchanges the code when the state matches, then goes where the user was headed', async () => {
    rememberLogin('s1', '/');
    const user = testUser();
    const { calls } = mockFetch((request) =>
      request.url.endsWith('/login/config')
        ? json({ inviteUrl: 'https://discord.example/oauth2/authorize?client_id=1&scope=bot' })
        : json({ user, token: 'tok-new' }),
    );
    const { router } = renderApp('/callback?code=c0de&state=s1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your servers' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/authentication/user' });
    expect(calls[0]?.body).toEqual({ code: 'c0de', redirectUri: `${window.location.origin}/callback` });
    expect(useAuthStore.getState().token).toBe('tok-new');
  });
});
