import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SessionInfo } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { ProfilePage } from './profile-page';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const sessions: SessionInfo[] = [
  {
    id: '6f1c1a43-7a44-4c62-9a51-4f4f6b7b0c01',
    createdAt: '2025-03-01T10:00:00.000Z',
    lastUsedAt: '2025-03-02T11:00:00.000Z',
    expiresAt: '2025-04-01T10:00:00.000Z',
    userAgent: FIREFOX_WINDOWS,
    current: true,
  },
  {
    id: '0b8e9a9e-2f3d-4c55-8d1a-3c6a2f1d9e02',
    createdAt: '2025-02-01T10:00:00.000Z',
    lastUsedAt: '2025-02-20T08:30:00.000Z',
    expiresAt: '2025-03-03T10:00:00.000Z',
    userAgent: SAFARI_IPHONE,
    current: false,
  },
];

function server() {
  let live = [...sessions];
  const fetched = mockFetch((request) => {
    if (request.url === '/api/authentication/user/sessions') return json(live);
    const match = /\/user\/sessions\/([\w-]+)$/.exec(request.url);
    if (request.method === 'DELETE' && match) {
      live = live.filter((session) => session.id !== match[1]);
      return new Response(null, { status: 204 });
    }
    return json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });
  });
  return fetched;
}

const row = (id: string) => {
  const element = document.querySelector<HTMLElement>(`[data-session-id="${id}"]`);
  if (!element) throw new Error(`no session ${id}`);
  return within(element);
};

describe('ProfilePage', () => {
  it('shows who the user is, their servers with roles and the UI language', async () => {
    signIn(testUser());
    server();
    renderPage(<ProfilePage />, { pattern: '/profile' });

    expect(await screen.findByRole('heading', { level: 1, name: 'My Profile' })).toBeTruthy();
    expect(screen.getByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getByText('@ada')).toBeTruthy();
    expect(screen.getByText('100000000000000001')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy ID' })).toBeTruthy();

    const servers = screen.getByRole('region', { name: 'Servers and roles' });
    const withBot = within(servers).getByRole('list', { name: 'Servers with the bot' });
    const entries = within(withBot).getAllByRole('listitem');
    expect(entries).toHaveLength(3);
    for (const [index, [name, role]] of [
      ['Analytical Engine', 'Owner'],
      ['Difference Club', 'Staff'],
      ['Poetry Science', 'Member'],
    ].entries()) {
      const entry = within(entries[index] as HTMLElement);
      expect(entry.getByText(name as string)).toBeTruthy();
      expect(entry.getByText(role as string)).toBeTruthy();
    }
    expect(within(withBot).getByRole('link', { name: 'Analytical Engine' }).getAttribute('href')).toBe(
      '/staff/200000000000000001/profile',
    );
    const withoutBot = within(servers).getByRole('list', { name: 'Servers without the bot' });
    expect(within(withoutBot).getAllByRole('listitem')).toHaveLength(2);

    const language = screen.getByRole('region', { name: 'Language' });
    expect(within(language).getByText('The dashboard is shown in', { exact: false }).textContent).toBe(
      'The dashboard is shown in English',
    );
    expect((within(language).getByRole('combobox', { name: 'Dashboard language' }) as HTMLSelectElement).value).toBe(
      'en',
    );
  });

  it('lists the sessions with their browser and dates, marking this device', async () => {
    signIn(testUser());
    server();
    renderPage(<ProfilePage />, { pattern: '/profile' });

    const current = sessions[0]?.id ?? '';
    const other = sessions[1]?.id ?? '';
    await waitFor(() => expect(document.querySelector(`[data-session-id="${other}"]`)).not.toBeNull());
    expect(row(current).getByText('Firefox on Windows')).toBeTruthy();
    expect(row(current).getByText('This device')).toBeTruthy();
    // The session in use is signed out with the account menu, not from this list.
    expect(row(current).queryByRole('button')).toBeNull();
    expect(row(other).getByText('Safari on iOS')).toBeTruthy();
    expect(row(other).queryByText('This device')).toBeNull();
    expect(row(other).getByText(/Signed in .*2025/)).toBeTruthy();
    expect(row(other).getByText(/last used .*2025/)).toBeTruthy();
  });

  it('signs out another session after confirming, and lists what is left', async () => {
    signIn(testUser());
    const { calls } = server();
    renderPage(<ProfilePage />, { pattern: '/profile' });
    const other = sessions[1]?.id ?? '';

    await userEvent.click(await screen.findByRole('button', { name: 'Sign out Safari on iOS' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure?')).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));

    await waitFor(() => expect(document.querySelector(`[data-session-id="${other}"]`)).toBeNull());
    expect(calls.find((call) => call.method === 'DELETE')?.url).toBe(`/api/authentication/user/sessions/${other}`);
    expect(await screen.findByText('Signed out Safari on iOS')).toBeTruthy();
  });

  it('keeps the session when the user says no', async () => {
    signIn(testUser());
    const { calls } = server();
    renderPage(<ProfilePage />, { pattern: '/profile' });

    await userEvent.click(await screen.findByRole('button', { name: 'Sign out Safari on iOS' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    expect(document.querySelector(`[data-session-id="${sessions[1]?.id}"]`)).not.toBeNull();
  });

  it('is made of sections, so others can add theirs', async () => {
    signIn(testUser());
    server();
    renderPage(<ProfilePage sections={[{ id: 'extra', Component: () => <p>Extra section</p> }]} />);
    expect(await screen.findByText('Extra section')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Sessions' })).toBeNull();
  });
});
