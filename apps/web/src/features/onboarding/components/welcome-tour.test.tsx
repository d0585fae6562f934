import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { mockFetch } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { useTourStore } from '../tour-store';
import { WelcomeTour } from './welcome-tour';

const FIRST = 'Welcome to the Ticket Dashboard';

beforeEach(() => {
  useTourStore.setState({ isOpen: false, step: 0, seen: {} });
  mockFetch(() => new Response(null, { status: 404 }));
});

const dialog = () => screen.findByRole('dialog', { name: FIRST });
const gone = () => waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

describe('WelcomeTour', () => {
  it('opens by itself for a user who has not seen it, and walks through the steps', async () => {
    signIn(testUser());
    renderPage(<WelcomeTour />);

    const tour = await dialog();
    expect(within(tour).getByText('Step 1 of 5')).toBeTruthy();
    // Focus starts inside the dialog, on the way forward.
    await waitFor(() => expect(document.activeElement).toBe(within(tour).getByRole('button', { name: 'Next' })));

    await userEvent.click(within(tour).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('dialog', { name: 'Find your way around' })).toBeTruthy();
    expect(screen.getByText('Step 2 of 5')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await dialog()).toBeTruthy();

    for (const title of ['Find your way around', 'View tickets', 'Customise subjects', 'Send a panel']) {
      await userEvent.click(screen.getByRole('button', { name: 'Next' }));
      expect(await screen.findByRole('dialog', { name: title })).toBeTruthy();
    }
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Get started' }));
    await gone();
    expect(useTourStore.getState().seen).toEqual({ [testUser().userId]: true });
  });

  it('is shown once per user: skipped, it stays closed on the next visit', async () => {
    signIn(testUser());
    const first = renderPage(<WelcomeTour />);
    await userEvent.click(within(await dialog()).getByRole('button', { name: 'Skip tour' }));
    await gone();
    first.unmount();

    // A reload: the memory is gone, localStorage is what is left.
    const stored = localStorage.getItem('tour') ?? '';
    expect(JSON.parse(stored).state.seen).toEqual({ [testUser().userId]: true });
    useTourStore.setState({ seen: {} });
    localStorage.setItem('tour', stored);
    await useTourStore.persist.rehydrate();
    expect(useTourStore.getState().seen).toEqual({ [testUser().userId]: true });
    renderPage(<WelcomeTour />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on Escape, and still counts as seen', async () => {
    signIn(testUser());
    renderPage(<WelcomeTour />);
    await dialog();
    await userEvent.keyboard('{Escape}');
    await gone();
    expect(useTourStore.getState().seen[testUser().userId]).toBe(true);
  });

  it('opens again on request, from the first step', async () => {
    signIn(testUser());
    useTourStore.setState({ seen: { [testUser().userId]: true } });
    renderPage(<WelcomeTour />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('dialog')).toBeNull();

    act(() => useTourStore.getState().open());
    expect(within(await dialog()).getByText('Step 1 of 5')).toBeTruthy();
  });

  it('shows to another user of the same browser who has not seen it', async () => {
    useTourStore.setState({ seen: { [testUser().userId]: true } });
    signIn(testUser({ userId: '100000000000000002', username: 'charles' }));
    renderPage(<WelcomeTour />);
    expect(await dialog()).toBeTruthy();
  });

  it('waits for a signed-in user', async () => {
    renderPage(<WelcomeTour />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => useAuthStore.setState({ token: 'tok-1', user: testUser(), verified: true }));
    expect(await dialog()).toBeTruthy();
  });
});
