import type { Browser, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import type { DemoStack } from './demo-stack';

export const DEMO_USERS = {
  alice: '1200000000000000001',
  bruno: '1200000000000000002',
  chen: '1200000000000000003',
  dana: '1200000000000000004',
  eli: '1200000000000000005',
} as const;

export const DEMO_GUILDS = {
  pixelForge: '1300000000000000001',
  nightOwls: '1300000000000000002',
  studyHall: '1300000000000000003',
  quietGarden: '1300000000000000004',
} as const;

/** A fresh browser context signed in as the demo user through the sandbox's consent page. */
export async function signInAs(browser: Browser, stack: DemoStack, userId: string, options: { locale?: string; keepTour?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  if (options.locale) {
    await context.addInitScript((locale) => localStorage.setItem('locale', locale), options.locale);
  }
  const page = await context.newPage();
  await page.goto(`${stack.url}/login`);
  await page.getByRole('button', { name: 'Sign in with Discord' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${stack.sandboxUrl}/oauth2/authorize`));
  await page.locator(`button[data-user-id="${userId}"]`).click();
  await page.waitForURL((url) => url.href.startsWith(stack.url) && !url.pathname.startsWith('/callback'));
  if (options.keepTour) return page;
  // A first sign-in greets the user with the welcome tour; tests of other screens skip it.
  const skip = page.getByRole('button', { name: 'Skip tour' });
  await skip.waitFor({ timeout: 10_000 });
  await skip.click();
  await skip.waitFor({ state: 'detached' });
  return page;
}

/** Serious and critical accessibility violations on the page as it is now. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // The screen as it settles: mid-fade, its text is fainter than it will be, and axe would measure
  // that. Endless animations (a spinner) are not waited for.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity),
  );
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}
