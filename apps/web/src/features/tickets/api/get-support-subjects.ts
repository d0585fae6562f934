import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SubjectShort } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { ticketKeys } from './keys';

/** SPEC §9: support subjects are read page 1, 100 at a time. */
const AMOUNT = 100;

/** The server's subjects for the staff list's subject filter, deleted ones included: old tickets keep theirs. */
export const getSupportSubjects = async (serverId: string, signal?: AbortSignal): Promise<SubjectShort[]> => {
  const page = await getApi().support.getSupportSubjects({ params: { serverId }, query: { Page: 1, Amount: AMOUNT } }, { signal });
  return page.elements;
};

export const supportSubjectsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ticketKeys.supportSubjects(serverId),
    queryFn: ({ signal }) => getSupportSubjects(serverId, signal),
    staleTime: 5 * 60_000,
  });

export const useSupportSubjects = (serverId: string | null) =>
  useQuery({ ...supportSubjectsQueryOptions(serverId ?? ''), enabled: Boolean(serverId) });
