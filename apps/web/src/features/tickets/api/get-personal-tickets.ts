import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { NO_TICKETS, type TicketFilters, type TicketPage } from '@/features/staff/api/get-server-tickets';
import { whenNotFound } from '@/features/staff/api/when-not-found';

/** The caller's tickets across servers; none yet when the call answers 404. */
export const getPersonalTickets = (filters: TicketFilters, signal?: AbortSignal): Promise<TicketPage> =>
  whenNotFound(getApi().support.getPersonalTickets({ query: filters }, { signal }), NO_TICKETS);

export const personalTicketsQueryOptions = (filters: TicketFilters = {}) =>
  queryOptions({
    queryKey: ['support', 'personal', 'tickets', filters],
    queryFn: ({ signal }) => getPersonalTickets(filters, signal),
  });

export const usePersonalTickets = (filters: TicketFilters = {}) =>
  useQuery({ ...personalTicketsQueryOptions(filters), placeholderData: keepPreviousData });
