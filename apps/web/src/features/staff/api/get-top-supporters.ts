import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PagedResult, TopStatsQuery, TopSupporter } from '@ticket/contracts';
import { getApi } from '@/lib/api';

type Query = Partial<TopStatsQuery>;

export const getTopSupporters = (
  serverId: string,
  query: Query,
  signal?: AbortSignal,
): Promise<PagedResult<TopSupporter>> =>
  getApi().support.getTopSupporters({ params: { serverId }, query }, { signal });

export const topSupportersQueryOptions = (serverId: string, query: Query) =>
  queryOptions({
    queryKey: ['support', serverId, 'stats', 'top', 'supporters', query],
    queryFn: ({ signal }) => getTopSupporters(serverId, query, signal),
  });

export const useTopSupporters = (serverId: string, query: Query) =>
  useQuery(topSupportersQueryOptions(serverId, query));
