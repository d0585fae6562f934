import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useDemoStack } from './support/demo-stack';
import { DEMO_GUILDS, DEMO_USERS, seriousA11yViolations, signInAs } from './support/session';

/**
 * Premium in the browser (issue 13): buying by card and by PayPal on the sandbox's provider pages,
 * the plan's limit following the subscription, upgrade, a scheduled downgrade and its cancelling,
 * transfer, cancelling within 7 days with its refund receipt, and renewals moved by the sandbox's
 * clock, a failed one included.
 */
const demo = useDemoStack();
const DAY = 86_400;

const textOf = (page: Page) => page.locator('body').innerText();
const premiumOf = (serverId: string) => `${demo.stack.url}/staff/${serverId}/premium`;

async function untilText(page: Page, text: string | RegExp, timeout = 20_000): Promise<void> {
  await expect.poll(() => textOf(page), { timeout }).toMatch(typeof text === 'string' ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : text);
}

/** The four steps of the Premium page, ending on the provider's page. */
async function buy(page: Page, serverId: string, plan: 'Premium' | 'Enterprise', period: string, method: 'Card' | 'PayPal'): Promise<void> {
  await page.goto(premiumOf(serverId));
  const steps = page.getByRole('region', { name: 'Buy a plan' });
  await steps.getByRole('button', { name: 'Next' }).click();
  await steps.getByRole('radio', { name: new RegExp(`^${plan}`) }).click();
  await steps.getByRole('button', { name: 'Next' }).click();
  await steps.getByRole('radio', { name: new RegExp(`^${period}`) }).click();
  await steps.getByRole('button', { name: 'Next' }).click();
  await steps.getByRole('radio', { name: new RegExp(`^${method}`) }).click();
  await steps.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL((url) => url.href.startsWith(demo.stack.sandboxUrl), { timeout: 20_000 });
}

/** Pays on the sandbox's hosted checkout page with a test card. */
async function payByCard(page: Page, card = '4242 4242 4242 4242'): Promise<void> {
  const email = page.locator('#email');
  if ((await email.count()) > 0 && (await email.inputValue()) === '') await email.fill('buyer@example.com');
  await page.locator('#cardNumber').fill(card);
  await page.locator('#expiry').fill('12 / 34');
  await page.locator('#cvc').fill('123');
  await page.getByRole('button', { name: 'Pay' }).click();
}

/** The card of this server's subscription whose title reads `title` (e.g. "Premium · Monthly"). */
const subscriptionCard = (page: Page, title: string) =>
  page
    .getByRole('region', { name: 'This server’s subscription' })
    .locator('li[data-subscription]')
    .filter({ has: page.getByRole('heading', { name: title }) });

async function confirmDialog(page: Page): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: /^(Confirm|Yes)$/ }).click();
}

async function advanceSandboxClock(seconds: number): Promise<void> {
  const response = await fetch(`${demo.stack.sandboxUrl}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  expect(response.status).toBeLessThan(300);
}

describe('Premium', () => {
  it('by card: buy, limit 25, upgrade, schedule and cancel a downgrade, transfer, cancel within 7 days with a refund receipt', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.bruno);
    await page.goto(`${demo.stack.url}/staff/${DEMO_GUILDS.pixelForge}/settings`);
    await untilText(page, /of 3 subjects used/);

    await buy(page, DEMO_GUILDS.pixelForge, 'Premium', 'Monthly', 'Card');
    await payByCard(page);
    await page.waitForURL(/\/premium\/success\?/, { timeout: 20_000 });
    await untilText(page, 'Thank you! Your plan is active.', 40_000);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(`${demo.stack.url}/staff/${DEMO_GUILDS.pixelForge}/settings`);
    await untilText(page, /of 25 subjects used/);

    await page.goto(premiumOf(DEMO_GUILDS.pixelForge));
    const premium = subscriptionCard(page, 'Premium · Monthly');
    await premium.waitFor({ timeout: 20_000 });
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await premium.innerText()).toContain('$2.25 billed every month');

    // Upgrade: applied now, prorated.
    await premium.getByRole('button', { name: 'Change plan' }).click();
    await expect.poll(() => page.getByRole('dialog').innerText()).toContain('The upgrade applies now');
    await confirmDialog(page);
    await untilText(page, 'The plan was changed.');
    const enterprise = subscriptionCard(page, 'Enterprise · Monthly');
    await enterprise.waitFor({ timeout: 20_000 });
    await page.goto(`${demo.stack.url}/staff/${DEMO_GUILDS.pixelForge}/settings`);
    await untilText(page, /of 100 subjects used/);

    // Downgrade: scheduled for the period's end, then dropped.
    await page.goto(premiumOf(DEMO_GUILDS.pixelForge));
    await enterprise.getByRole('button', { name: 'Change plan' }).click();
    await page.getByRole('dialog').getByRole('radio', { name: /^Premium/ }).click();
    await confirmDialog(page);
    await untilText(page, 'The change is scheduled for');
    await expect.poll(() => enterprise.innerText(), { timeout: 20_000 }).toMatch(/Changes to Premium, Monthly, on/);
    await enterprise.getByRole('button', { name: 'Cancel scheduled change' }).click();
    await confirmDialog(page);
    await untilText(page, 'The scheduled change was cancelled.');
    await expect.poll(() => enterprise.innerText(), { timeout: 20_000 }).not.toMatch(/Changes to/);

    // Transfer to Night Owls, where Bruno is the owner: Pixel Forge returns to Free.
    await enterprise.getByRole('button', { name: 'Transfer' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Move to' }).click();
    await dialog.getByRole('option', { name: 'Night Owls' }).click();
    await confirmDialog(page);
    await untilText(page, 'The subscription now applies to Night Owls.');
    await untilText(page, 'No subscription applies to this server, so it is on the Free plan.');

    // Cancel within 7 days: refunded in full, the plan ends now.
    const moved = page.getByRole('region', { name: 'Your subscriptions on other servers' }).locator('li[data-subscription]').filter({ hasText: 'Enterprise' });
    await moved.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect.poll(() => page.getByRole('dialog').innerText()).toContain('it is refunded in full and the plan ends now');
    await confirmDialog(page);
    await untilText(page, 'The subscription was cancelled and your payment refunded.');

    await page.goto(`${demo.stack.url}/profile`);
    const receipts = page.getByRole('region', { name: 'Receipts' });
    await expect.poll(() => receipts.locator('li[data-kind="refund"]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await receipts.locator('li[data-kind="payment"]').count()).toBeGreaterThanOrEqual(2);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('by PayPal: a cancelled approval changes nothing; an approved one is verified; renewals follow the clock, a failed one pauses the plan', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.alice);
    await buy(page, DEMO_GUILDS.pixelForge, 'Premium', 'Monthly', 'PayPal');
    await page.getByRole('button', { name: /^Cancel and return/ }).click();
    await page.waitForURL(/\/premium\/cancel/, { timeout: 20_000 });
    await untilText(page, 'PayPal approval was cancelled');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await buy(page, DEMO_GUILDS.pixelForge, 'Premium', 'Monthly', 'PayPal');
    await page.getByRole('button', { name: 'Agree & Subscribe' }).click();
    await page.waitForURL(/\/premium\/success\?/, { timeout: 20_000 });
    await untilText(page, 'Thank you! Your plan is active.', 40_000);

    await page.goto(premiumOf(DEMO_GUILDS.pixelForge));
    const card = subscriptionCard(page, 'Premium · Monthly');
    await card.waitFor({ timeout: 20_000 });
    expect(await card.innerText()).toContain('PayPal');

    // A month later PayPal charges again: a second receipt.
    await advanceSandboxClock(31 * DAY);
    await page.goto(`${demo.stack.url}/profile`);
    const receipts = page.getByRole('region', { name: 'Receipts' });
    await expect
      .poll(async () => {
        await page.reload();
        await receipts.locator('li[data-receipt]').first().waitFor({ timeout: 10_000 });
        return receipts.locator('li[data-kind="payment"]').filter({ hasText: 'PayPal' }).count();
      }, { timeout: 40_000, interval: 1000 })
      .toBe(2);

    // The next renewal fails: the subscription shows the failed payment.
    const subscriptionId = await subscriptionIdAtPaypal(page);
    const fail = await fetch(`${demo.stack.sandboxUrl}/_sandbox/paypal/subscriptions/${subscriptionId}/fail-next-payment`, { method: 'POST' });
    expect(fail.status).toBeLessThan(300);
    await advanceSandboxClock(31 * DAY);
    await page.goto(premiumOf(DEMO_GUILDS.pixelForge));
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByRole('heading', { name: 'This server’s subscription' }).waitFor();
        return textOf(page);
      }, { timeout: 40_000, interval: 1000 })
      .toContain('Payment failed');
    await page.context().close();
  });
});

/** The PayPal subscription id of Pixel Forge's subscription, as the payment service reports it to the sandbox. */
async function subscriptionIdAtPaypal(page: Page): Promise<string> {
  const state = (await (await fetch(`${demo.stack.sandboxUrl}/_sandbox/paypal`)).json()) as { subscriptions: { id: string; status: string; custom_id?: string }[] };
  const live = state.subscriptions.filter((s) => s.custom_id === DEMO_GUILDS.pixelForge && s.status === 'ACTIVE');
  expect(live, await page.url()).toHaveLength(1);
  return live[0]!.id;
}
