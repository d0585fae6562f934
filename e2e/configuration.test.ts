import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useDemoStack } from './support/demo-stack';
import { DEMO_GUILDS, DEMO_USERS, seriousA11yViolations, signInAs } from './support/session';

const demo = useDemoStack();

const transferOf = (serverId: string) => `${demo.stack.url}/staff/${serverId}/settings?tab=configuration`;

async function createSubject(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: /New subject/ }).fill(name);
  await page.getByRole('button', { name: 'Create subject' }).click();
  await page.getByText(`Subject “${name}” created`).waitFor({ timeout: 15_000 });
}

describe('the configuration file', () => {
  it("exports one server's configuration and imports it into another, after a preview of the changes", async () => {
    // Bruno administers Pixel Forge and owns Night Owls.
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.bruno);
    await page.goto(`${demo.stack.url}/staff/${DEMO_GUILDS.pixelForge}/settings`);
    await page.getByRole('list', { name: 'Subjects' }).waitFor({ timeout: 15_000 });
    await createSubject(page, 'Refund requests');

    await page.getByRole('tab', { name: 'Import & export' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the file' }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^configuration-${DEMO_GUILDS.pixelForge}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    const file = await download.path();
    const exported = JSON.parse(await readFile(file, 'utf8')) as { subjects: { name: string }[] };
    expect(exported.subjects.map((s) => s.name)).toEqual(['General Support', 'Refund requests']);

    await page.goto(transferOf(DEMO_GUILDS.nightOwls));
    await page.getByRole('button', { name: 'Choose a file' }).waitFor({ timeout: 15_000 });
    await page.locator('input[type="file"]').setInputFiles(file);
    const preview = page.getByRole('region', { name: 'What the import will change' });
    await preview.waitFor({ timeout: 15_000 });
    await expect.poll(() => preview.innerText()).toContain('Refund requests');
    const text = await preview.innerText();
    // Night Owls has no subjects yet: both are new there.
    expect(text).toMatch(/New subjects\s+General Support\s+Refund requests/);
    // Pixel Forge's staff role is not a role of Night Owls: the preview says it will be unset.
    expect(text).toContain('Not found on this server, so left unset');
    expect(text).toMatch(/In the subject “General Support”: staff role \d+/);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Import this file' }).click();
    await page.getByText('Configuration imported').waitFor({ timeout: 15_000 });

    await page.getByRole('tab', { name: 'Subjects', exact: true }).click();
    const list = page.getByRole('list', { name: 'Subjects' });
    await expect.poll(() => list.innerText(), { timeout: 15_000 }).toContain('Refund requests');
    await page.reload();
    await page.getByRole('link', { name: 'Refund requests', exact: true }).waitFor({ timeout: 15_000 });
    await page.context().close();
  });
});
