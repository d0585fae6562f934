import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SettingsUpdate, Subject } from '@ticket/contracts';
import { UI_LANGUAGES } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { json } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { backend, bulkUpdates, echoBulk, makeSubject, SERVER } from '../test/backend';
import { SubjectSettingsPage } from './subject-settings-page';

const SUBJECTS = `/api/settings/servers/${SERVER}/subjects`;

function open(subject: Subject, section: string) {
  const service = backend('premium', {
    [`GET ${SUBJECTS}`]: () => json([subject]),
    [`GET ${SUBJECTS}/${subject.subjectId}`]: () => json(subject),
    [`PATCH ${SUBJECTS}/bulk`]: echoBulk,
    [`GET /api/settings/servers/${SERVER}/settings`]: () => json({ serverId: SERVER, language: 'fr', subjects: [], subscription: 'premium' }),
  });
  signIn(testUser());
  renderPage(<SubjectSettingsPage />, { pattern: '/staff/:serverId/settings/:subjectId', path: `/staff/${SERVER}/settings/${subject.subjectId}?section=${section}` });
  return service;
}

const sent = (calls: ReturnType<typeof open>['calls']) => bulkUpdates(calls).flatMap((c) => (c.body as { updates: SettingsUpdate[] }).updates);

// jsdom lays nothing out, so floating-ui hides every dropdown: its options count as hidden.
const hidden = { hidden: true };

/** The options of the Mantine select labelled `label`, opened. */
async function optionsOf(label: string) {
  const input = await screen.findByRole('textbox', { name: label });
  await userEvent.click(input);
  return waitFor(() => document.getElementById(input.getAttribute('aria-controls') ?? '') as HTMLElement);
}

describe('the language the bot speaks, in the subject settings', { timeout: 20_000 }, () => {
  it('chooses it per subject (or the server’s) and per server, among the 39 languages', async () => {
    const { calls } = open(makeSubject('s1', 'Billing'), 'language');
    const subjectLanguage = (await screen.findByRole('textbox', { name: 'Language of this subject' })) as HTMLInputElement;
    await waitFor(() => expect(subjectLanguage.value).toBe("The server's language (Français)"));
    expect(((await screen.findByRole('textbox', { name: 'Server language' })) as HTMLInputElement).value).toBe('Français');

    const subjectOptions = await optionsOf('Language of this subject');
    const names = (await within(subjectOptions).findAllByRole('option', hidden)).map((o) => o.textContent);
    expect(names).toEqual(["The server's language (Français)", ...UI_LANGUAGES.map((l) => l.name)]);
    await userEvent.click(within(subjectOptions).getByRole('option', { name: 'Deutsch', ...hidden }));
    await waitFor(() => expect(sent(calls)).toContainEqual({ serverId: SERVER, subjectId: 's1', path: 'language', operation: 'set', value: 'de' }), { timeout: 4000 });

    await userEvent.click(within(await optionsOf('Server language')).getByRole('option', { name: 'العربية', ...hidden }));
    await waitFor(() => expect(sent(calls)).toContainEqual({ serverId: SERVER, subjectId: '', path: 'language', operation: 'set', value: 'ar' }), { timeout: 4000 });
  });

  it('says that an empty button text or message is the bot’s own, in the ticket’s language', async () => {
    const blank = { text: '', style: 'Danger' as const, url: null, emote: null };
    const subject = makeSubject('s1', 'Billing');
    subject.buttons = { ...subject.buttons, closeButton: blank, claimButton: { ...blank, style: 'Success' } };
    subject.messages = { ...subject.messages, initialMessage: { ...subject.messages.initialMessage, value: { message: { content: '', embeds: [] }, serialized: '' } } };
    open(subject, 'ticketCreation');
    const texts = await screen.findAllByPlaceholderText('Empty: the bot writes its default text in the ticket’s language.');
    expect(texts.length).toBeGreaterThanOrEqual(2);
    expect((texts[0] as HTMLInputElement).value).toBe('');

    fireEvent.click(screen.getByRole('tab', { name: 'Embeds' }));
    expect((await screen.findAllByText('Left empty, the bot sends its default message in the ticket’s language.')).length).toBe(2);
  });
});
