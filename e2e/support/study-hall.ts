import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { DemoStack } from './demo-stack';
import { DEMO_GUILDS } from './session';

/** Study Hall's #help, where the tests post their panel. */
export const STUDY_HALL_HELP_CHANNEL = '1300000000000000604';

/** The signed-in page's session token, for calling the API as that user. */
export const sessionTokenOf = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { token?: string } }).state?.token ?? '');

/** The settings API of Study Hall as the page's user: its base, headers, and the General Support subject. */
export async function studyHallSettings(page: Page, stack: DemoStack) {
  const headers = { Authorization: `Bearer ${await sessionTokenOf(page)}` };
  const base = `${stack.url}/api/settings/servers/${DEMO_GUILDS.studyHall}`;
  const subjects = (await (await page.request.get(`${base}/subjects`, { headers })).json()) as { subjectId: string; name: string }[];
  const general = subjects.find((s) => s.name === 'General Support')!;
  return { headers, base, generalSubjectId: general.subjectId };
}

/** Sends a one-button "Open a ticket" panel for General Support in #help; answers its message id. */
export async function sendHelpDeskPanel(page: Page, stack: DemoStack): Promise<string> {
  const { headers, base, generalSubjectId } = await studyHallSettings(page, stack);
  const panel = await page.request.post(`${base}/panels`, {
    headers,
    data: {
      name: 'Help desk',
      draft: false,
      type: 'BUTTON',
      channelId: STUDY_HALL_HELP_CHANNEL,
      message: { content: 'Need help? Open a ticket.', embeds: [] },
      subjects: [{ subjectId: generalSubjectId, text: 'Open a ticket', style: 'Primary', emoji: null }],
    },
  });
  expect(panel.status(), await panel.text()).toBe(201);
  return ((await panel.json()) as { integrationDetails: { messageId: string } }).integrationDetails.messageId;
}
