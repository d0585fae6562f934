import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { ticketKeys } from './keys';
import { liveRefetchInterval } from './live-ticket';

// No 404 fallback here: a ticket that is not found is an answer the user must see.
export const getServerTicket = (serverId: string, ticketId: string, signal?: AbortSignal) =>
  getApi().support.getServerTicket({ params: { serverId, ticketId } }, { signal });

export const serverTicketQueryOptions = (serverId: string, ticketId: string) =>
  queryOptions({
    queryKey: ticketKeys.serverTicket(serverId, ticketId),
    queryFn: ({ signal }) => getServerTicket(serverId, ticketId, signal),
    refetchInterval: liveRefetchInterval,
    refetchIntervalInBackground: false,
  });

export const useServerTicket = (serverId: string, ticketId: string | undefined) =>
  useQuery({ ...serverTicketQueryOptions(serverId, ticketId ?? ''), enabled: Boolean(serverId && ticketId) });
