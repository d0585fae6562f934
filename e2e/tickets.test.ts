import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useDemoStack } from './support/demo-stack';
import { DEMO_GUILDS, DEMO_USERS, seriousA11yViolations, signInAs } from './support/session';
import { sendHelpDeskPanel, STUDY_HALL_HELP_CHANNEL, studyHallSettings } from './support/study-hall';

const demo = useDemoStack();

const STUDY_HALL = DEMO_GUILDS.studyHall;
const HELP_CHANNEL = STUDY_HALL_HELP_CHANNEL;

/** The admin's set-up, through the same API the settings screens use: a form question and a panel. */
async function setUpStudyHall(page: Page): Promise<void> {
  const { headers, base: settings, generalSubjectId } = await studyHallSettings(page, demo.stack);
  const question = await page.request.put(`${settings}/templates`, {
    headers,
    data: {
      subjectId: generalSubjectId,
      template: { type: 'Text', answerFormat: 'None', index: 0, question: 'Order number?', slug: 'order', values: { large: false, minLength: 1, maxLength: 20, placeholder: 'A-123' } },
    },
  });
  expect(question.status(), await question.text()).toBe(201);
  // The member answers the form to open a ticket; staff give a reason to close one.
  for (const path of ['requireForm', 'automation.requireCloseReason']) {
    const changed = await page.request.patch(`${settings}/subjects/${generalSubjectId}`, {
      headers,
      data: { serverId: STUDY_HALL, subjectId: generalSubjectId, path, operation: 'set', value: true },
    });
    expect(changed.status(), await changed.text()).toBe(200);
  }
  await sendHelpDeskPanel(page, demo.stack);
}

/** The sandbox's view of a channel as one member sees it. */
const channelPage = (channelId: string, userId: string) => `${demo.stack.sandboxUrl}/app/channels/${STUDY_HALL}/${channelId}?as=${userId}`;

async function say(page: Page, channelId: string, text: string): Promise<void> {
  await page.goto(channelPage(channelId, DEMO_USERS.eli));
  await page.getByRole('textbox', { name: /^Message #/ }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.waitForLoadState('load');
}

describe('a ticket from a panel click to My Tickets', () => {
  it('is opened by a member with the form, followed live by staff, closed with a reason and found again by its author', async () => {
    const admin = await signInAs(demo.browser, demo.stack, DEMO_USERS.chen);
    await setUpStudyHall(admin);
    await admin.context().close();

    // The member clicks the panel's button in the channel and answers the form.
    const member = await (await demo.browser.newContext()).newPage();
    await member.goto(channelPage(HELP_CHANNEL, DEMO_USERS.eli));
    await member.getByRole('button', { name: 'Open a ticket' }).click();
    const form = member.getByRole('dialog', { name: 'General Support' });
    await form.getByRole('textbox', { name: 'Order number?' }).fill('A-778');
    await form.getByRole('button', { name: 'General Support' }).click();
    const reply = member.getByRole('status');
    expect(await reply.innerText()).toContain('Your ticket is open: #ticket-0001');
    // Its link leads to the new channel.
    const link = (await reply.getByRole('link').first().getAttribute('href')) ?? '';
    const ticketId = new RegExp(`/channels/${STUDY_HALL}/(\\d+)`).exec(link)?.[1] ?? '';
    expect(ticketId).not.toBe('');
    await say(member, ticketId, 'My invoice INV-778 shows the wrong amount');

    // Staff find it in the server's tickets, with the answer and the message.
    const staff = await signInAs(demo.browser, demo.stack, DEMO_USERS.dana);
    await staff.goto(`${demo.stack.url}/staff/${STUDY_HALL}/tickets`);
    await staff.getByRole('link', { name: 'ticket-0001' }).click();
    const main = staff.getByRole('main');
    await expect.poll(() => main.innerText(), { timeout: 15_000 }).toContain('My invoice INV-778 shows the wrong amount');
    const answers = staff.getByRole('region', { name: 'Form answers' });
    expect(await answers.innerText()).toContain('Order number?');
    expect(await answers.innerText()).toContain('A-778');
    expect(await seriousA11yViolations(staff)).toEqual([]);

    // A new message in the channel appears in the open ticket without a reload.
    await say(member, ticketId, 'Any news on this?');
    await expect.poll(() => main.innerText(), { timeout: 20_000 }).toContain('Any news on this?');

    // Staff close it from the channel, giving the reason the subject asks for.
    const channel = await (await demo.browser.newContext()).newPage();
    await channel.goto(channelPage(ticketId, DEMO_USERS.dana));
    await channel.getByRole('button', { name: 'Close', exact: true }).click();
    const reasonForm = channel.getByRole('dialog', { name: 'Close ticket' });
    await reasonForm.getByRole('textbox', { name: 'Reason' }).fill('Refund sent');
    await reasonForm.getByRole('button', { name: 'Close ticket' }).click();
    // The subject waits its close delay, with a button to close at once.
    await channel.getByRole('button', { name: 'Close now' }).click();
    await expect.poll(() => main.innerText(), { timeout: 20_000 }).toContain('Refund sent');

    // The member finds it under My Tickets, and by a word of a message.
    const author = await signInAs(demo.browser, demo.stack, DEMO_USERS.eli);
    await author.goto(`${demo.stack.url}/tickets`);
    await author.getByRole('link', { name: 'ticket-0001' }).waitFor({ timeout: 15_000 });
    await author.getByRole('searchbox', { name: 'Search tickets' }).fill('INV-778');
    await author.getByRole('searchbox', { name: 'Search tickets' }).press('Enter');
    // The list shows what matched, marked.
    await author.locator('mark', { hasText: /^INV$/i }).first().waitFor({ timeout: 15_000 });
    expect(await author.getByRole('link', { name: 'ticket-0001' }).count()).toBe(1);
    expect(author.url()).toContain('q=INV-778');
    await author.getByRole('searchbox', { name: 'Search tickets' }).fill('nothing-like-this');
    await author.getByRole('searchbox', { name: 'Search tickets' }).press('Enter');
    await expect.poll(() => author.getByRole('link', { name: 'ticket-0001' }).count(), { timeout: 15_000 }).toBe(0);
    for (const page of [member, staff, channel, author]) await page.context().close();
  });
});
