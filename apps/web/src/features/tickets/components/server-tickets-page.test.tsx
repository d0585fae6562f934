import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { backend, errorBody, makeListItem, notFound, page, SERVER } from '../test/fixtures';
import { ServerTicketsPage } from './server-tickets-page';

const LIST = `/api/support/servers/${SERVER}/tickets`;

function open(path = `/staff/${SERVER}/tickets`) {
  signIn(testUser());
  return renderPage(<ServerTicketsPage />, { pattern: '/staff/:serverId/tickets/:ticketId?', path });
}

describe('ServerTicketsPage', () => {
  it('frames the list: title, server, breadcrumb back to the dashboard and the server', async () => {
    backend({ [LIST]: () => json(page([])) });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Tickets' })).toBeTruthy();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/');
    expect(crumbs.getByRole('link', { name: 'Analytical Engine' }).getAttribute('href')).toBe(`/staff/${SERVER}`);
    expect(crumbs.getByText('Tickets').getAttribute('aria-current')).toBe('page');
    expect(await screen.findByText('Free · level 0')).toBeTruthy();
  });

  it('says "No tickets yet" for an empty list', async () => {
    backend({ [LIST]: () => json(page([], 1, 0)) });
    open();
    expect(await screen.findByText('No tickets yet')).toBeTruthy();
    expect(screen.queryByText(/Showing page/)).toBeNull();
  });

  it("says 'Error loading tickets' when the list answers 404, rather than an empty list", async () => {
    backend();
    open();
    expect(await screen.findByText('Error loading tickets')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByText('No tickets yet')).toBeNull();
  });

  it('lists them in the frame, on the page of the address', async () => {
    const { calls } = backend({ [LIST]: () => json(page([makeListItem({ ticketId: 't7', number: 7, name: 'ticket-7' })], 2, 3)) });
    open(`/staff/${SERVER}/tickets?page=2`);
    expect(await screen.findByText('Showing page 2 of 3')).toBeTruthy();
    const table = screen.getByRole('table');
    // The ticket opens with the list's query, so the way back shows the same page.
    expect(within(table).getByRole('link', { name: 'ticket-7' }).getAttribute('href')).toBe(`/staff/${SERVER}/tickets/t7?page=2`);
    expect(within(table).getByText('#7')).toBeTruthy();
    expect(calls.some((call) => call.url === `${LIST}?Page=2&Amount=25`)).toBe(true);
  });

  it("another failure is 'Error loading tickets' too", async () => {
    backend({ [LIST]: () => errorBody(403) });
    open();
    expect(await screen.findByText('Error loading tickets')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('a ticket the user may not see says so (SPEC §8)', async () => {
    backend({ [`${LIST}/t1`]: () => errorBody(403) });
    open(`/staff/${SERVER}/tickets/t1`);
    expect(await screen.findByText("You don't have permission to view this ticket.")).toBeTruthy();
  });

  it('a server without the bot (404) offers to add it instead of the tickets', async () => {
    mockFetch((request) =>
      request.url.endsWith('/login/config')
        ? json({ inviteUrl: 'https://discord.example/oauth2/authorize?client_id=1&scope=bot' })
        : notFound(),
    );
    open();
    expect(await screen.findByText('The bot is not on this server')).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Begin setup' });
    expect(new URL(link.getAttribute('href') ?? '').searchParams.get('guild_id')).toBe(SERVER);
    expect(screen.queryByText('Error loading tickets')).toBeNull();
  });
});
