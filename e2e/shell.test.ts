import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useDemoStack } from './support/demo-stack';
import { DEMO_GUILDS, DEMO_USERS, seriousA11yViolations, signInAs } from './support/session';

const demo = useDemoStack();

const NO_PERMISSION = 'You do not have the required permissions to access this page';
const textOf = (page: Page) => page.locator('body').innerText();

describe('the dashboard shell', () => {
  it('refuses a member an ADMIN route with the exact message and sends them to the Dashboard', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.eli);
    await page.goto(`${demo.stack.url}/staff/${DEMO_GUILDS.pixelForge}/settings`);
    await expect.poll(() => textOf(page), { timeout: 15_000 }).toContain(NO_PERMISSION);
    await page.waitForURL(`${demo.stack.url}/`);
    await page.context().close();
  });

  it('opens the staff area for an admin and remembers the server among the recent ones', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.bruno);
    const card = page.locator(`[data-server-id="${DEMO_GUILDS.pixelForge}"]`);
    await card.getByRole('link', { name: /Open dashboard/ }).click();
    await page.waitForURL(`${demo.stack.url}/staff/${DEMO_GUILDS.pixelForge}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().innerText(), { timeout: 15_000 }).toContain('Pixel Forge');
    // The menu now offers the server's admin screens.
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Tickets', 'Settings', 'Panels', 'Premium']) {
      expect(await nav.getByRole('link', { name: label, exact: true }).count(), label).toBeGreaterThan(0);
    }
    // Visit a second server, then the switcher lists both, the latest first.
    await page.goto(`${demo.stack.url}/staff/${DEMO_GUILDS.nightOwls}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().innerText(), { timeout: 15_000 }).toContain('Night Owls');
    await page.getByRole('button', { name: /Switch server/i }).click();
    // Each item shows the server's icon (or initials) before its name.
    const names = async () => (await page.getByRole('menuitem').allInnerTexts()).map((text) => text.split('\n').pop()!.trim());
    await expect.poll(names, { timeout: 10_000 }).toEqual(expect.arrayContaining(['Night Owls', 'Pixel Forge']));
    const texts = await names();
    expect(texts.indexOf('Night Owls')).toBeLessThan(texts.indexOf('Pixel Forge'));
    await page.context().close();
  });

  it('greets a new user once with the welcome tour, which the menu opens again', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.dana, { keepTour: true });
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText(), { timeout: 10_000 }).toContain('Welcome to the Ticket Dashboard');
    for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Get started' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.reload();
    await page.waitForTimeout(1500);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Show the tour' }).click();
    await expect.poll(() => page.getByRole('dialog').innerText(), { timeout: 10_000 }).toContain('Welcome to the Ticket Dashboard');
    await page.context().close();
  });

  it('switches to Arabic right-to-left and back', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.alice);
    await page.getByRole('button', { name: /^Language:/ }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await expect.poll(() => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('ar');
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.dir), { timeout: 15_000 }).toBe('rtl');
    await page.locator('header button[aria-label*=":"]').filter({ hasText: 'العربية' }).first().click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect.poll(() => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['en', 'ltr']);
    await page.context().close();
  });

  it('logs out even when the logout call fails', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.alice);
    await page.route('**/api/authentication/user', (route) =>
      route.request().method() === 'DELETE' ? route.fulfill({ status: 500, body: '{}' }) : route.continue(),
    );
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { token?: string | null; user?: unknown } });
    expect(stored.state?.token ?? null).toBeNull();
    expect(stored.state?.user ?? null).toBeNull();
    await page.context().close();
  });

  it('has no serious or critical accessibility issue on the shell screens', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.alice);
    const screens = [
      '/',
      '/profile',
      '/tickets',
      `/staff/${DEMO_GUILDS.pixelForge}`,
      `/staff/${DEMO_GUILDS.pixelForge}/profile`,
      `/staff/${DEMO_GUILDS.pixelForge}/settings`,
      `/staff/${DEMO_GUILDS.pixelForge}/panels`,
      `/staff/${DEMO_GUILDS.pixelForge}/premium`,
      `/staff/${DEMO_GUILDS.pixelForge}/tickets`,
    ];
    const problems: string[] = [];
    for (const path of screens) {
      await page.goto(`${demo.stack.url}${path}`);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      for (const violation of await seriousA11yViolations(page)) problems.push(`${path}: ${violation}`);
    }
    await page.context().close();
    const context = await demo.browser.newContext();
    const login = await context.newPage();
    await login.goto(`${demo.stack.url}/login`);
    await login.waitForLoadState('networkidle');
    for (const violation of await seriousA11yViolations(login)) problems.push(`/login: ${violation}`);
    await context.close();
    expect(problems).toEqual([]);
  });
});
