import { describe, expect, it } from 'vitest';
import type { PublicStats, Testimonial } from '@ticket/contracts';
import { useDemoStack } from './support/demo-stack';
import { DEMO_GUILDS, DEMO_USERS, seriousA11yViolations, signInAs } from './support/session';

const demo = useDemoStack();

const anonymousPage = async () => {
  const context = await demo.browser.newContext({ viewport: { width: 1280, height: 860 } });
  return context.newPage();
};

describe('the public pages', () => {
  it('shows a signed-out visitor the landing page with the live numbers and the testimonials', async () => {
    const answer = async <T>(path: string) => (await fetch(`${demo.stack.url}${path}`)).json() as Promise<T>;
    const [stats, testimonials] = await Promise.all([answer<PublicStats>('/api/support/stats'), answer<Testimonial[]>('/api/server/testimonials')]);
    expect(stats.servers).toBeGreaterThan(0);
    expect(testimonials.length).toBeGreaterThan(0);

    const page = await anonymousPage();
    await page.goto(`${demo.stack.url}/`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText(), { timeout: 15_000 }).toBe('Ticket Dashboard');
    expect(page.url()).toBe(`${demo.stack.url}/`);
    const numbers = page.getByRole('region', { name: 'Live statistics' });
    const shown = (label: string) => numbers.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd').innerText();
    await expect.poll(() => shown('Servers served'), { timeout: 15_000 }).toBe(stats.servers.toLocaleString('en'));
    expect(await shown('Tickets handled')).toMatch(/^[\d,]+$/);
    expect(await shown('Messages')).toMatch(/^[\d,]+$/);
    expect(await shown('Tickets open now')).toMatch(/^[\d,]+$/);
    const quotes = page.getByRole('region', { name: 'What server owners say' });
    await expect.poll(() => quotes.innerText(), { timeout: 10_000 }).toContain(testimonials[0]!.testimonial);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The way in is the usual sign-in.
    await page.getByRole('banner').getByRole('link', { name: 'Sign in with Discord' }).click();
    await page.waitForURL(`${demo.stack.url}/login`);
    await page.context().close();
  });

  it('lets an admin make a server’s statistics public, which anyone can then see', async () => {
    const admin = await signInAs(demo.browser, demo.stack, DEMO_USERS.bruno);
    await admin.goto(`${demo.stack.url}/staff/${DEMO_GUILDS.pixelForge}/settings`);
    const toggle = admin.getByRole('switch', { name: 'Show statistics publicly' });
    await toggle.waitFor({ timeout: 15_000 });
    await expect.poll(() => toggle.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    const link = admin.getByRole('link', { name: 'Open the public page' });
    await link.waitFor({ timeout: 10_000 });
    expect(await link.getAttribute('href')).toBe(`/servers/${DEMO_GUILDS.pixelForge}/stats`);
    await admin.context().close();

    const page = await anonymousPage();
    await page.goto(`${demo.stack.url}/servers/${DEMO_GUILDS.pixelForge}/stats`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText(), { timeout: 15_000 }).toBe('Statistics of Pixel Forge');
    for (const region of ['Overview', 'Tickets per day', 'Average response time', 'Top subjects']) {
      await page.getByRole('region', { name: region }).waitFor({ timeout: 10_000 });
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('shows not found for a server that did not make its statistics public', async () => {
    const page = await anonymousPage();
    await page.goto(`${demo.stack.url}/servers/${DEMO_GUILDS.studyHall}/stats`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText(), { timeout: 15_000 }).toBe('No public statistics here');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });
});
