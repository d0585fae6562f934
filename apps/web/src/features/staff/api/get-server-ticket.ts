import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';

// No 404 fallback here: a ticket that is not found is an answer the user must see.
export const getServerTicket = (serverId: string, ticketId: string, signal?: AbortSignal) =>
  getApi().support.getServerTicket({ params: { serverId, ticketId } }, { signal });

export const serverTicketQueryOptions = (serverId: string, ticketId: string) =>
  queryOptions({
    queryKey: ['support', serverId, 'ticket', ticketId],
    queryFn: ({ signal }) => getServerTicket(serverId, ticketId, signal),
  });

export const useServerTicket = (serverId: string, ticketId: string) =>
  useQuery(serverTicketQueryOptions(serverId, ticketId));
