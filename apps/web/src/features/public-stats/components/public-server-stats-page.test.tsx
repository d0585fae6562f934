import { screen, within } from '@testing-library/react';
import type { PublicServerStats } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { renderPage } from '@/test/render-page';
import { PublicServerStatsPage } from './public-server-stats-page';

const SERVER = '200000000000000001';
const URL = `/api/support/public/servers/${SERVER}/stats`;
const days = (counts: number[]) => counts.map((count, index) => ({ date: `2025-03-${String(index + 1).padStart(2, '0')}`, count }));

function open() {
  return renderPage(<PublicServerStatsPage />, { pattern: '/servers/:serverId/stats', path: `/servers/${SERVER}/stats` });
}

describe('PublicServerStatsPage', () => {
  it('shows the statistics a server made public', async () => {
    const stats: PublicServerStats = {
      serverId: SERVER,
      name: 'Analytical Engine',
      totals: { activeTickets: 3, totalTickets: 120, totalMessages: 4500 },
      ticketsPerDay: days([1, 0, 4]),
      responseTimePerDay: days([90, 0, 30]),
      topSubjects: [{ subjectId: 's1', serverId: SERVER, name: 'Billing', amount: 4 }],
    };
    mockFetch((request) => (request.url.split('?')[0] === URL ? json(stats) : json({}, { status: 404 })));
    open();

    expect(await screen.findByRole('heading', { level: 1, name: 'Statistics of Analytical Engine' })).toBeTruthy();
    const overview = within(screen.getByRole('region', { name: 'Overview' }));
    expect(overview.getByText('Tickets in total').nextElementSibling?.textContent).toBe('120');
    expect(within(screen.getByRole('region', { name: 'Tickets per day' })).getByText('5 tickets in the last 30 days')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Top subjects' })).getByText('Billing')).toBeTruthy();
  });

  it('says there is nothing to see for a server that did not make its statistics public', async () => {
    mockFetch(() => json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'No public statistics' }, { status: 404 }));
    open();

    expect(await screen.findByRole('heading', { level: 1, name: 'No public statistics here' })).toBeTruthy();
    expect(screen.getByText('This server does not exist or its admins have not made its statistics public.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
  });
});
