import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useDemoStack } from './support/demo-stack';
import { DEMO_GUILDS, DEMO_USERS, seriousA11yViolations, signInAs } from './support/session';

const demo = useDemoStack();

const settingsOf = (serverId: string) => `${demo.stack.url}/staff/${serverId}/settings`;

async function createSubject(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: /New subject/ }).fill(name);
  await page.getByRole('button', { name: 'Create subject' }).click();
  await page.getByText(`Subject “${name}” created`).waitFor({ timeout: 15_000 });
  await page.getByRole('link', { name, exact: true }).waitFor();
}

/** Waits until the subject screen has sent every change and the server has confirmed it. */
async function allSaved(page: Page): Promise<void> {
  await expect.poll(() => page.getByRole('status').filter({ hasText: /changes saved|Saving/ }).innerText(), { timeout: 15_000 }).toBe('All changes saved');
}

const isChecked = (page: Page, name: string | RegExp) => page.getByRole('switch', { name }).isChecked();

describe('subjects and their settings', () => {
  it('creates a subject, changes settings in several cards, and finds them saved after a reload', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.alice);
    await page.goto(settingsOf(DEMO_GUILDS.pixelForge));
    await page.getByRole('list', { name: 'Subjects' }).waitFor({ timeout: 15_000 });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await createSubject(page, 'Billing questions');

    await page.getByRole('link', { name: 'Billing questions', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Billing questions' }).waitFor({ timeout: 15_000 });
    await allSaved(page);

    // Ticket creation: the name format, with its live preview.
    await page.getByRole('tab', { name: 'Ticket creation' }).click();
    const format = page.getByRole('textbox', { name: /Ticket name format/ });
    await format.fill('billing-{number}');
    // Settings: log the opening of a ticket (or stop logging it).
    await page.getByRole('tab', { name: 'Settings', exact: true }).click();
    const openedBefore = await isChecked(page, 'Ticket opened');
    await page.getByRole('switch', { name: 'Ticket opened' }).click();
    // Closing: close a ticket whose owner leaves the server.
    await page.getByRole('tab', { name: 'Closing' }).click();
    const closeOnLeave = /Close when the owner leaves/;
    const leaveBefore = await isChecked(page, closeOnLeave);
    await page.getByRole('switch', { name: closeOnLeave }).click();
    await allSaved(page);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Billing questions' }).waitFor({ timeout: 15_000 });
    await page.getByRole('tab', { name: 'Ticket creation' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: /Ticket name format/ }).inputValue()).toBe('billing-{number}');
    await page.getByRole('tab', { name: 'Settings', exact: true }).click();
    expect(await isChecked(page, 'Ticket opened')).toBe(!openedBefore);
    await page.getByRole('tab', { name: 'Closing' }).click();
    expect(await isChecked(page, closeOnLeave)).toBe(!leaveBefore);
    await page.context().close();
  });

  it('refuses the fourth subject on a Free server with the limit message', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.alice);
    await page.goto(settingsOf(DEMO_GUILDS.pixelForge));
    await page.getByRole('list', { name: 'Subjects' }).waitFor({ timeout: 15_000 });
    // The server starts with one subject and the test above made a second.
    await createSubject(page, 'Bug reports');
    const limit = 'The Free plan allows up to 3 subjects. Delete one, or upgrade to create more.';
    await page.getByText(limit).waitFor({ timeout: 10_000 });
    expect(await page.getByRole('button', { name: 'Create subject' }).isDisabled()).toBe(true);

    // The service refuses it too, whatever the page does.
    const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { token?: string } }).state?.token);
    const response = await page.request.post(`${demo.stack.url}/api/settings/servers/${DEMO_GUILDS.pixelForge}/subjects`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { name: 'One too many' },
    });
    expect(response.status()).toBe(402);
    expect((await response.json()).message).toContain('The Free plan allows up to 3 subjects');
    await page.context().close();
  });

  it('will not save a form question with an empty slug', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.bruno);
    await page.goto(settingsOf(DEMO_GUILDS.nightOwls));
    await page.getByRole('textbox', { name: /New subject/ }).waitFor({ timeout: 15_000 });
    await createSubject(page, 'Orders');
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor({ timeout: 15_000 });
    await page.getByRole('tab', { name: 'Form questions' }).click();

    await page.getByRole('button', { name: 'Add question' }).click();
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('Order number?');
    const slug = page.getByRole('textbox', { name: /Slug/ });
    await expect.poll(() => slug.inputValue()).toBe('order-number');
    await slug.fill('');
    await page.getByText('Slug is required').waitFor();
    const save = page.getByRole('button', { name: 'Add question' });
    expect(await save.isDisabled()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await slug.fill('order');
    await expect.poll(() => save.isDisabled()).toBe(false);
    await save.click();
    const list = page.getByRole('list', { name: 'Form questions' });
    await expect.poll(() => list.innerText(), { timeout: 15_000 }).toContain('Order number?');
    await page.reload();
    await page.getByRole('tab', { name: 'Form questions' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Form questions' }).innerText(), { timeout: 15_000 }).toContain('Order number?');
    await page.context().close();
  });
});
