import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { ADA, backend, CHARLES, errorBody, makeListItem, makeTicket, MARY, page, queryOf, SERVER } from '../test/fixtures';
import { MyTicketsPage } from './my-tickets-page';
import { ServerTicketsPage } from './server-tickets-page';

const LIST = `/api/support/servers/${SERVER}/tickets`;
const SEARCH = `/api/support/servers/${SERVER}/search`;
const SUBJECTS = `/api/support/servers/${SERVER}/subjects`;
const subjects = () =>
  json({
    page: 1,
    maxPage: 1,
    elements: [
      { subjectId: 's1', serverId: SERVER, name: 'Billing', deleted: false },
      { subjectId: 's2', serverId: SERVER, name: 'Old reports', deleted: true },
    ],
  });

// jsdom lays nothing out, so floating-ui takes every popover's anchor for hidden and hides the
// popover (display: none): queries inside popovers must include hidden elements.
const hidden = { hidden: true } as const;

beforeAll(() => {
  // Mantine's dropdowns scroll the active option into view.
  Element.prototype.scrollIntoView ??= () => undefined;
});

function openStaff(path = `/staff/${SERVER}/tickets`) {
  signIn(testUser());
  return renderPage(<ServerTicketsPage />, { pattern: '/staff/:serverId/tickets/:ticketId?', path });
}

function openPersonal(path = '/tickets') {
  signIn(testUser());
  return renderPage(<MyTicketsPage />, { pattern: '/tickets/:ticketId?', path });
}

/** Picks `option` in the Mantine select labelled `label`. */
async function pick(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  const input = screen.getByRole('textbox', { name: label });
  await user.click(input);
  const listbox = await waitFor(() => document.getElementById(input.getAttribute('aria-controls') ?? '') as HTMLElement);
  await user.click(await within(listbox).findByRole('option', { name: option, ...hidden }));
}

const params = (search: string) => Object.fromEntries(new URLSearchParams(search));

describe('ticket lists: filters, search and page in the address', { timeout: 20_000 }, () => {
  it('reads every filter, the search text and the page from the address, and asks for exactly that', async () => {
    const { calls } = backend({
      [SUBJECTS]: subjects,
      [`POST ${SEARCH}`]: () => json(page([makeListItem()], 2, 4)),
    });
    openStaff(`/staff/${SERVER}/tickets?q=refund&subject=s1&author=${CHARLES}&claimedBy=${ADA}&closedBy=${MARY}&active=1&page=2`);

    expect(await screen.findByText('Showing page 2 of 4')).toBeTruthy();
    const search = calls.find((call) => call.method === 'POST' && call.url.startsWith(SEARCH));
    expect(search?.body).toEqual({ text: 'refund' });
    expect(queryOf(search!)).toEqual({
      Author: CHARLES,
      Subject: 's1',
      Assignee: ADA,
      ClosedBy: MARY,
      Active: 'true',
      Page: '2',
      Amount: '25',
    });
    expect(calls.some((call) => call.url.startsWith(LIST))).toBe(false);

    expect((screen.getByRole('searchbox', { name: 'Search tickets' }) as HTMLInputElement).value).toBe('refund');
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Subject' }) as HTMLSelectElement).value).toBe('s1'));
    expect((screen.getByRole('textbox', { name: 'Author' }) as HTMLInputElement).value).toBe('Charles Babbage');
    expect((screen.getByRole('textbox', { name: 'Claimed by' }) as HTMLInputElement).value).toBe('Ada Lovelace');
    expect((screen.getByRole('switch', { name: 'Only active' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('switch', { name: 'Hide closed and resolved' }) as HTMLInputElement).checked).toBe(false);
  });

  it('writes each filter to the address, back to page 1, and asks again', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend({
      [SUBJECTS]: subjects,
      [LIST]: () => json(page([makeListItem()], 1, 3)),
    });
    const { router } = openStaff(`/staff/${SERVER}/tickets?page=3`);
    await screen.findByRole('table');

    await user.click(screen.getByRole('switch', { name: 'Only active' }));
    await waitFor(() => expect(params(router.state.location.search)).toEqual({ active: '1' }));

    await waitFor(() => expect(screen.getByRole('option', { name: 'Old reports (deleted)' })).toBeTruthy());
    await user.selectOptions(screen.getByRole('combobox', { name: 'Subject' }), 's1');
    await waitFor(() => expect(params(router.state.location.search)).toEqual({ active: '1', subject: 's1' }));

    await pick(user, 'Author', 'Charles Babbage');
    await waitFor(() => expect(params(router.state.location.search)).toEqual({ active: '1', subject: 's1', author: CHARLES }));
    await waitFor(() =>
      expect(calls.map((call) => call.url)).toContain(`${LIST}?Author=${CHARLES}&Subject=s1&Active=true&Page=1&Amount=25`),
    );

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('"Hide closed and resolved" asks the service to leave out closed and closing tickets', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend({
      [LIST]: (request) =>
        json(
          page(
            queryOf(request).HideResolved === 'true'
              ? [makeListItem()]
              : [makeListItem(), makeListItem({ ticketId: 't2', number: 13, name: 'almost-done', state: 'AutoClose' })],
          ),
        ),
    });
    const { router } = openStaff();
    expect(await screen.findByRole('link', { name: 'almost-done' })).toBeTruthy();

    await user.click(screen.getByRole('switch', { name: 'Hide closed and resolved' }));
    await waitFor(() => expect(params(router.state.location.search)).toEqual({ hideResolved: '1' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'almost-done' })).toBeNull());
    expect(screen.getByRole('link', { name: 'invoice-wrong' })).toBeTruthy();
    expect(calls.map((call) => call.url)).toContain(`${LIST}?HideResolved=true&Page=1&Amount=25`);
    const onlyActive = screen.getByRole('switch', { name: 'Only active' }) as HTMLInputElement;
    expect(onlyActive.checked && onlyActive.disabled).toBe(true);
  });

  it('personal list: servers from the personal servers call, then the subjects of the chosen one', async () => {
    const user = userEvent.setup({ delay: null });
    const OTHER = '200000000000000002';
    const { calls } = backend({
      '/api/support/personal/tickets': () => json(page([makeListItem()])),
      '/api/support/personal/tickets/servers': () =>
        json({
          page: 1,
          maxPage: 1,
          elements: [
            { serverId: SERVER, name: 'Analytical Engine', iconUrl: null },
            { serverId: OTHER, name: 'Difference Club', iconUrl: null },
          ],
        }),
      [`/api/support/personal/tickets/subjects/${OTHER}`]: () =>
        json({ page: 1, maxPage: 1, elements: [{ subjectId: 's9', name: 'Events' }] }),
    });
    const { router } = openPersonal();
    await screen.findByRole('table');
    const subject = screen.getByRole('combobox', { name: 'Subject' }) as HTMLSelectElement;
    expect(subject.disabled).toBe(true);
    expect(screen.getByText('Choose a server first')).toBeTruthy();

    await waitFor(() => expect(screen.getByRole('option', { name: 'Difference Club' })).toBeTruthy());
    await user.selectOptions(screen.getByRole('combobox', { name: 'Server' }), OTHER);
    await waitFor(() => expect(params(router.state.location.search)).toEqual({ server: OTHER }));
    await waitFor(() => expect(subject.disabled).toBe(false));
    await waitFor(() => expect(screen.getByRole('option', { name: 'Events' })).toBeTruthy());
    await user.selectOptions(subject, 's9');
    await waitFor(() => expect(params(router.state.location.search)).toEqual({ server: OTHER, subject: 's9' }));
    await waitFor(() =>
      expect(calls.map((call) => call.url)).toContain(`/api/support/personal/tickets?Server=${OTHER}&Subject=s9&Page=1&Amount=25`),
    );
  });

  it('searches as the user types, in the address, and marks where each ticket matched', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend({
      [LIST]: () => json(page([makeListItem()])),
      [`POST ${SEARCH}`]: () =>
        json(
          page([
            makeListItem({
              highlights: [
                {
                  field: 'message',
                  text: 'The invoice of **March** is wrong, <@100000000000000001>: the invoice of April too',
                  matches: [{ start: 4, length: 7 }, { start: 62, length: 7 }],
                },
                { field: 'name', text: 'invoice-wrong', matches: [{ start: 0, length: 7 }] },
              ],
            }),
          ]),
        ),
    });
    const { router } = openStaff();
    await screen.findByRole('table');

    await user.type(screen.getByRole('searchbox', { name: 'Search tickets' }), 'invoice');
    await waitFor(() => expect(params(router.state.location.search)).toEqual({ q: 'invoice' }));
    const search = await waitFor(() => {
      const found = calls.find((call) => call.method === 'POST');
      expect(found).toBeTruthy();
      return found!;
    });
    expect(search.body).toEqual({ text: 'invoice' });
    expect(queryOf(search)).toEqual({ Page: '1', Amount: '25' });

    const row = (await screen.findByText('Message:')).closest('tr') as HTMLElement;
    const marks = [...row.querySelectorAll('mark')].map((mark) => mark.textContent);
    expect(marks).toEqual(['invoice', 'invoice', 'invoice']);
    expect(within(row).getByText('Message:').parentElement?.textContent).toBe(
      // The text around the matches is read as plain text: no markdown marks, mentions as names.
      'Message: The invoice of March is wrong, @Ada Lovelace: the invoice of April too',
    );
    expect(within(row).queryByText('My invoice is wrong')).toBeNull();
  });

  it('shows the SPEC columns with number, attendees and last activity, and "Showing page X of Y"', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend({
      [LIST]: (request) =>
        json(page([makeListItem({ attendees: [ADA, MARY] })], Number(queryOf(request).Page), 3)),
      'POST /api/server/users': () => json([{ id: MARY, name: 'Mary Somerville', avatarUrl: null, color: null }]),
    });
    const { router } = openStaff();
    expect(await screen.findByText('Showing page 1 of 3')).toBeTruthy();
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'No.',
      'Ticket',
      'Author',
      'Subject',
      'Content',
      'Claimed by',
      'Closed by',
      'Attendees',
      'Last activity',
      'Date',
    ]);
    const cells = within(table).getAllByRole('row')[1]!.querySelectorAll('td');
    expect(cells[0]?.textContent).toBe('#12');
    expect(within(table).getByRole('link', { name: 'invoice-wrong' }).getAttribute('href')).toBe(`/staff/${SERVER}/tickets/t1`);
    expect(cells[7]?.textContent).toContain('Ada Lovelace');
    await waitFor(() => expect(cells[7]?.textContent).toContain('Mary Somerville'));
    expect(calls.find((call) => call.url === '/api/server/users')?.body).toEqual({ ids: [MARY], serverId: SERVER });
    expect(cells[8]?.querySelector('time')?.getAttribute('datetime')).toBe('2025-03-01T10:05:00.000Z');

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(params(router.state.location.search)).toEqual({ page: '2' }));
    expect(await screen.findByText('Showing page 2 of 3')).toBeTruthy();
    expect(calls.map((call) => call.url)).toContain(`${LIST}?Page=2&Amount=25`);
  });

  it("says 'Error loading tickets', and 'No tickets match' with the way back when nothing matches", async () => {
    const user = userEvent.setup({ delay: null });
    let fail = true;
    backend({ [LIST]: () => (fail ? errorBody(403) : json(page([]))) });
    const { router } = openStaff(`/staff/${SERVER}/tickets?author=${CHARLES}`);
    expect(await screen.findByText('Error loading tickets')).toBeTruthy();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No tickets match')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show all tickets' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText('No tickets yet')).toBeTruthy();
  });
});

describe('ticket lists: a ticket and back', { timeout: 20_000 }, () => {
  const scrollTo = vi.fn();
  afterEach(() => {
    window.scrollTo = () => {};
    Reflect.deleteProperty(window, 'scrollY');
  });

  it('keeps the list (and its query) while a ticket is open, and comes back where it was', async () => {
    const user = userEvent.setup({ delay: null });
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
    const { calls } = backend({
      '/api/support/personal/tickets': () => json(page([makeListItem()], 2, 2)),
      '/api/support/personal/tickets/t1': () => json(makeTicket()),
    });
    const { router } = openPersonal('/tickets?page=2&active=1');
    const table = await screen.findByRole('table');
    Object.defineProperty(window, 'scrollY', { value: 640, configurable: true });
    window.dispatchEvent(new Event('scroll'));

    await user.click(within(table).getByRole('link', { name: 'invoice-wrong' }));
    expect(router.state.location.pathname + router.state.location.search).toBe('/tickets/t1?page=2&active=1');
    expect(await screen.findByRole('heading', { level: 2, name: '#12 invoice-wrong' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    expect(screen.getByRole('link', { name: 'Back to My Tickets' }).getAttribute('href')).toBe('/tickets?page=2&active=1');

    const listCalls = calls.filter((call) => call.url.startsWith('/api/support/personal/tickets?')).length;
    await act(() => router.navigate(-1));
    expect(screen.getByRole('table')).toBe(table);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 640);
    expect(calls.filter((call) => call.url.startsWith('/api/support/personal/tickets?'))).toHaveLength(listCalls);
  });
});
