import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PagedResult, TicketListItem, TicketListQuery } from '@ticket/contracts';
import { whenNotFound } from '@/features/staff/api/when-not-found';
import { getApi } from '@/lib/api';
import { ticketKeys } from './keys';

export type TicketPage = PagedResult<TicketListItem>;
export type TicketFilters = Partial<TicketListQuery>;

export const NO_TICKETS: TicketPage = { page: 1, maxPage: 0, elements: [] };

export const getServerTickets = (serverId: string, filters: TicketFilters, signal?: AbortSignal): Promise<TicketPage> =>
  whenNotFound(getApi().support.getServerTickets({ params: { serverId }, query: filters }, { signal }), NO_TICKETS);

export const serverTicketsQueryOptions = (serverId: string, filters: TicketFilters = {}) =>
  queryOptions({
    queryKey: ticketKeys.serverList(serverId, filters),
    queryFn: ({ signal }) => getServerTickets(serverId, filters, signal),
  });

export const useServerTickets = (serverId: string, filters: TicketFilters = {}) =>
  // The previous page stays on screen while the next one loads, so the table does not jump.
  useQuery({ ...serverTicketsQueryOptions(serverId, filters), placeholderData: keepPreviousData });
