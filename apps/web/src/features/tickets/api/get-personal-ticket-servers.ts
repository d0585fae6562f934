import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TicketServer } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { ticketKeys } from './keys';

/** Enough for a filter: nobody has tickets on more servers than this. */
const AMOUNT = 100;

/** The servers the caller has tickets on, for the personal list's server filter. */
export const getPersonalTicketServers = async (signal?: AbortSignal): Promise<TicketServer[]> => {
  const page = await getApi().support.getPersonalTicketServers({ query: { Page: 1, Amount: AMOUNT } }, { signal });
  return page.elements;
};

export const personalTicketServersQueryOptions = () =>
  queryOptions({
    queryKey: ticketKeys.personalServers(),
    queryFn: ({ signal }) => getPersonalTicketServers(signal),
    staleTime: 5 * 60_000,
  });

export const usePersonalTicketServers = (enabled = true) => useQuery({ ...personalTicketServersQueryOptions(), enabled });
