import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { MyTicketsPage } from './my-tickets-page';

const SERVER = '200000000000000003';
const notFound = () =>
  json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });

const ticket = {
  ticketId: 't1',
  number: 12,
  name: 'help-ada',
  author: '100000000000000001',
  server: { serverId: SERVER, name: 'Poetry Science', iconUrl: null },
  subject: { subjectId: 's1', name: 'Questions' },
  createdAt: '2025-03-01T10:00:00.000Z',
  state: 'Closed',
  assignee: null,
  closed: { closedAt: '2025-03-02T10:00:00.000Z', force: false, closedBy: '100000000000000001', reason: null },
  users: [{ id: '100000000000000001', name: 'Ada Lovelace', avatarUrl: null, color: null }],
};

function open(path: string, answer: (request: Recorded) => Response) {
  signIn(testUser());
  const fetched = mockFetch(answer);
  const view = renderPage(<MyTicketsPage />, { pattern: '/tickets/:ticketId?', path });
  return { ...fetched, ...view };
}

describe('MyTicketsPage', () => {
  it('says "You have no tickets yet" when the list is empty', async () => {
    open('/tickets', () => json({ page: 1, maxPage: 0, elements: [] }));
    expect(await screen.findByRole('heading', { level: 1, name: 'My Tickets' })).toBeTruthy();
    expect(await screen.findByText('You have no tickets yet')).toBeTruthy();
    expect(screen.queryByText('Error loading tickets')).toBeNull();
  });

  it("says 'Error loading tickets' when the call answers 404, rather than an empty list", async () => {
    open('/tickets', notFound);
    expect(await screen.findByText('Error loading tickets')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByText('You have no tickets yet')).toBeNull();
  });

  it("says 'Error loading tickets' on another failure", async () => {
    open('/tickets', () =>
      json({ statusCode: 403, error: 'Forbidden', code: 'forbidden', message: 'no' }, { status: 403 }),
    );
    expect(await screen.findByText('Error loading tickets')).toBeTruthy();
  });

  it('filters by the server in ?server=, and the filter changes it', async () => {
    const { calls, router } = open(`/tickets?server=${SERVER}`, (request) =>
      request.url.startsWith('/api/support/personal/tickets/servers')
        ? json({ page: 1, maxPage: 1, elements: [ticket.server] })
        : json({ page: 1, maxPage: 1, elements: [{ ...ticket, highlights: [], lastMessage: null, lastActivity: ticket.createdAt, attendees: [] }] }),
    );
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('link', { name: 'help-ada' }).getAttribute('href')).toBe(`/tickets/t1?server=${SERVER}`);
    expect(within(table).getByText('Poetry Science')).toBeTruthy();
    expect(screen.getByText('Showing page 1 of 1')).toBeTruthy();
    expect(calls.map((call) => call.url)).toContain(`/api/support/personal/tickets?Server=${SERVER}&Page=1&Amount=25`);

    const filter = screen.getByRole('combobox', { name: 'Server' });
    await waitFor(() => expect((filter as HTMLSelectElement).value).toBe(SERVER));
    await userEvent.selectOptions(filter, '');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/support/personal/tickets?Page=1&Amount=25')).toBe(true));
  });

  it('shows one ticket at /tickets/:ticketId', async () => {
    open('/tickets/t1', (request) =>
      request.url === '/api/support/personal/tickets/t1'
        ? json({ ...ticket, messages: [], members: [], templateAnswers: [] })
        : notFound(),
    );
    expect(await screen.findByRole('heading', { level: 2, name: '#12 help-ada' })).toBeTruthy();
    expect(screen.getAllByText('Closed').length).toBeGreaterThan(0);
    expect(screen.queryByText('Live')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to My Tickets' }).getAttribute('href')).toBe('/tickets');
  });

  it("says 'Could not load ticket' for one that is not there", async () => {
    open('/tickets/gone', notFound);
    expect(await screen.findByText('Could not load ticket')).toBeTruthy();
  });
});
