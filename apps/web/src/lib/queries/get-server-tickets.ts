import { queryOptions } from '@tanstack/react-query';
import type { PagedResult, TicketListItem, TicketListQuery } from '@ticket/contracts';
import { getApi } from '@/lib/api';

export type TicketPage = PagedResult<TicketListItem>;
export type TicketFilters = Partial<TicketListQuery>;

/**
 * The keys of a server's ticket lists, shared by the ticket screens (features/tickets/api/keys.ts)
 * and the Dashboard's checklist: a change to the server's tickets refreshes both.
 */
export const serverTicketListsKey = (serverId: string) => ['support', serverId, 'tickets'] as const;
export const serverTicketListKey = (serverId: string, query: TicketFilters, text: string | null = null) =>
  [...serverTicketListsKey(serverId), query, text] as const;

export const getServerTickets = (serverId: string, filters: TicketFilters, signal?: AbortSignal): Promise<TicketPage> =>
  getApi().support.getServerTickets({ params: { serverId }, query: filters }, { signal });

export const serverTicketsQueryOptions = (serverId: string, filters: TicketFilters = {}) =>
  queryOptions({
    queryKey: serverTicketListKey(serverId, filters),
    queryFn: ({ signal }) => getServerTickets(serverId, filters, signal),
  });
