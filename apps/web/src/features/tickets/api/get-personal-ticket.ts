import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';

// No 404 fallback: "not found" is the answer for a ticket the user cannot see.
export const getPersonalTicket = (ticketId: string, signal?: AbortSignal) =>
  getApi().support.getPersonalTicket({ params: { ticketId } }, { signal });

export const personalTicketQueryOptions = (ticketId: string) =>
  queryOptions({
    queryKey: ['support', 'personal', 'ticket', ticketId],
    queryFn: ({ signal }) => getPersonalTicket(ticketId, signal),
  });

export const usePersonalTicket = (ticketId: string) => useQuery(personalTicketQueryOptions(ticketId));
