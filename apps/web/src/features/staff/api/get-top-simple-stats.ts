import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TopSimple } from '@ticket/contracts';
import { getApi } from '@/lib/api';

export const getTopSimpleStats = (serverId: string, signal?: AbortSignal): Promise<TopSimple> =>
  getApi().support.getTopSimpleStats({ params: { serverId } }, { signal });

export const topSimpleStatsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ['support', serverId, 'stats', 'top', 'simple'],
    queryFn: ({ signal }) => getTopSimpleStats(serverId, signal),
  });

export const useTopSimpleStats = (serverId: string) => useQuery(topSimpleStatsQueryOptions(serverId));
