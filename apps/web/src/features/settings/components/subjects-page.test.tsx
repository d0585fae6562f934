import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntry } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { json } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { backend, errorBody, makeSubject, SERVER } from '../test/backend';
import { SubjectsPage } from './subjects-page';

const SUBJECTS = `/api/settings/servers/${SERVER}/subjects`;

function open(path = `/staff/${SERVER}/settings`) {
  signIn(testUser());
  return renderPage(<SubjectsPage />, { pattern: '/staff/:serverId/settings', path });
}

const twoSubjects = () => [
  makeSubject('s2', 'Reports', { index: 1, active: false, ticketNameFormat: { value: 'report-{number}', inherits: false } }),
  makeSubject('s1', 'Billing', { staffRoles: { value: ['1400000000000000001', '1400000000000000002'], inherits: false } }),
];

describe('SubjectsPage', { timeout: 20_000 }, () => {
  it("lists the server's subjects in order with their switch, staff roles and ticket name format", async () => {
    backend('free', { [SUBJECTS]: () => json(twoSubjects()) });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Subjects' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getAllByRole('link')[0]?.textContent)).toEqual(['Billing', 'Reports']);
    expect(within(items[0] as HTMLElement).getByText(/2 staff roles/)).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText('report-{number}')).toBeTruthy();
    expect((screen.getByRole('switch', { name: 'Billing active' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('switch', { name: 'Reports active' }) as HTMLInputElement).checked).toBe(false);
    expect(await screen.findAllByText('2 of 3 subjects used')).not.toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Billing' }).getAttribute('href')).toBe(`/staff/${SERVER}/settings/s1`);
  });

  it('checks the name before creating: the SPEC rules are shown beside the field', async () => {
    const { calls } = backend('premium', { [SUBJECTS]: () => json(twoSubjects()) });
    open();
    const input = await screen.findByRole('textbox', { name: /New subject/ });
    const create = screen.getByRole('button', { name: 'Create subject' });
    await userEvent.type(input, 'ab');
    expect(screen.getByText('Subject name must be at least 3 characters')).toBeTruthy();
    expect((create as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(input);
    await userEvent.type(input, 'billing');
    expect(screen.getByText('A subject named "billing" already exists in this server')).toBeTruthy();
    await userEvent.clear(input);
    await userEvent.type(input, 'x'.repeat(120));
    expect(screen.getByText('Subject name must be under 120 characters')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("creates a subject, and shows the server's message when it refuses (409)", async () => {
    let refuse = true;
    const subjects = twoSubjects();
    const { calls } = backend('premium', {
      [SUBJECTS]: () => json(subjects),
      [`POST ${SUBJECTS}`]: (request) => {
        if (refuse) return errorBody(409, 'A subject named "Refunds" already exists in this server', 'body.name');
        const created = makeSubject('s3', (request.body as { name: string }).name, { index: 2 });
        subjects.push(created);
        return json(created, { status: 201 });
      },
    });
    open();
    const input = await screen.findByRole('textbox', { name: /New subject/ });
    await userEvent.type(input, '  Refunds ');
    await userEvent.click(screen.getByRole('button', { name: 'Create subject' }));
    expect(await screen.findByText('A subject named "Refunds" already exists in this server')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Refunds' });

    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Create subject' }));
    expect(await screen.findByText('Subject “Refunds” created')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Refunds' })).toBeTruthy();
    expect((input as HTMLInputElement).value).toBe('');
  });

  it('at the plan limit the create button is disabled, with the reason and a way to Premium', async () => {
    const subjects = [makeSubject('a', 'Alpha'), makeSubject('b', 'Beta', { index: 1 }), makeSubject('c', 'Gamma', { index: 2 })];
    backend('free', { [SUBJECTS]: () => json(subjects) });
    open();
    expect(await screen.findByText('The Free plan allows up to 3 subjects. Delete one, or upgrade to create more.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Create subject' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'See Premium plans' }).getAttribute('href')).toBe(`/staff/${SERVER}/premium`);
    expect(screen.getAllByText('3 of 3 subjects used').length).toBeGreaterThan(0);
  });

  it("shows the server's 402 when it refuses a subject the list did not count", async () => {
    const message = 'The Free plan allows up to 3 subjects; this server has 3. Upgrade to create more.';
    backend('free', {
      [SUBJECTS]: () => json(twoSubjects()),
      [`POST ${SUBJECTS}`]: () => errorBody(402, message),
    });
    open();
    await userEvent.type(await screen.findByRole('textbox', { name: /New subject/ }), 'Refunds');
    await userEvent.click(screen.getByRole('button', { name: 'Create subject' }));
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('deletes a subject only after Yes in the confirmation dialog', async () => {
    let subjects = twoSubjects();
    const { calls } = backend('free', {
      [SUBJECTS]: () => json(subjects),
      [`DELETE ${SUBJECTS}/s2`]: () => {
        subjects = subjects.filter((s) => s.subjectId !== 's2');
        return new Response(null, { status: 204 });
      },
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Reports' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Reports' }));
    dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([`${SUBJECTS}/s2`]));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Reports' })).toBeNull());
  });

  it('moves a subject down by setting its index, and switches it off with `active`', async () => {
    const { calls } = backend('free', {
      [SUBJECTS]: () => json(twoSubjects()),
      [`PATCH ${SUBJECTS}/s1`]: (request) => {
        const { path, value } = request.body as { path: string; value: unknown };
        return json({ path, value, inherits: false });
      },
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Move Billing down' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
        { serverId: SERVER, subjectId: 's1', path: 'index', operation: 'set', value: 1 },
      ]),
    );
    await userEvent.click(screen.getByRole('switch', { name: 'Billing active' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PATCH').at(-1)?.body).toMatchObject({ path: 'active', value: false }),
    );
  });

  it('renames a subject inline', async () => {
    const { calls } = backend('free', {
      [SUBJECTS]: () => json(twoSubjects()),
      [`PATCH ${SUBJECTS}/s2`]: (request) => {
        const { path, value } = request.body as { path: string; value: unknown };
        return json({ path, value, inherits: false });
      },
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Reports' }));
    const input = screen.getByRole('textbox', { name: 'New name for Reports' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Abuse reports{Enter}');
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ path: 'name', value: 'Abuse reports' }),
    );
    expect(await screen.findByRole('link', { name: 'Abuse reports' })).toBeTruthy();
  });

  it('shows the activity log: who, when, subject, path, old → new', async () => {
    const entry: AuditEntry = {
      id: 'a1',
      serverId: SERVER,
      subjectId: 's1',
      subjectName: 'Billing',
      actor: { kind: 'user', id: '100000000000000001', name: 'Ada Lovelace' },
      action: 'subject.update',
      path: 'logging.created',
      oldValue: true,
      newValue: false,
      createdAt: '2025-03-01T10:00:00.000Z',
    };
    const { calls } = backend('free', {
      [SUBJECTS]: () => json(twoSubjects()),
      [`/api/settings/servers/${SERVER}/audit-log`]: () => json({ page: 1, maxPage: 2, elements: [entry] }),
    });
    open(`/staff/${SERVER}/settings?tab=activity`);
    const table = await screen.findByRole('table', { name: 'Settings changes' });
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(row).getByText('Billing')).toBeTruthy();
    expect(within(row).getByText('logging.created')).toBeTruthy();
    expect(within(row).getByText('true')).toBeTruthy();
    expect(within(row).getByText('false')).toBeTruthy();
    expect(screen.getByText('Showing page 1 of 2')).toBeTruthy();
    expect(calls.find((c) => c.url.includes('audit-log'))?.url).toBe(`/api/settings/servers/${SERVER}/audit-log?Page=1&Amount=20`);
  });

  it('says so when the subjects cannot be loaded', async () => {
    backend('free', { [SUBJECTS]: () => errorBody(500, 'boom') });
    open();
    expect(await screen.findByText('Could not load the subjects.')).toBeTruthy();
  });
});
