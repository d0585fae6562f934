import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PagedResult, TopStatsQuery, TopSubject } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { whenNotFound } from './when-not-found';

type Query = Partial<TopStatsQuery>;

/** Null when the server has no statistics yet (404). */
export const getTopSubjects = (
  serverId: string,
  query: Query,
  signal?: AbortSignal,
): Promise<PagedResult<TopSubject> | null> =>
  whenNotFound(getApi().support.getTopSubjects({ params: { serverId }, query }, { signal }), null);

export const topSubjectsQueryOptions = (serverId: string, query: Query) =>
  queryOptions({
    queryKey: ['support', serverId, 'stats', 'top', 'subjects', query],
    queryFn: ({ signal }) => getTopSubjects(serverId, query, signal),
  });

export const useTopSubjects = (serverId: string, query: Query) => useQuery(topSubjectsQueryOptions(serverId, query));
