import { describe, expect, it } from 'vitest';
import { useDemoStack } from './support/demo-stack';

const demo = useDemoStack();

describe('signing in through the sandbox (demo mode)', () => {
  it('signs in as a demo user, shows their servers with roles, signs out, and the old token is refused', async () => {
    const page = await demo.browser.newPage();
    await page.goto(`${demo.stack.url}/`);
    // Signed out: the landing page, whose sign-in leads to the sign-in page.
    await page.getByRole('link', { name: 'Sign in with Discord' }).first().click();
    await page.waitForURL(/\/login/);
    await page.getByRole('button', { name: 'Sign in with Discord' }).click();

    // The sandbox's consent page lists the demo users.
    await page.waitForURL((url) => url.href.startsWith(`${demo.stack.sandboxUrl}/oauth2/authorize`));
    await page.locator('button[data-user-id="1200000000000000001"]').click();

    // Back on the dashboard with Alice's servers, greeted once by the welcome tour.
    await page.waitForURL(`${demo.stack.url}/`);
    await page.getByRole('button', { name: 'Skip tour' }).click();
    const pixelForge = page.locator('[data-server-id="1300000000000000001"]');
    await expect.poll(() => pixelForge.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => pixelForge.innerText()).toContain('Pixel Forge');
    expect(await pixelForge.innerText()).toContain('Owner');
    expect(await page.locator('[data-server-id="1300000000000000002"]').innerText()).toContain('Member');

    const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { token?: string } }).state?.token);
    expect(token).toMatch(/^tds_/);
    const refresh = () => fetch(`${demo.stack.url}/api/authentication/user/refresh`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect((await refresh()).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    expect((await refresh()).status).toBe(401);
    await page.close();
  });

  it('shows an owner the server the bot has not joined, with Begin setup', async () => {
    const page = await demo.browser.newPage();
    await page.goto(`${demo.stack.url}/login`);
    await page.getByRole('button', { name: 'Sign in with Discord' }).click();
    await page.locator('button[data-user-id="1200000000000000003"]').click();
    await page.waitForURL(`${demo.stack.url}/`);
    await page.getByRole('button', { name: 'Skip tour' }).click();
    const quietGarden = page.locator('[data-server-id="1300000000000000004"]');
    await expect.poll(() => quietGarden.count(), { timeout: 15_000 }).toBe(1);
    expect(await quietGarden.innerText()).toContain('Quiet Garden');
    const setup = quietGarden.getByRole('link', { name: /Begin setup/ });
    const href = await setup.getAttribute('href');
    expect(new URL(href!).searchParams.get('guild_id')).toBe('1300000000000000004');
    expect(await page.locator('[data-server-id="1300000000000000003"]').innerText()).toContain('Admin');
    await page.close();
  });
});
