import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useDemoStack } from './support/demo-stack';
import { DEMO_GUILDS, DEMO_USERS, seriousA11yViolations, signInAs } from './support/session';

const demo = useDemoStack();

const OPEN_A_TICKET = '1300000000000000105';

interface RecordedMessage {
  id: string;
  content: string;
  deleted: boolean;
  editedTimestamp: string | null;
  components: { type: number; components: { type: number; label?: string; custom_id?: string }[] }[];
  revisions: unknown[];
}

/** What the sandbox's channel holds, deleted messages included: what members see, and saw. */
async function channelMessages(): Promise<RecordedMessage[]> {
  const response = await fetch(`${demo.stack.sandboxUrl}/_sandbox/messages?channelId=${OPEN_A_TICKET}`);
  return ((await response.json()) as { messages: RecordedMessage[] }).messages;
}
const visible = async () => (await channelMessages()).filter((message) => !message.deleted);
const buttonLabels = (message: RecordedMessage | undefined) =>
  (message?.components ?? []).flatMap((row) => row.components.map((component) => component.label));

/** Picks `option` in the select labelled `label` inside `scope`. */
async function pick(page: Page, scope: Locator | Page, label: string, option: string) {
  await scope.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function subjectNamed(page: Page, name: string): Promise<void> {
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { token?: string } }).state?.token);
  const response = await page.request.post(`${demo.stack.url}/api/settings/servers/${DEMO_GUILDS.pixelForge}/subjects`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { name },
  });
  expect(response.status()).toBe(201);
}

describe('panels', () => {
  it('builds a button panel with two subjects, sends it, edits it in place, resends it and deletes it', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.alice);
    // The server starts with "General Support"; a second subject for the second button.
    await subjectNamed(page, 'Bug reports');
    await page.goto(`${demo.stack.url}/staff/${DEMO_GUILDS.pixelForge}/panels`);
    await page.getByText('No panels yet').waitFor({ timeout: 15_000 });
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'New panel' }).click();
    await page.getByRole('heading', { level: 2, name: 'New panel' }).waitFor();
    await page.getByRole('textbox', { name: 'Panel name' }).fill('Help desk');
    await page.getByRole('textbox', { name: 'Message text' }).fill('Click a button to open a **ticket**.');
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Support');
    // The preview shows the message as members will see it, markdown rendered, as it is typed.
    const preview = page.getByRole('region', { name: 'Preview of the panel message' });
    await expect.poll(() => preview.innerText()).toContain('Click a button to open a ticket.');
    await expect.poll(() => preview.locator('strong', { hasText: 'ticket' }).count()).toBe(1);
    await expect.poll(() => preview.getByRole('group', { name: 'Embed 1' }).innerText()).toContain('Support');

    await page.getByRole('button', { name: 'Next: Actions' }).click();
    await page.getByRole('button', { name: 'Next: Buttons' }).click();
    const first = page.getByRole('group', { name: /^Button 1/ });
    await first.getByRole('textbox', { name: 'Button text' }).fill('General help');
    await pick(page, first, 'Subject', 'General Support');
    await page.getByRole('button', { name: 'Add button' }).click();
    const second = page.getByRole('group', { name: /^Button 2/ });
    await second.getByRole('textbox', { name: 'Button text' }).fill('Report a bug');
    await pick(page, second, 'Subject', 'Bug reports');
    await expect.poll(() => preview.getByRole('list', { name: 'Button row 1' }).innerText()).toMatch(/General help[\s\S]*Report a bug/);

    await page.getByRole('button', { name: 'Next: Channel' }).click();
    await pick(page, page, 'Channel', '#open-a-ticket');
    await page.getByRole('button', { name: 'Next: Send' }).click();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Panel sent in #open-a-ticket').waitFor({ timeout: 15_000 });

    // The channel now holds the message with its two buttons, each naming the panel and subject.
    const [sent] = await visible();
    expect(sent?.content).toBe('Click a button to open a **ticket**.');
    expect(buttonLabels(sent)).toEqual(['General help', 'Report a bug']);
    for (const button of sent?.components[0]?.components ?? []) expect(button.custom_id).toMatch(/^panel:[^:]+:[^:]+$/);

    // Editing a sent panel edits that very message.
    await page.getByRole('listitem', { name: 'Help desk' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Edit Help desk' }).click();
    await page.getByRole('heading', { level: 2, name: 'Edit Help desk' }).waitFor();
    await page.getByRole('textbox', { name: 'Message text' }).fill('Pick a topic to open a ticket.');
    for (const step of ['Actions', 'Buttons', 'Channel', 'Send']) await page.getByRole('button', { name: `Next: ${step}` }).click();
    await page.getByRole('button', { name: 'Send changes' }).click();
    await page.getByText('Panel updated: the message in #open-a-ticket was edited in place').waitFor({ timeout: 15_000 });
    const afterEdit = await visible();
    expect(afterEdit).toHaveLength(1);
    expect(afterEdit[0]).toMatchObject({ id: sent?.id, content: 'Pick a topic to open a ticket.' });
    expect(afterEdit[0]?.editedTimestamp).not.toBeNull();
    expect(buttonLabels(afterEdit[0])).toEqual(['General help', 'Report a bug']);

    // Resending posts it again and removes the old one.
    await page.getByRole('button', { name: 'Resend Help desk' }).click();
    await page.getByText('Panel sent again in #open-a-ticket').waitFor({ timeout: 15_000 });
    const afterResend = await visible();
    expect(afterResend).toHaveLength(1);
    expect(afterResend[0]?.id).not.toBe(sent?.id);
    expect(afterResend[0]?.content).toBe('Pick a topic to open a ticket.');
    expect(buttonLabels(afterResend[0])).toEqual(['General help', 'Report a bug']);

    // Deleting asks first, then removes the message and the panel.
    await page.getByRole('button', { name: 'Delete Help desk' }).click();
    const dialog = page.getByRole('dialog', { name: /Delete Help desk\?/ });
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('No panels yet').waitFor({ timeout: 15_000 });
    expect(await visible()).toEqual([]);
    expect((await channelMessages()).every((message) => message.deleted)).toBe(true);
    await page.context().close();
  });
});
