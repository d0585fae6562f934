import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { renderApp } from '@/test/render';

const loginConfig = {
  clientId: '123',
  authorizeUrl: 'https://discord.example/oauth2/authorize',
  scope: 'identify guilds',
  responseType: 'code',
  prompt: 'none',
  inviteUrl: 'https://discord.example/oauth2/authorize?client_id=123&scope=bot',
};

describe('/login', () => {
  afterEach(() => vi.restoreAllMocks());

  it('names the product, says what it does, notes the sandbox in demo mode, and starts sign-in', async () => {
    mockFetch(() => json(loginConfig));
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, origin: 'http://localhost:3000', assign });
    renderApp('/login?next=%2Fprofile');

    expect(await screen.findByRole('heading', { level: 1, name: 'Ticket Dashboard' })).toBeTruthy();
    expect(screen.getByText(/handle every ticket in one place/)).toBeTruthy();
    expect(screen.getByText(/sign-in goes through the local sandbox/)).toBeTruthy();

    const button = await screen.findByRole('button', { name: 'Sign in with Discord' });
    await vi.waitFor(() => expect(button.hasAttribute('data-loading')).toBe(false));
    await userEvent.click(button);
    expect(assign).toHaveBeenCalledTimes(1);
    const url = new URL(String(assign.mock.calls[0]?.[0]));
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:3000/callback');
    expect(JSON.parse(sessionStorage.getItem('login') ?? '{}')).toMatchObject({
      state: url.searchParams.get('state'),
      next: '/profile',
    });
  });

  it('says so when sign-in is unavailable, and can try again', async () => {
    // A 4xx, which the query client does not retry.
    mockFetch(() => json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'x' }, { status: 404 }));
    renderApp('/login');
    expect(await screen.findByText('Sign-in is not available right now.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
