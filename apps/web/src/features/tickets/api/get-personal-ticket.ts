import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { ticketKeys } from './keys';
import { liveRefetchInterval } from './live-ticket';

// No 404 fallback: "not found" is the answer for a ticket the user cannot see.
export const getPersonalTicket = (ticketId: string, signal?: AbortSignal) =>
  getApi().support.getPersonalTicket({ params: { ticketId } }, { signal });

export const personalTicketQueryOptions = (ticketId: string) =>
  queryOptions({
    queryKey: ticketKeys.personalTicket(ticketId),
    queryFn: ({ signal }) => getPersonalTicket(ticketId, signal),
    refetchInterval: liveRefetchInterval,
    refetchIntervalInBackground: false,
  });

export const usePersonalTicket = (ticketId: string | undefined) =>
  useQuery({ ...personalTicketQueryOptions(ticketId ?? ''), enabled: Boolean(ticketId) });
