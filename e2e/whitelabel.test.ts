import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useDemoStack } from './support/demo-stack';
import { DEMO_GUILDS, DEMO_USERS, seriousA11yViolations, signInAs } from './support/session';
import { sendHelpDeskPanel, STUDY_HALL_HELP_CHANNEL } from './support/study-hall';

/**
 * A white-label bot in the browser: Study Hall (Enterprise in demo mode) sets up the sandbox's
 * "Study Buddy" bot, sees it come online, and from then on its panel and its tickets speak as that
 * bot; once the token is revoked on the platform the page says the bot failed, and why.
 */
const demo = useDemoStack();

const STUDY_HALL = DEMO_GUILDS.studyHall;
const HELP_CHANNEL = STUDY_HALL_HELP_CHANNEL;
/** The sandbox's Study Buddy application: a member of Study Hall. */
const STUDY_BUDDY = { id: '1100000000000000101', token: 'MTEwMDAwMDAwMDAwMDAwMDEwMQ.E--lXY.A3AbhSLdCfjpzJY3v-QUqFoMAqo6qhdTLY5tuE' };

interface SandboxMessage {
  id: string;
  authorId: string;
  content: string;
  deleted: boolean;
}

async function messagesIn(channelId: string): Promise<SandboxMessage[]> {
  const response = await fetch(`${demo.stack.sandboxUrl}/_sandbox/messages?channelId=${channelId}&includeDeleted=false`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: SandboxMessage[] }).messages;
}


/** The state the page's status badge shows (SPEC §4's state behind the label). */
const botStatus = (page: Page) => page.getByRole('region', { name: 'Your bot' }).getByRole('status');
const shownState = (page: Page) => botStatus(page).locator('[data-state]').getAttribute('data-state');

describe('white-label bot', () => {
  it('is set up with its token, runs, speaks for the server in panels and tickets, and shows why it failed once revoked', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.chen);
    await page.goto(`${demo.stack.url}/staff/${STUDY_HALL}/whitelabel`);
    await expect.poll(() => shownState(page), { timeout: 15_000 }).toBe('ReadyToSetup');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A token the platform does not know is refused on its field.
    const token = page.getByLabel(/^Bot token/);
    await token.fill('not-a-real-token');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Invalid token', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await token.getAttribute('aria-invalid')).toBe('true');
    expect(await shownState(page)).toBe('ReadyToSetup');

    // Study Buddy's token: saved, started, followed until it runs.
    await token.fill(STUDY_BUDDY.token);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const state = (await shownState(page)) ?? '';
          seen.add(state);
          return state;
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBe('Running');
    expect([...seen].some((state) => state === 'Deploying' || state === 'Starting'), [...seen].join(', ')).toBe(true);
    await expect.poll(() => botStatus(page).innerText()).toContain('Active');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The panel goes out as Study Buddy.
    const panelMessageId = await sendHelpDeskPanel(page, demo.stack);
    const panelMessage = (await messagesIn(HELP_CHANNEL)).find((m) => m.id === panelMessageId);
    expect(panelMessage?.authorId).toBe(STUDY_BUDDY.id);

    // A member clicks its button: the ticket opens, and its welcome comes from Study Buddy too.
    const member = await (await demo.browser.newContext()).newPage();
    await member.goto(`${demo.stack.sandboxUrl}/app/channels/${STUDY_HALL}/${HELP_CHANNEL}?as=${DEMO_USERS.eli}`);
    await member.getByRole('button', { name: 'Open a ticket' }).click();
    const reply = member.getByRole('status');
    await expect.poll(() => reply.innerText(), { timeout: 15_000 }).toContain('Your ticket is open');
    const link = (await reply.getByRole('link').first().getAttribute('href')) ?? '';
    const ticketChannel = new RegExp(`/channels/${STUDY_HALL}/(\\d+)`).exec(link)?.[1] ?? '';
    expect(ticketChannel).not.toBe('');
    await expect.poll(async () => (await messagesIn(ticketChannel))[0]?.authorId, { timeout: 15_000 }).toBe(STUDY_BUDDY.id);
    await member.context().close();

    // The token is revoked on the platform: the page shows the bot failed, with a reason.
    const revoked = await fetch(`${demo.stack.sandboxUrl}/_sandbox/applications/${STUDY_BUDDY.id}/token`, { method: 'DELETE' });
    expect(revoked.status).toBeLessThan(300);
    await expect
      .poll(
        async () => {
          await page.reload();
          await botStatus(page).locator('[data-state]').waitFor({ timeout: 10_000 });
          return shownState(page);
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe('Failed');
    const failure = page.getByRole('alert').filter({ hasText: 'Deployment failed' });
    await expect.poll(() => failure.innerText()).toMatch(/Reason: \S/);
    expect(await botStatus(page).innerText()).toContain('Failed');
    await page.context().close();
  }, 60_000);
});
