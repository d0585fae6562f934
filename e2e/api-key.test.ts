import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useDemoStack } from './support/demo-stack';
import { DEMO_GUILDS, DEMO_USERS, seriousA11yViolations, signInAs } from './support/session';

/**
 * The API key page in the browser (issue 14): Chen, admin of the Enterprise server Study Hall,
 * generates a key, sees it once, copies it, calls the API with it and finds the call in the key's
 * log; a reset retires the old key (401) and a delete retires the new one. On a server without Enterprise the page only explains.
 */
const demo = useDemoStack();
const STUDY_HALL = DEMO_GUILDS.studyHall;

/** GET the server's settings with the key, as an outside program would: the HTTP status. */
async function settingsStatusWith(key: string): Promise<number> {
  const response = await fetch(`${demo.stack.url}/api/settings/servers/${STUDY_HALL}/settings`, { headers: { Authorization: `Bearer ${key}` } });
  await response.body?.cancel();
  return response.status;
}

const newKeyPanel = (page: Page) => page.getByRole('region', { name: 'Your new API key' });

/** The whole key, from the field the page shows it in this once. */
async function shownKey(page: Page): Promise<string> {
  const field = newKeyPanel(page).getByRole('textbox', { name: 'API key' });
  await field.waitFor({ timeout: 20_000 });
  return field.inputValue();
}

async function confirmDialog(page: Page, title: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('API key', () => {
  it('generate, copy and use it; a reset retires the old key, a delete the new one', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.chen);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demo.stack.url });

    // The staff menu of an Enterprise server leads there.
    await page.goto(`${demo.stack.url}/staff/${STUDY_HALL}/settings`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API Key' }).click();
    await page.waitForURL(`${demo.stack.url}/staff/${STUDY_HALL}/api-key`);
    await page.getByRole('heading', { level: 1, name: 'API Key' }).waitFor();
    const generate = page.getByRole('button', { name: 'Generate API key' });
    await generate.waitFor({ timeout: 20_000 });
    expect(await page.getByText('No API key yet').isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await generate.click();
    const first = await shownKey(page);
    expect(first).toMatch(/^tdk_\S{20,}$/);
    expect(await newKeyPanel(page).innerText()).toContain('it will not be shown again');
    await newKeyPanel(page).getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('API key copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
    // What the server keeps showing is the key's start only.
    await page.getByText(`${first.slice(0, 10)}…`, { exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    expect(await settingsStatusWith(first)).toBe(200);

    // Once the page lets go of it, the whole key is nowhere to be seen again.
    await page.reload();
    await page.getByRole('button', { name: 'Reset key' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('body').innerText()).not.toContain(first);

    // The call just made with the key is in its log, with its path and status, and the key's limit.
    const calls = page.getByRole('table', { name: 'Calls made with the API key' });
    const call = calls.getByRole('row').filter({ hasText: `/api/settings/servers/${STUDY_HALL}/settings` });
    await call.first().waitFor({ timeout: 20_000 });
    expect(await call.first().innerText()).toMatch(/GET[\s\S]*200/);
    expect(await page.getByText('300 calls per minute').isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Reset key' }).click();
    await confirmDialog(page, 'Reset the API key?');
    const second = await shownKey(page);
    expect(second).not.toBe(first);
    expect(await settingsStatusWith(first)).toBe(401);
    expect(await settingsStatusWith(second)).toBe(200);

    await page.getByRole('button', { name: 'Delete key' }).click();
    await confirmDialog(page, 'Delete the API key?');
    await page.getByText('No API key yet').waitFor({ timeout: 20_000 });
    expect(await newKeyPanel(page).count()).toBe(0);
    expect(await settingsStatusWith(second)).toBe(401);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('on a server without Enterprise, explains what it takes and links to its Premium page', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.alice);
    await page.goto(`${demo.stack.url}/staff/${DEMO_GUILDS.pixelForge}/api-key`);
    await page.getByText('API keys come with Enterprise').waitFor({ timeout: 20_000 });
    expect(await page.getByText('This server is on the Free plan.').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Generate API key' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'See plans' }).click();
    await page.waitForURL(`${demo.stack.url}/staff/${DEMO_GUILDS.pixelForge}/premium`);
    await page.context().close();
  });
});
