import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { confirm, errorPopup, NOTIFICATION_AUTO_CLOSE_MS, notifyError, notifySuccess } from './notify';
import { createQueryClient } from './query-client';

const renderProviders = () =>
  render(
    <AppProviders queryClient={createQueryClient()}>
      <p>app</p>
    </AppProviders>,
  );

/** The toast that shows `text`: its Mantine notification root. */
const toast = async (text: string) => {
  const message = await screen.findByText(text, undefined, { timeout: 3000 });
  const root = message.closest<HTMLElement>('.mantine-Notification-root');
  if (!root) throw new Error(`no toast around ${text}`);
  return root;
};

describe('toasts (SPEC §8, §9)', () => {
  it('shows success and error toasts top-right with a progress bar over 4000 ms and no button but close', async () => {
    renderProviders();
    notifySuccess('Servers refreshed');
    notifyError('Failed to refresh');

    const success = await toast('Servers refreshed');
    const error = await toast('Failed to refresh');
    expect(success.closest('[data-position]')?.getAttribute('data-position')).toBe('top-right');
    expect(NOTIFICATION_AUTO_CLOSE_MS).toBe(4000);
    for (const root of [success, error]) {
      const bar = root.querySelector<HTMLElement>('[data-toast-progress]');
      expect(bar?.getAttribute('aria-hidden')).toBe('true');
      expect(bar?.dataset.duration).toBe('4000');
      expect(bar?.style.getPropertyValue('--toast-duration')).toBe('4000ms');
      // Nothing to confirm: the one button closes the toast, and says so.
      expect(within(root).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Close']);
    }
    expect(success.style.getPropertyValue('--notification-color')).toContain('green');
    expect(error.style.getPropertyValue('--notification-color')).toContain('red');
  });

  it('closes a toast by itself after 4000 ms', async () => {
    renderProviders();
    notifyError('Error loading tickets');
    await toast('Error loading tickets');
    await act(() => new Promise((resolve) => setTimeout(resolve, NOTIFICATION_AUTO_CLOSE_MS - 1000)));
    expect(screen.queryByText('Error loading tickets')).not.toBeNull();
    await waitFor(() => expect(screen.queryByText('Error loading tickets')).toBeNull(), { timeout: 2500 });
  }, 10_000);
});

describe('confirm()', () => {
  const dialog = async () => screen.findByRole('dialog', { name: /Are you sure\?/ });

  it('asks with a warning, the default title and text, Yes and No, and answers true on Yes', async () => {
    renderProviders();
    const answer = confirm();
    const modal = await dialog();
    expect(within(modal).getByText('This action cannot be undone.')).toBeTruthy();
    expect(modal.querySelector('svg')).not.toBeNull();
    await userEvent.click(within(modal).getByRole('button', { name: 'Yes' }));
    await expect(answer).resolves.toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('answers false on No', async () => {
    renderProviders();
    const answer = confirm({ title: 'Delete this ticket?', text: 'It is gone for good.' });
    const modal = await screen.findByRole('dialog', { name: /Delete this ticket\?/ });
    expect(within(modal).getByText('It is gone for good.')).toBeTruthy();
    await userEvent.click(within(modal).getByRole('button', { name: 'No' }));
    await expect(answer).resolves.toBe(false);
  });

  it('answers false when closed with Escape', async () => {
    renderProviders();
    const answer = confirm();
    await dialog();
    await userEvent.keyboard('{Escape}');
    await expect(answer).resolves.toBe(false);
  });
});

describe('errorPopup()', () => {
  it('shows the title and text with a Close button, and resolves once closed', async () => {
    renderProviders();
    let closed = false;
    const popup = errorPopup({ title: 'Could not load ticket', text: 'You don’t have permission to view this ticket.' }).then(
      () => {
        closed = true;
      },
    );
    const modal = await screen.findByRole('dialog', { name: 'Could not load ticket' });
    expect(within(modal).getByText('You don’t have permission to view this ticket.')).toBeTruthy();
    expect(closed).toBe(false);
    await userEvent.click(within(modal).getByRole('button', { name: 'Close' }));
    await popup;
    expect(closed).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
