import type { TicketListQuery } from '@ticket/contracts';
import { serverTicketListKey, serverTicketListsKey } from '@/lib/queries/get-server-tickets';

type ListQuery = Partial<TicketListQuery>;

/**
 * The query keys of the ticket screens. A server's keys start with `['support', serverId]`, like
 * its statistics, so switching servers drops them together; the personal lists are under
 * `['support', 'personal']`.
 */
export const ticketKeys = {
  serverLists: serverTicketListsKey,
  serverList: serverTicketListKey,
  serverTicket: (serverId: string, ticketId: string) => ['support', serverId, 'ticket', ticketId] as const,
  supportSubjects: (serverId: string) => ['support', serverId, 'subjects'] as const,
  personalLists: () => ['support', 'personal', 'tickets'] as const,
  personalList: (query: ListQuery, text: string | null = null) => ['support', 'personal', 'tickets', query, text] as const,
  personalTicket: (ticketId: string) => ['support', 'personal', 'ticket', ticketId] as const,
  personalServers: () => ['support', 'personal', 'servers'] as const,
  personalSubjects: (serverId: string) => ['support', 'personal', 'subjects', serverId] as const,
  ticketFiles: (serverId: string, ticketId: string) => ['files', serverId, 'ticket', ticketId] as const,
  users: (serverId: string | null, ids: readonly string[]) => ['server', serverId ?? 'any', 'users', ids] as const,
  memberSearch: (serverId: string, term: string) => ['server', serverId, 'members', term] as const,
};
