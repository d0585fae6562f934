import type { PagedResult, Ticket, TicketListItem, TicketMessage } from '@ticket/contracts';
import { json, mockFetch, type Recorded } from '@/test/fetch';

export const SERVER = '200000000000000001';
export const ADA = '100000000000000001';
export const CHARLES = '100000000000000002';
export const MARY = '100000000000000003';

export const users = [
  { id: ADA, name: 'Ada Lovelace', avatarUrl: null, color: null },
  { id: CHARLES, name: 'Charles Babbage', avatarUrl: null, color: null },
];

export const errorBody = (status: number, message = 'no') =>
  json({ statusCode: status, error: 'Error', code: 'error', message }, { status });

export const notFound = () => errorBody(404);

const base = {
  ticketId: 't1',
  number: 12,
  name: 'invoice-wrong',
  author: CHARLES,
  server: { serverId: SERVER, name: 'Analytical Engine', iconUrl: null },
  subject: { subjectId: 's1', name: 'Billing' },
  createdAt: '2025-03-01T10:00:00.000Z',
  state: 'PendingStaff' as const,
  assignee: ADA,
  closed: null,
  users,
};

export function makeListItem(overrides: Partial<TicketListItem> = {}): TicketListItem {
  return {
    ...base,
    highlights: [],
    lastMessage: { messageId: 'm2', authorId: CHARLES, createdAt: '2025-03-01T10:05:00.000Z', content: 'My invoice is wrong' },
    lastActivity: '2025-03-01T10:05:00.000Z',
    attendees: [],
    ...overrides,
  };
}

export function makeMessage(overrides: Partial<TicketMessage> = {}): TicketMessage {
  return {
    messageId: 'm1',
    ticketId: 't1',
    authorId: CHARLES,
    createdAt: '2025-03-01T10:01:00.000Z',
    messageType: 'User',
    message: { content: 'Hello', embeds: [], mentions: [], attachments: [] },
    externalId: null,
    deleted: false,
    modified: false,
    deletedAt: null,
    history: [],
    files: [],
    reactions: [],
    ...overrides,
  };
}

export function makeTicket(overrides: Partial<Ticket> = {}): Ticket {
  return { ...base, messages: [], members: [], templateAnswers: [], ...overrides };
}

export const page = (elements: TicketListItem[], at = 1, maxPage = 1): PagedResult<TicketListItem> => ({
  page: at,
  maxPage,
  elements,
});

type Answer = (request: Recorded) => Response | Promise<Response>;

/**
 * A backend for the ticket screens: `routes` by path (`/api/support/...`, any method) or by
 * `METHOD path`; the server's details are there for the staff frame; everything else is 404.
 */
export function backend(routes: Record<string, Answer> = {}) {
  return mockFetch((request) => {
    const path = request.url.split('?')[0] ?? '';
    const answer = routes[`${request.method} ${path}`] ?? routes[path];
    if (answer) return answer(request);
    if (path === `/api/server/servers/${SERVER}`) {
      return json({
        serverId: SERVER,
        name: 'Analytical Engine',
        iconUrl: null,
        active: true,
        subscription: 'free',
        bannerUrl: null,
        ownerId: ADA,
        memberCount: 42,
      });
    }
    return notFound();
  });
}

/** The query of a recorded call, as an object. */
export const queryOf = (call: Recorded): Record<string, string> => Object.fromEntries(new URL(call.url, 'http://x').searchParams);
