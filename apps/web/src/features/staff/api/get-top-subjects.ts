import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PagedResult, TopStatsQuery, TopSubject } from '@ticket/contracts';
import { getApi } from '@/lib/api';

type Query = Partial<TopStatsQuery>;

export const getTopSubjects = (
  serverId: string,
  query: Query,
  signal?: AbortSignal,
): Promise<PagedResult<TopSubject>> =>
  getApi().support.getTopSubjects({ params: { serverId }, query }, { signal });

export const topSubjectsQueryOptions = (serverId: string, query: Query) =>
  queryOptions({
    queryKey: ['support', serverId, 'stats', 'top', 'subjects', query],
    queryFn: ({ signal }) => getTopSubjects(serverId, query, signal),
  });

export const useTopSubjects = (serverId: string, query: Query) => useQuery(topSubjectsQueryOptions(serverId, query));
