import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ServerMember, Ticket, TicketAccess } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { json } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { ADA, backend, CHARLES, errorBody, makeTicket, MARY, SERVER, users } from '../../test/fixtures';
import { MyTicketsPage } from '../my-tickets-page';
import { ServerTicketsPage } from '../server-tickets-page';

const TICKET = `/api/support/servers/${SERVER}/tickets/t1`;
const GRACE = '100000000000000004';
const MARY_USER = { id: MARY, name: 'Mary Somerville', avatarUrl: null, color: null };
const GRACE_USER = { id: GRACE, name: 'Grace Hopper', avatarUrl: null, color: null };
const hidden = { hidden: true } as const;

const ACCESS: TicketAccess = {
  userPermissions: { allow: ['SendMessages', 'AttachFiles'], deny: [] },
  claimPermissions: { allow: [], deny: ['SendMessages'] },
  staffPermissions: { allow: [], deny: [] },
  staffRoles: ['300000000000000002'],
};

const member = (userId: string, displayName: string): ServerMember => ({
  userId,
  username: displayName.toLowerCase().replace(' ', '.'),
  displayName,
  color: null,
  nickname: null,
  userAvatarUrl: null,
  serverAvatarUrl: null,
});

/** The server as staff see it: the ticket as it is now, the member search, and the member calls. */
function staffBackend(initial: Partial<Ticket> = {}, addAnswer?: () => Response) {
  let ticket = makeTicket({ members: [MARY], users: [...users, MARY_USER], access: ACCESS, ...initial });
  const recorded = backend({
    [`GET ${TICKET}`]: () => json(ticket),
    [`GET /api/files/files/servers/${SERVER}/tickets/t1`]: () => json([]),
    'POST /api/server/users/search': () => json([member(MARY, 'Mary Somerville'), member(GRACE, 'Grace Hopper')]),
    [`POST ${TICKET}/member`]: (request) => {
      if (addAnswer) return addAnswer();
      const { userId } = request.body as { userId: string };
      ticket = { ...ticket, members: [...ticket.members, userId], users: [...ticket.users, GRACE_USER] };
      return new Response(null, { status: 204 });
    },
    [`DELETE ${TICKET}/member`]: (request) => {
      const { userId } = request.body as { userId: string };
      ticket = { ...ticket, members: ticket.members.filter((id) => id !== userId) };
      return new Response(null, { status: 204 });
    },
  });
  return recorded;
}

function openStaffTicket() {
  signIn(testUser());
  return renderPage(<ServerTicketsPage />, { pattern: '/staff/:serverId/tickets/:ticketId?', path: `/staff/${SERVER}/tickets/t1` });
}

/** A row's text as read out: without the avatars' initials, which are hidden from assistive technology. */
function visibleText(element: HTMLElement): string {
  const copy = element.cloneNode(true) as HTMLElement;
  for (const part of copy.querySelectorAll('[aria-hidden="true"]')) part.remove();
  return copy.textContent ?? '';
}

const membersSection = async () => screen.findByRole('region', { name: 'Members' });
const rows = (section: HTMLElement) => within(section).getAllByRole('listitem').map(visibleText);

describe('the members of a ticket', { timeout: 20_000 }, () => {
  it('shows staff who is in the ticket and what each may do in its channel', async () => {
    staffBackend();
    openStaffTicket();
    const section = await membersSection();
    expect(rows(section)).toEqual([
      'Charles BabbageAuthor — can view and write',
      'Ada LovelaceClaimed by — can view, not write',
      'Mary SomervilleAdded member — can view and write',
      "Staff via rolecan view; can write if the server's roles allow it",
    ]);
    // The author and the claimer are not added members: they cannot be removed.
    expect(within(section).getAllByRole('button', { name: /^Remove/ }).map((button) => button.getAttribute('aria-label'))).toEqual(['Remove Mary Somerville']);
  });

  it('adds a member found by searching the server by name', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = staffBackend();
    openStaffTicket();
    const section = await membersSection();
    await user.type(within(section).getByRole('textbox', { name: 'Add a member' }), 'Gr');
    // Who is already in the ticket is not offered again.
    await user.click(await screen.findByRole('option', { name: 'Grace Hopper', ...hidden }));
    expect(screen.queryByRole('option', { name: 'Mary Somerville', ...hidden })).toBeNull();

    await waitFor(() => expect(calls.filter((call) => call.url.endsWith('/member')).map((call) => [call.method, call.body])).toEqual([['POST', { userId: GRACE }]]));
    expect(calls.find((call) => call.url === '/api/server/users/search')?.body).toEqual({ serverId: SERVER, term: 'Gr' });
    expect(await screen.findByText('Grace Hopper was added to the ticket')).toBeTruthy();
    await waitFor(() => expect(rows(section)).toContain('Grace HopperAdded member — can view and write'));
    // Ready for the next one.
    expect((within(section).getByRole('textbox', { name: 'Add a member' }) as HTMLInputElement).value).toBe('');
  });

  it("says why an add was refused, in the server's words", async () => {
    const user = userEvent.setup({ delay: null });
    staffBackend({}, () => errorBody(400, `User ${GRACE} is not a member of this server`));
    openStaffTicket();
    const section = await membersSection();
    await user.type(within(section).getByRole('textbox', { name: 'Add a member' }), 'Gr');
    await user.click(await screen.findByRole('option', { name: 'Grace Hopper', ...hidden }));
    expect(await screen.findByText(`User ${GRACE} is not a member of this server`)).toBeTruthy();
    expect(rows(section)).toHaveLength(4);
  });

  it('removes an added member only once confirmed', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = staffBackend();
    openStaffTicket();
    const section = await membersSection();
    const removals = () => calls.filter((call) => call.method === 'DELETE' && call.url.endsWith('/member')).map((call) => call.body);

    await user.click(within(section).getByRole('button', { name: 'Remove Mary Somerville' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove Mary Somerville from the ticket?' });
    expect(within(dialog).getByText("They will no longer see the ticket's channel.")).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(removals()).toEqual([]);

    await user.click(within(section).getByRole('button', { name: 'Remove Mary Somerville' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove Mary Somerville from the ticket?' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(removals()).toEqual([{ userId: MARY }]));
    expect(await screen.findByText('Mary Somerville was removed from the ticket')).toBeTruthy();
    await waitFor(() => expect(rows(section).some((row) => row.startsWith('Mary Somerville'))).toBe(false));
  });

  it('keeps the members of a closed ticket as they are, and says why', async () => {
    staffBackend({ state: 'Closed', closed: { closedAt: '2025-03-02T09:00:00.000Z', closedBy: ADA, reason: null, force: false } });
    openStaffTicket();
    const section = await membersSection();
    // Its channel is gone: nobody can do anything there any more.
    expect(rows(section)).toEqual(['Charles BabbageAuthor', 'Ada LovelaceClaimed by', 'Mary SomervilleAdded member']);
    expect((within(section).getByRole('textbox', { name: 'Add a member' }) as HTMLInputElement).disabled).toBe(true);
    expect((within(section).getByRole('button', { name: 'Remove Mary Somerville' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(section).getByText('Members of a closed ticket cannot be changed')).toBeTruthy();
  });

  it('shows a plain member their own ticket without the controls', async () => {
    backend({
      '/api/support/personal/tickets/t1': () =>
        json(makeTicket({ server: { serverId: '200000000000000003', name: 'Poetry Science', iconUrl: null }, author: CHARLES, members: [MARY], users: [...users, MARY_USER] })),
    });
    signIn(testUser());
    renderPage(<MyTicketsPage />, { pattern: '/tickets/:ticketId?', path: '/tickets/t1' });
    const section = await membersSection();
    expect(rows(section)).toEqual(['Charles BabbageAuthor', 'Ada LovelaceClaimed by', 'Mary SomervilleAdded member']);
    expect(within(section).queryByRole('textbox')).toBeNull();
    expect(within(section).queryByRole('button')).toBeNull();
  });
});
