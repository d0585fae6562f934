import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ServerMember } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { ticketKeys } from './keys';

/** Members of the server whose name starts with `term` (staff only). */
export const searchMembers = (serverId: string, term: string, signal?: AbortSignal): Promise<ServerMember[]> =>
  getApi().server.searchUsers({ body: { serverId, term } }, { signal });

export const memberSearchQueryOptions = (serverId: string, term: string) =>
  queryOptions({
    queryKey: ticketKeys.memberSearch(serverId, term),
    queryFn: ({ signal }) => searchMembers(serverId, term, signal),
    staleTime: 60_000,
  });

export const useMemberSearch = (serverId: string | null, term: string) =>
  useQuery({
    ...memberSearchQueryOptions(serverId ?? '', term),
    enabled: Boolean(serverId) && term.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
