import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TicketSubject } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { ticketKeys } from './keys';

const AMOUNT = 100;

/** The subjects of one server that the caller has tickets in, for the personal list's subject filter. */
export const getPersonalTicketSubjects = async (serverId: string, signal?: AbortSignal): Promise<TicketSubject[]> => {
  const page = await getApi().support.getPersonalTicketSubjects({ params: { serverId }, query: { Page: 1, Amount: AMOUNT } }, { signal });
  return page.elements;
};

export const personalTicketSubjectsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ticketKeys.personalSubjects(serverId),
    queryFn: ({ signal }) => getPersonalTicketSubjects(serverId, signal),
    staleTime: 5 * 60_000,
  });

/** None until a server is chosen: subjects belong to one server. */
export const usePersonalTicketSubjects = (serverId: string | null) =>
  useQuery({ ...personalTicketSubjectsQueryOptions(serverId ?? ''), enabled: Boolean(serverId) });
