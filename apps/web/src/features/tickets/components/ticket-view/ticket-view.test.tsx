import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Ticket } from '@ticket/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { LIVE_REFRESH_MS } from '../../api/live-ticket';
import { ADA, backend, CHARLES, errorBody, makeMessage, makeTicket, MARY, SERVER } from '../../test/fixtures';
import { MyTicketsPage } from '../my-tickets-page';
import { ServerTicketsPage } from '../server-tickets-page';

const TICKET = `/api/support/servers/${SERVER}/tickets/t1`;
const FILES = `/api/files/files/servers/${SERVER}/tickets/t1`;
const BLURHASH = 'LEHV6nWB2yk8pyo0adR*.7kCMdnj';

/** A ticket with a bit of everything: markdown, mentions, an edit, a deletion, attachments, an embed, reactions. */
function fullTicket(): Ticket {
  return makeTicket({
    members: [MARY],
    templateAnswers: [{ questionId: 'q1', question: 'Order number?', answer: 'A-1234' }],
    messages: [
      makeMessage({
        messageId: 'm1',
        message: {
          content: '**Hello** <@100000000000000001>, my invoice is wrong. <script>alert(1)</script>',
          embeds: [],
          mentions: [ADA],
          attachments: [
            { id: '900000000000000001', filename: 'screenshot.png', url: 'https://cdn.discordapp.com/a/1/screenshot.png', size: 1000, contentType: 'image/png' },
            { id: '900000000000000002', filename: 'invoice.pdf', url: 'https://cdn.discordapp.com/a/2/invoice.pdf', size: 2048, contentType: 'application/pdf' },
          ],
        },
        files: [
          { ticketId: 't1', fileId: 'f1', name: 'screenshot.png', size: 1000, token: 'tok-f1', blurHash: BLURHASH, width: 800, height: 600 },
        ],
      }),
      makeMessage({
        messageId: 'm2',
        authorId: ADA,
        messageType: 'Staff',
        createdAt: '2025-03-01T10:10:00.000Z',
        modified: true,
        history: [{ content: 'Lookin into it', embeds: [], editedAt: '2025-03-01T10:11:00.000Z' }],
        message: {
          content: 'Looking into it, <@100000000000000003> knows more',
          embeds: [{ title: 'Refund policy', description: 'Within **7 days**', color: 0x57f287 }],
          mentions: [MARY],
          attachments: [],
        },
        reactions: [{ count: 2, emoji: { id: null, name: '👍' } }],
      }),
      makeMessage({
        messageId: 'm3',
        createdAt: '2025-03-01T10:12:00.000Z',
        deleted: true,
        deletedAt: '2025-03-01T10:13:00.000Z',
        message: { content: 'oops, wrong channel', embeds: [], mentions: [], attachments: [] },
      }),
    ],
  });
}

function staffBackend(ticket: () => Ticket | Response = fullTicket) {
  return backend({
    [`GET ${TICKET}`]: () => {
      const answer = ticket();
      return answer instanceof Response ? answer : json(answer);
    },
    [`DELETE ${TICKET}`]: () => new Response(null, { status: 204 }),
    // The files as listed now: with tokens fresher than those the ticket was loaded with.
    [FILES]: () => json([{ ticketId: 't1', fileId: 'f1', name: 'screenshot.png', size: 1_048_576, token: 'fresh-f1', blurHash: null, width: null, height: null }]),
    'POST /api/server/users': () => json([{ id: MARY, name: 'Mary Somerville', avatarUrl: null, color: null }]),
    [`/api/server/servers/${SERVER}/channels`]: () => json([{ id: '300000000000000001', name: 'billing-help', type: 0, parent_id: null, position: 0 }]),
    [`/api/server/servers/${SERVER}/roles`]: () => json([{ id: '300000000000000002', name: 'Moderators', permissions: '0', color: 0x3498db, position: 1 }]),
  });
}

function openStaffTicket(path = `/staff/${SERVER}/tickets/t1`) {
  signIn(testUser());
  return renderPage(<ServerTicketsPage />, { pattern: '/staff/:serverId/tickets/:ticketId?', path });
}

/** What assistive technology reads of an element: its text without the parts hidden from it (avatars' initials). */
function visibleText(element: HTMLElement): string {
  const copy = element.cloneNode(true) as HTMLElement;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return copy.textContent ?? '';
}

const messageItem = (id: string) => document.querySelector<HTMLElement>(`[data-message-id="${id}"]`) as HTMLElement;

describe('the ticket view', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows the messages with their markdown, mentions as @name, embeds, edits, deletions and reactions', async () => {
    const user = userEvent.setup({ delay: null });
    staffBackend();
    openStaffTicket();
    expect(await screen.findByRole('heading', { level: 2, name: '#12 invoice-wrong' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Ticket #12' })).toBeTruthy();

    const first = within(messageItem('m1'));
    expect(first.getByText('Hello').tagName).toBe('STRONG');
    expect(first.getByText('@Ada Lovelace')).toBeTruthy();
    // Text stays text: the message's HTML is shown, never run.
    expect(messageItem('m1').querySelector('script')).toBeNull();
    expect(first.getByText(/<script>alert\(1\)<\/script>/)).toBeTruthy();

    const second = within(messageItem('m2'));
    expect(second.getByText('Staff')).toBeTruthy();
    expect(await second.findByText('@Mary Somerville')).toBeTruthy();
    const embed = second.getByRole('group', { name: 'Embed 1' });
    expect(within(embed).getByText('Refund policy')).toBeTruthy();
    expect(within(embed).getByText('7 days').tagName).toBe('STRONG');
    expect(second.getByText('👍: 2 reactions')).toBeTruthy();

    const edited = second.getByRole('button', { name: 'Edited' });
    expect(edited.getAttribute('aria-expanded')).toBe('false');
    expect(second.queryByText('Lookin into it')).toBeNull();
    await user.click(edited);
    expect(edited.getAttribute('aria-expanded')).toBe('true');
    const versions = second.getByRole('list', { name: '1 earlier version' });
    expect(within(versions).getByText('Lookin into it')).toBeTruthy();
    expect(within(versions).getByText(/^Replaced /)).toBeTruthy();

    expect(messageItem('m3').hasAttribute('data-deleted')).toBe(true);
    expect(within(messageItem('m3')).getByText(/^Deleted /)).toBeTruthy();
    expect(within(messageItem('m3')).getByText('oops, wrong channel')).toBeTruthy();
    expect(messageItem('m1').hasAttribute('data-deleted')).toBe(false);
  });

  it('shows attachments: images over their BlurHash, other files as download links', async () => {
    const putImageData = vi.fn();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
      createImageData: (width: number, height: number) => ({ data: new Uint8ClampedArray(width * height * 4) }),
      putImageData,
    } as unknown as CanvasRenderingContext2D);
    staffBackend(() => {
      const ticket = fullTicket();
      ticket.messages[1]!.files = [{ ticketId: 't1', fileId: 'f2', name: 'photo.jpg', size: 10, token: 'tok-f2', blurHash: 'not a hash', width: 10, height: 10 }];
      return ticket;
    });
    openStaffTicket();
    const attachments = within(await waitFor(() => within(messageItem('m1')).getByRole('list', { name: 'Attachments' })));

    const image = attachments.getByRole('img', { name: 'screenshot.png' });
    expect(image.getAttribute('src')).toBe('/api/files/files/f1/screenshot.png?token=tok-f1');
    expect(attachments.getByRole('link', { name: 'screenshot.png' }).getAttribute('href')).toBe('/api/files/files/f1/screenshot.png?token=tok-f1');
    const canvas = messageItem('m1').querySelector('[data-placeholder="blurhash"]');
    expect(canvas?.tagName).toBe('CANVAS');
    expect(putImageData).toHaveBeenCalledTimes(1);

    // No stored copy: the platform's address, with the size.
    const download = attachments.getByRole('link', { name: 'Download invoice.pdf' });
    expect(download.getAttribute('href')).toBe('https://cdn.discordapp.com/a/2/invoice.pdf');
    expect(download.closest('li')?.textContent).toContain('2 kB');

    // A stored file no attachment names is shown too; its hash does not decode: a plain box.
    const photo = within(within(messageItem('m2')).getByRole('list', { name: 'Attachments' }));
    expect(photo.getByRole('img', { name: 'photo.jpg' })).toBeTruthy();
    expect(messageItem('m2').querySelector('[data-placeholder="box"]')).toBeTruthy();

    // The image is shown once loaded, and its placeholder goes.
    image.dispatchEvent(new Event('load'));
    await waitFor(() => expect(messageItem('m1').querySelector('[data-placeholder]')).toBeNull());
  });

  it('shows the form answers, details, members, history and the ticket’s stats', async () => {
    const { calls } = staffBackend(() => ({
      ...fullTicket(),
      state: 'Closed',
      closed: { closedAt: '2025-03-02T09:00:00.000Z', closedBy: ADA, reason: 'Refunded', force: true },
    }));
    openStaffTicket();
    const answers = await screen.findByRole('region', { name: 'Form answers' });
    expect(within(answers).getByText('Order number?').nextElementSibling?.textContent).toBe('A-1234');

    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByText('Claimed by').nextElementSibling?.textContent).toBe('Ada Lovelace');
    expect(within(details).getByText('Subject').nextElementSibling?.textContent).toBe('Billing');

    const members = screen.getByRole('region', { name: 'Members' });
    expect(within(members).getAllByRole('listitem').map(visibleText)).toEqual([
      'Charles BabbageAuthor',
      'Ada LovelaceClaimed by',
      // Not among the ticket's users: loaded by id.
      expect.stringMatching(/^(Mary Somerville|100000000000000003)Added member$/),
    ]);
    await waitFor(() => expect(within(members).getByText('Mary Somerville')).toBeTruthy());

    const history = screen.getByRole('region', { name: 'History' });
    expect(within(history).getByText('Opened by Charles Babbage')).toBeTruthy();
    expect(within(history).getByText('Claimed by Ada Lovelace')).toBeTruthy();
    expect(within(history).getByText('Closed by Ada Lovelace')).toBeTruthy();
    expect(within(history).getByText('Refunded')).toBeTruthy();
    expect(within(history).getByText('Closed at once, without the delay')).toBeTruthy();

    const stats = screen.getByRole('region', { name: 'Statistics' });
    const stat = (label: string) => within(stats).getByText(label).nextElementSibling?.textContent;
    expect(stat('Messages')).toBe('3');
    expect(stat('Attachments')).toBe('2');
    await waitFor(() => expect(stat('Storage used')).toBe('1 MB'));
    expect(stat('First response')).toBe('10 min');
    expect(stat('Average response')).toBe('10 min');
    expect(calls.some((call) => call.url === FILES)).toBe(true);
    // A closed ticket is not live.
    expect(screen.queryByText('Live')).toBeNull();
  });

  it('exports the loaded ticket as a self-contained HTML transcript, its file links with fresh tokens, and as JSON', async () => {
    const user = userEvent.setup({ delay: null });
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return `blob:${blobs.length}`;
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    staffBackend();
    openStaffTicket();
    await screen.findByRole('heading', { level: 2, name: '#12 invoice-wrong' });

    await user.click(screen.getByRole('button', { name: 'Export HTML' }));
    await waitFor(() => expect(downloads).toEqual(['ticket-12-invoice-wrong.html']));
    const html = await blobs[0]!.text();
    expect(blobs[0]!.type).toBe('text/html;charset=utf-8');
    expect(html).toContain('<title>Ticket #12: invoice-wrong</title>');
    expect(html).toContain('Content-Security-Policy');
    expect(html).toContain('**Hello** @Ada Lovelace, my invoice is wrong. &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script');
    expect(html).toContain('<dt>Order number?</dt><dd>A-1234</dd>');
    // Download tokens expire: the links carry those the files service hands out at export, not those loaded with the ticket.
    expect(html).toContain(`href="${window.location.origin}/api/files/files/f1/screenshot.png?token=fresh-f1"`);
    expect(html).not.toContain('tok-f1');
    expect(html).toContain('Lookin into it');
    expect(html).toContain('Deleted ');
    expect(html).toContain('👍 2');

    await user.click(screen.getByRole('button', { name: 'Export JSON' }));
    expect(downloads).toEqual(['ticket-12-invoice-wrong.html', 'ticket-12-invoice-wrong.json']);
    expect(JSON.parse(await blobs[1]!.text())).toEqual(fullTicket());
  });

  it('deletes the ticket only once confirmed, then goes back to the list', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = staffBackend();
    const { router } = openStaffTicket(`/staff/${SERVER}/tickets/t1?page=2`);
    await screen.findByRole('heading', { level: 2, name: '#12 invoice-wrong' });

    await user.click(screen.getByRole('button', { name: 'Delete ticket' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete ticket #12?' });
    expect(within(dialog).getByText(/This cannot be undone/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete ticket' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete ticket #12?' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/staff/${SERVER}/tickets`));
    expect(router.state.location.search).toBe('?page=2');
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([TICKET]);
    expect(await screen.findByText('Ticket #12 deleted')).toBeTruthy();
  });

  it("names the server's channels and roles for staff, in the role's colour", async () => {
    const mentioning = () =>
      makeTicket({
        messages: [makeMessage({ messageId: 'm1', message: { content: 'See <#300000000000000001>, ask <@&300000000000000002>', embeds: [], mentions: [], attachments: [] } })],
      });
    staffBackend(mentioning);
    openStaffTicket();
    const message = await screen.findByText(/^See/);
    expect(await within(message).findByText('#billing-help')).toBeTruthy();
    const role = within(message).getByText('@Moderators');
    expect(role.getAttribute('style')).toContain('color: rgb(52, 152, 219)');
  });

  it("shows a plain member the mentions of channels and roles as unknown, without asking for the server's", async () => {
    const { calls } = backend({
      '/api/support/personal/tickets/t1': () =>
        json(
          makeTicket({
            server: { serverId: '200000000000000003', name: 'Poetry Science', iconUrl: null },
            messages: [makeMessage({ messageId: 'm1', message: { content: 'See <#300000000000000001>, ask <@&300000000000000002>', embeds: [], mentions: [], attachments: [] } })],
          }),
        ),
    });
    signIn(testUser());
    renderPage(<MyTicketsPage />, { pattern: '/tickets/:ticketId?', path: '/tickets/t1' });
    const message = await screen.findByText(/^See/);
    expect(within(message).getByText('#unknown-channel')).toBeTruthy();
    expect(within(message).getByText('@unknown-role')).toBeTruthy();
    expect(calls.map((call) => call.url).filter((url) => /\/(channels|roles)\b/.test(url))).toEqual([]);
  });

  it('offers no delete to a member on their own ticket', async () => {
    backend({ '/api/support/personal/tickets/t1': () => json(makeTicket({ server: { serverId: '200000000000000003', name: 'Poetry Science', iconUrl: null } })) });
    signIn(testUser());
    renderPage(<MyTicketsPage />, { pattern: '/tickets/:ticketId?', path: '/tickets/t1' });
    await screen.findByRole('heading', { level: 2, name: '#12 invoice-wrong' });
    expect(screen.getByRole('button', { name: 'Export HTML' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete ticket' })).toBeNull();
  });

  it.each([
    [404, 'Could not load ticket'],
    [403, "You don't have permission to view this ticket."],
  ])('a %i says %s', async (status, message) => {
    staffBackend(() => errorBody(status));
    openStaffTicket();
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it("a failed connection says 'Could not load ticket' with a retry", async () => {
    backend({ [TICKET]: () => Promise.reject(new TypeError('Failed to fetch')) });
    openStaffTicket();
    expect(await screen.findByText('Could not load ticket', {}, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('the ticket view: live', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
    Reflect.deleteProperty(document, 'visibilityState');
    document.dispatchEvent(new Event('visibilitychange'));
  });

  const ticketCalls = (calls: { url: string }[]) => calls.filter((call) => call.url === TICKET).length;

  it('shows new messages of an open ticket without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let messages = [makeMessage({ message: { content: 'First words', embeds: [], mentions: [], attachments: [] } })];
    const { calls } = staffBackend(() => makeTicket({ messages }));
    openStaffTicket();
    expect(await screen.findByText('First words')).toBeTruthy();
    expect(screen.getByText('Live')).toBeTruthy();
    expect(ticketCalls(calls)).toBe(1);

    messages = [...messages, makeMessage({ messageId: 'm2', authorId: ADA, messageType: 'Staff', message: { content: 'A new answer', embeds: [], mentions: [], attachments: [] } })];
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS));
    expect(await screen.findByText('A new answer')).toBeTruthy();
    expect(ticketCalls(calls)).toBe(2);
  });

  it('does not ask again for a closed ticket, nor while the tab is hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let state: Ticket['state'] = 'Closed';
    const { calls } = staffBackend(() =>
      makeTicket({ state, closed: state === 'Closed' ? { closedAt: '2025-03-02T09:00:00.000Z', closedBy: CHARLES, reason: null, force: false } : null }),
    );
    const { unmount } = openStaffTicket();
    await screen.findByRole('heading', { level: 2, name: '#12 invoice-wrong' });
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS * 3));
    expect(ticketCalls(calls)).toBe(1);
    unmount();

    state = 'PendingStaff';
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    openStaffTicket();
    await screen.findByRole('heading', { level: 2, name: '#12 invoice-wrong' });
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS * 3));
    expect(ticketCalls(calls)).toBe(2);
  });
});
