import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PlanType, SettingsUpdate, Subject } from '@ticket/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { applyOperation, getAt } from '../lib/setting-paths';
import { backend, bulkUpdates, errorBody, makeSubject, SERVER } from '../test/backend';
import { SubjectSettingsPage } from './subject-settings-page';

const SUBJECTS = `/api/settings/servers/${SERVER}/subjects`;
const BULK = `PATCH ${SUBJECTS}/bulk`;

afterEach(() => {
  vi.useRealTimers();
});

/**
 * A settings service holding `subjects`: GET answers them as stored, the bulk update applies
 * each update in order and answers the value now at each path (inheritance resolved).
 */
function settingsService(plan: PlanType, subjects: Subject[], extra: Record<string, (r: Recorded) => Response> = {}) {
  const stored = new Map(subjects.map((s) => [s.subjectId, s]));
  const resolved = (id: string): Subject => {
    let subject = stored.get(id) as Subject;
    const parent = subject.inheritsFrom ? stored.get(subject.inheritsFrom) : undefined;
    if (parent && subject.ticketNameFormat.inherits) {
      subject = { ...subject, ticketNameFormat: { ...subject.ticketNameFormat, value: parent.ticketNameFormat.value } };
    }
    return subject;
  };
  const routes: Record<string, (r: Recorded) => Response> = {
    [`GET ${SUBJECTS}`]: () => json([...stored.keys()].map(resolved)),
    [BULK]: (request) => {
      const { updates } = request.body as { updates: SettingsUpdate[] };
      for (const u of updates) {
        stored.set(u.subjectId, applyOperation(stored.get(u.subjectId) as Subject, u.path, u.operation, u.value, u.filterKey));
      }
      return json(updates.map((u) => ({ path: u.path, value: getAt(resolved(u.subjectId), u.path), inherits: false })));
    },
    ...extra,
  };
  for (const id of stored.keys()) routes[`GET ${SUBJECTS}/${id}`] = () => json(resolved(id));
  return backend(plan, routes);
}

function open(subjectId = 's1', section?: string) {
  signIn(testUser());
  const query = section ? `?section=${section}` : '';
  return renderPage(<SubjectSettingsPage />, {
    pattern: '/staff/:serverId/settings/:subjectId',
    path: `/staff/${SERVER}/settings/${subjectId}${query}`,
  });
}

const checked = (element: HTMLElement) => (element as HTMLInputElement).checked;

describe('SubjectSettingsPage', { timeout: 20_000 }, () => {
  it('shows the sections of SPEC §2 with their cards', async () => {
    settingsService('premium', [makeSubject('s1', 'Billing')]);
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing' })).toBeTruthy();
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual([
      'General',
      'Permissions',
      'Ticket creation',
      'Settings',
      'Closing',
      'Limitations',
      'Storage',
      'Language',
      'Embeds',
      'Form questions',
    ]);
    expect(screen.getByRole('heading', { level: 2, name: 'General' })).toBeTruthy();
    for (const card of ['Subject information', 'Staff management', 'Ticket categories']) {
      expect(screen.getByRole('region', { name: card })).toBeTruthy();
    }
    await userEvent.click(screen.getByRole('tab', { name: 'Closing' }));
    for (const card of ['Close buttons', 'Close delays', 'Auto-close settings', 'Close behavior']) {
      expect(await screen.findByRole('region', { name: card })).toBeTruthy();
    }
  });

  it('shows a change at once and sends it, with the others made meanwhile, as ONE bulk update 1000 ms later', async () => {
    const { calls } = settingsService('free', [makeSubject('s1', 'Billing')]);
    open('s1', 'settings');
    const opened = await screen.findByRole('switch', { name: 'Ticket opened' });
    const claimed = screen.getByRole('switch', { name: 'Ticket claimed' });
    await screen.findByText('All changes saved');

    vi.useFakeTimers();
    fireEvent.click(opened);
    expect(checked(opened)).toBe(false);
    expect(screen.getByText('Saving…')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(500);
    fireEvent.click(claimed);
    await vi.advanceTimersByTimeAsync(499);
    expect(bulkUpdates(calls)).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(bulkUpdates(calls).map((c) => c.body)).toEqual([
      {
        updates: [
          { serverId: SERVER, subjectId: 's1', path: 'logging.created', operation: 'set', value: false },
          { serverId: SERVER, subjectId: 's1', path: 'logging.claimed', operation: 'set', value: false },
        ],
      },
    ]);
    vi.useRealTimers();
    expect(await screen.findByText('All changes saved')).toBeTruthy();
    expect(checked(opened)).toBe(false);
    expect(checked(claimed)).toBe(false);
  });

  it("goes back to the server's value and says why when a change is refused", async () => {
    const message = 'automation.closeOnLeave: not today';
    settingsService('free', [makeSubject('s1', 'Billing')], { [BULK]: () => errorBody(400, message) });
    open('s1', 'closing');
    const closeOnLeave = await screen.findByRole('switch', { name: /Close when the owner leaves/ });
    await userEvent.click(closeOnLeave);
    expect(checked(closeOnLeave)).toBe(true);
    expect(await screen.findByText(message, undefined, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByText('Your change could not be saved')).toBeTruthy();
    await waitFor(() => expect(checked(closeOnLeave)).toBe(false));
  });

  it('inherit toggle: shows the parent value read-only at once and sends `inherits`', async () => {
    const parent = makeSubject('s1', 'Billing', { ticketNameFormat: { value: 'billing-{number}', inherits: false } });
    const child = makeSubject('s2', 'Refunds', { index: 1, inheritsFrom: 's1' });
    const { calls } = settingsService('free', [parent, child]);
    open('s2', 'ticketCreation');
    const input = (await screen.findByRole('textbox', { name: /Ticket name format/ })) as HTMLInputElement;
    expect(input.value).toBe('ticket-{number}');
    const inherit = await screen.findByRole('switch', { name: 'Inherit from Billing' });
    expect(checked(inherit)).toBe(false);

    vi.useFakeTimers();
    fireEvent.click(inherit);
    expect(checked(inherit)).toBe(true);
    expect(input.value).toBe('billing-{number}');
    expect(input.disabled).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(bulkUpdates(calls).map((c) => c.body)).toEqual([
      { updates: [{ serverId: SERVER, subjectId: 's2', path: 'ticketNameFormat.inherits', operation: 'set', value: true }] },
    ]);
    vi.useRealTimers();
    await screen.findByText('All changes saved');
    expect(input.value).toBe('billing-{number}');
    expect(input.disabled).toBe(true);
  });

  it('permission control: Allow adds to the allow list, and the permission leaves the deny list', async () => {
    const { calls } = settingsService('free', [makeSubject('s1', 'Billing')]);
    open('s1', 'permissions');
    const owners = await screen.findByRole('group', { name: 'Ticket owner and added members' });
    const attach = within(owners).getByRole('radiogroup', { name: 'Attach files' });
    expect(checked(within(attach).getByRole('radio', { name: 'Deny' }))).toBe(true);

    vi.useFakeTimers();
    fireEvent.click(within(attach).getByRole('radio', { name: 'Allow' }));
    expect(checked(within(attach).getByRole('radio', { name: 'Allow' }))).toBe(true);
    expect(checked(within(attach).getByRole('radio', { name: 'Deny' }))).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(bulkUpdates(calls).map((c) => c.body)).toEqual([
      {
        updates: [
          { serverId: SERVER, subjectId: 's1', path: 'permissions.userPermissions.value.allow', operation: 'add', value: 'AttachFiles' },
        ],
      },
    ]);
    vi.useRealTimers();
    await screen.findByText('All changes saved');
    expect(checked(within(attach).getByRole('radio', { name: 'Allow' }))).toBe(true);

    // Neutral takes it out of the list it is in.
    vi.useFakeTimers();
    fireEvent.click(within(attach).getByRole('radio', { name: 'Neutral' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(bulkUpdates(calls).at(-1)?.body).toEqual({
      updates: [
        { serverId: SERVER, subjectId: 's1', path: 'permissions.userPermissions.value.allow', operation: 'remove', value: 'AttachFiles' },
      ],
    });
  });

  it('plan-gated controls say which plan they need and are off limits on a lower plan', async () => {
    settingsService('free', [makeSubject('s1', 'Billing')]);
    open('s1', 'closing');
    const autoClose = await screen.findByRole('switch', { name: 'Close inactive tickets' });
    await waitFor(() => expect((autoClose as HTMLInputElement).disabled).toBe(true));
    const card = screen.getByRole('region', { name: 'Auto-close settings' });
    expect(within(card).getByText('Needs the Premium plan.')).toBeTruthy();
  });

  it('on Premium the gated controls can be switched on', async () => {
    settingsService('premium', [makeSubject('s1', 'Billing')]);
    open('s1', 'closing');
    const autoClose = await screen.findByRole('switch', { name: 'Close inactive tickets' });
    await waitFor(() => expect((autoClose as HTMLInputElement).disabled).toBe(false));
    expect(screen.queryByText('Needs the Premium plan.')).toBeNull();
  });

  it('warns before leaving with unsaved changes, and saves them on the way out', async () => {
    const { calls } = settingsService('free', [makeSubject('s1', 'Billing')]);
    const { router } = open('s1', 'settings');
    await userEvent.click(await screen.findByRole('switch', { name: 'Ticket opened' }));
    await userEvent.click(screen.getByRole('link', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(router.state.location.pathname).toBe(`/staff/${SERVER}/settings/s1`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/staff/${SERVER}/settings`));
    expect(bulkUpdates(calls)).toHaveLength(1);
  });

  describe('errors of SPEC §8', () => {
    it("'ServerId or SubjectId missing from route'", async () => {
      backend('free');
      signIn(testUser());
      renderPage(<SubjectSettingsPage />, { pattern: '/staff/:serverId/settings', path: `/staff/${SERVER}/settings` });
      expect(await screen.findByText('ServerId or SubjectId missing from route')).toBeTruthy();
    });

    it("'Failed to load subject settings. Please refresh the page.'", async () => {
      backend('free', { [`GET ${SUBJECTS}/s1`]: () => errorBody(500, 'boom') });
      open('s1');
      expect(await screen.findByText('Failed to load subject settings. Please refresh the page.')).toBeTruthy();
    });

    it("'How did you even get here? This is not supposed to happen.' for an impossible answer", async () => {
      backend('free', { [`GET ${SUBJECTS}/s1`]: () => json(makeSubject('s9', 'Elsewhere', { serverId: '299999999999999999' })) });
      open('s1');
      expect(await screen.findByText('How did you even get here? This is not supposed to happen.')).toBeTruthy();
    });

    it('a subject that is not there says so', async () => {
      backend('free');
      open('gone');
      expect(await screen.findByText('This subject does not exist')).toBeTruthy();
    });
  });
});
