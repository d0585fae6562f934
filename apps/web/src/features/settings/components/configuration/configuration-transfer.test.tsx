import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callExamples, type ConfigurationChanges, type ConfigurationDocument } from '@ticket/contracts';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { json } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { backend, errorBody, SERVER } from '../../test/backend';
import { SubjectsPage } from '../subjects-page';

const BASE = `/api/settings/servers/${SERVER}`;
const FILE = callExamples.settings.updateConfiguration!.body as ConfigurationDocument;
const LOG_CHANNEL = '1300000000000000999';
const STAFF_ROLE = '1400000000000000999';

const CHANGES: ConfigurationChanges = {
  applied: false,
  subjects: { created: ['Billing'], updated: [], deleted: ['Old questions'], unchanged: [] },
  panels: { created: ['Help desk'], updated: [], deleted: [], unchanged: [] },
  serverSettings: [{ setting: 'language', from: 'en', to: 'de' }],
  unsetIds: [
    { field: 'subjects.0.logging.channelId', id: LOG_CHANNEL, setting: 'logChannel', subject: 'Billing', panel: null },
    { field: 'subjects.0.staffRoles.value.0', id: STAFF_ROLE, setting: 'staffRole', subject: 'Billing', panel: null },
  ],
};

function open() {
  signIn(testUser());
  return renderPage(<SubjectsPage />, { pattern: '/staff/:serverId/settings', path: `/staff/${SERVER}/settings?tab=configuration` });
}

const fileOf = (content: string, name = 'configuration.json') => new File([content], name, { type: 'application/json' });

async function pick(file: File) {
  await screen.findByRole('button', { name: 'Choose a file' });
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  expect(input).not.toBeNull();
  await userEvent.upload(input!, file);
}

describe('ConfigurationTransfer', { timeout: 20_000 }, () => {
  it('imports a file: the preview lists the changes and the ids left unset, and the import runs only once confirmed', async () => {
    const { calls } = backend('premium', {
      [`${BASE}/subjects`]: () => json([]),
      [`POST ${BASE}/configuration/preview`]: () => json(CHANGES),
      [`POST ${BASE}/configuration`]: () => json({ ...CHANGES, applied: true }),
    });
    open();
    await pick(fileOf(JSON.stringify(FILE)));

    const preview = await screen.findByRole('region', { name: 'What the import will change' });
    expect(within(preview).getByRole('heading', { name: 'New subjects' })).toBeTruthy();
    expect(within(preview).getByText('Billing')).toBeTruthy();
    expect(within(preview).getByRole('heading', { name: 'Deleted subjects' })).toBeTruthy();
    expect(within(preview).getByText('Old questions')).toBeTruthy();
    expect(within(preview).getByText('Help desk')).toBeTruthy();
    expect(within(preview).getByText('Language: en → de')).toBeTruthy();
    expect(within(preview).getByText('Not found on this server, so left unset')).toBeTruthy();
    expect(within(preview).getByText(`In the subject “Billing”: log channel ${LOG_CHANNEL}`)).toBeTruthy();
    expect(within(preview).getByText(`In the subject “Billing”: staff role ${STAFF_ROLE}`)).toBeTruthy();
    expect(within(preview).getByText(/saved as drafts/)).toBeTruthy();
    // The file went to the preview as it was read, and nothing was imported yet.
    expect(calls.find((c) => c.url === `${BASE}/configuration/preview`)?.body).toEqual(FILE);
    expect(calls.some((c) => c.method === 'POST' && c.url === `${BASE}/configuration`)).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Import this file' }));
    expect(await screen.findByText('Configuration imported')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.url === `${BASE}/configuration`)?.body).toEqual(FILE);
    // Done: the preview is gone, ready for another file.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'What the import will change' })).toBeNull());
  });

  it('cancelling the preview imports nothing', async () => {
    const { calls } = backend('premium', {
      [`${BASE}/subjects`]: () => json([]),
      [`POST ${BASE}/configuration/preview`]: () => json({ ...CHANGES, unsetIds: [] }),
    });
    open();
    await pick(fileOf(JSON.stringify(FILE)));
    await screen.findByRole('region', { name: 'What the import will change' });
    expect(screen.queryByText('Not found on this server, so left unset')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'What the import will change' })).toBeNull();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([`${BASE}/configuration/preview`]);
  });

  it("shows the server's refusal of a malformed file, each problem with its place in the file, and offers no import", async () => {
    const issues = [
      { field: 'body.subjects.0.name', message: 'Subject name must be at least 3 characters' },
      { field: 'body.panels.0.subjects.0.subjectId', message: 'No subject billing in the file' },
    ];
    backend('premium', {
      [`${BASE}/subjects`]: () => json([]),
      [`POST ${BASE}/configuration/preview`]: () =>
        json({ statusCode: 400, error: 'Bad Request', code: 'validation_failed', message: `${issues[0]!.field}: ${issues[0]!.message}`, field: issues[0]!.field, issues }, { status: 400 }),
    });
    open();
    await pick(fileOf(JSON.stringify({ ...FILE, subjects: [{ ...FILE.subjects[0], name: 'ab' }] })));
    expect(await screen.findByText('This file cannot be imported')).toBeTruthy();
    expect(screen.getByText('At subjects.0.name: Subject name must be at least 3 characters')).toBeTruthy();
    expect(screen.getByText('At panels.0.subjects.0.subjectId: No subject billing in the file')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Import this file' })).toBeNull();
  });

  it("shows a refusal that names no field as the server's message", async () => {
    backend('free', {
      [`${BASE}/subjects`]: () => json([]),
      [`POST ${BASE}/configuration/preview`]: () => errorBody(402, 'Requiring a form is part of the Premium plan; this server is on the Free plan'),
    });
    open();
    await pick(fileOf(JSON.stringify(FILE)));
    expect(await screen.findByText('Requiring a form is part of the Premium plan; this server is on the Free plan')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Import this file' })).toBeNull();
  });

  it('refuses a file that is not JSON without asking the server', async () => {
    const { calls } = backend('premium', { [`${BASE}/subjects`]: () => json([]) });
    open();
    await pick(fileOf('{ not json', 'notes.json'));
    expect(await screen.findByText('notes.json is not a valid JSON file.')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/configuration'))).toBe(false);
  });

  it('exports the configuration as a JSON file download', async () => {
    const { calls } = backend('premium', {
      [`${BASE}/subjects`]: () => json([]),
      [`${BASE}/configuration`]: () => json(FILE),
    });
    const blobs: Blob[] = [];
    // jsdom has no object URLs: the file handed to the browser is kept here instead.
    const { createObjectURL, revokeObjectURL } = URL;
    onTestFinished(() => {
      Object.assign(URL, { createObjectURL, revokeObjectURL });
    });
    Object.assign(URL, { createObjectURL: (blob: Blob) => (blobs.push(blob), 'blob:configuration'), revokeObjectURL: () => {} });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe(`configuration-${SERVER}-${FILE.exportedAt.slice(0, 10)}.json`);
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Download the file' }));
    expect(await screen.findByText('Configuration downloaded')).toBeTruthy();
    expect(click).toHaveBeenCalledOnce();
    expect(JSON.parse(await blobs[0]!.text())).toEqual(FILE);
    expect(calls.filter((c) => c.url === `${BASE}/configuration`).map((c) => c.method)).toEqual(['GET']);
    click.mockRestore();
  });
});
