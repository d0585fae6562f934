import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ServerDetails } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { rangeDates } from '../stats-range';
import { StaffHomePage } from './staff-home-page';

const SERVER = '200000000000000001';
const STATS = `/api/support/servers/${SERVER}/stats`;
const notFound = () =>
  json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });
const details: ServerDetails = {
  serverId: SERVER,
  name: 'Analytical Engine',
  iconUrl: null,
  active: true,
  subscription: 'premium',
  bannerUrl: null,
  ownerId: '100000000000000001',
  memberCount: 42,
};

function backend(routes: Record<string, () => Response> = {}) {
  return mockFetch((request) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === `/api/server/servers/${SERVER}`) return json(details);
    return routes[path]?.() ?? notFound();
  });
}

function open() {
  signIn(testUser());
  return renderPage(<StaffHomePage />, { pattern: '/staff/:serverId', path: `/staff/${SERVER}` });
}

const panel = (title: string) => within(screen.getByRole('region', { name: title }));
const days = (counts: number[]) =>
  counts.map((count, index) => ({ date: `2025-03-0${index + 1}`, count }));
const noItems = () => json({ page: 1, maxPage: 0, elements: [] });

/** What the stats calls answer for a server where nothing has happened yet. */
const NOTHING_YET: Record<string, () => Response> = {
  [`${STATS}/top/simple`]: () => json({ activeTickets: 0, totalTickets: 0, totalMessages: 0 }),
  [`${STATS}/daily/tickets`]: () => json(days([0, 0, 0])),
  [`${STATS}/daily/messages`]: () => json(days([0, 0, 0])),
  [`${STATS}/daily/response-time`]: () => json(days([0, 0, 0])),
  [`${STATS}/top/subjects`]: noItems,
  [`${STATS}/top/supporters`]: noItems,
  [`/api/files/servers/${SERVER}/stats`]: () => json({ spaceUsed: 0, subjects: [] }),
};

describe('StaffHomePage', () => {
  it('heads the page with the server and its plan', async () => {
    backend();
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Analytical Engine' })).toBeTruthy();
    expect(await screen.findByText('Premium · level 1')).toBeTruthy();
    expect(screen.getByText('Server dashboard')).toBeTruthy();
  });

  it('shows each panel’s honest empty state for a server with nothing yet', async () => {
    backend(NOTHING_YET);
    open();
    await waitFor(() => expect(document.querySelectorAll('[data-empty]')).toHaveLength(8));
    expect(panel('Overview').getByText('No tickets yet')).toBeTruthy();
    expect(panel('Tickets per day').getByText('No tickets in the last 7 days')).toBeTruthy();
    expect(panel('Ticket messages').getByText('No messages in the last 7 days')).toBeTruthy();
    expect(panel('Average response time').getByText('No tickets answered in the last 7 days')).toBeTruthy();
    expect(panel('Top subjects').getByText('No tickets in the last 7 days')).toBeTruthy();
    expect(panel('Top supporters').getByText('No tickets handled yet')).toBeTruthy();
    expect(panel('Popular subjects').getByText('No tickets yet')).toBeTruthy();
    expect(panel('Storage usage').getByText('No files stored yet')).toBeTruthy();
    expect(screen.queryByText('Error loading stats')).toBeNull();
  });

  it("says 'Error loading stats' in every panel whose call answers 404, rather than an empty state", async () => {
    backend();
    open();
    await waitFor(() => expect(screen.getAllByText('Error loading stats')).toHaveLength(8));
    expect(document.querySelectorAll('[data-empty]')).toHaveLength(0);
    // No made-up numbers anywhere.
    expect(screen.queryByText(/^\d+$/)).toBeNull();
  });

  it('draws the data it gets, and the period toggle asks for the other range', async () => {
    const { calls } = backend({
      [`${STATS}/top/simple`]: () => json({ activeTickets: 3, totalTickets: 120, totalMessages: 4500 }),
      [`${STATS}/daily/tickets`]: () => json(days([1, 0, 4])),
      [`${STATS}/daily/response-time`]: () => json(days([60, 0, 180])),
      [`${STATS}/top/supporters`]: () =>
        json({ page: 1, maxPage: 1, elements: [{ id: '1', name: 'Ada Lovelace', avatarUrl: null, color: null, amount: 9 }] }),
      [`/api/files/servers/${SERVER}/stats`]: () =>
        json({ spaceUsed: 1024 ** 3, subjects: [{ subjectId: 's1', serverId: SERVER, name: 'Billing', spaceUsed: 1024 ** 3 }] }),
    });
    open();

    const overview = await waitFor(() => {
      const region = panel('Overview');
      region.getByText('120');
      return region;
    });
    expect(overview.getByText('3')).toBeTruthy();
    expect(overview.getByText('4,500')).toBeTruthy();
    await waitFor(() => expect(panel('Tickets per day').getByText('5 tickets in the last 7 days')).toBeTruthy());
    // Screen readers get the values as a table.
    expect(panel('Tickets per day').getByRole('table', { name: 'Tickets per day' })).toBeTruthy();
    expect(panel('Average response time').getByText('2 min on average in the last 7 days')).toBeTruthy();
    expect(panel('Top supporters').getByText('Ada Lovelace')).toBeTruthy();
    expect(panel('Top supporters').getByText('9 tickets')).toBeTruthy();
    expect(panel('Storage usage').getByText('1 GB of 5 GB used')).toBeTruthy();

    const week = rangeDates('week');
    const month = rangeDates('month');
    const asked = (range: { startDate: string; endDate: string }) =>
      calls.some((call) => call.url === `${STATS}/daily/tickets?startDate=${range.startDate}&endDate=${range.endDate}`);
    expect(asked(week)).toBe(true);
    expect(asked(month)).toBe(false);
    await userEvent.click(screen.getByRole('radio', { name: 'Month' }));
    await waitFor(() => expect(asked(month)).toBe(true));
    await waitFor(() => expect(panel('Tickets per day').getByText('5 tickets in the last 30 days')).toBeTruthy());
  });

  it("says 'Error loading stats' in the panel whose call failed, and only there", async () => {
    backend({
      ...NOTHING_YET,
      [`${STATS}/top/simple`]: () =>
        json({ statusCode: 403, error: 'Forbidden', code: 'forbidden', message: 'no' }, { status: 403 }),
    });
    open();
    await waitFor(() => expect(panel('Overview').getByText('Error loading stats')).toBeTruthy());
    expect(screen.getAllByText('Error loading stats')).toHaveLength(1);
    expect(panel('Overview').getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
