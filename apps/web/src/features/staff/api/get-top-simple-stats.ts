import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TopSimple } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { whenNotFound } from './when-not-found';

/** Null when the server has no statistics yet (404). */
export const getTopSimpleStats = (serverId: string, signal?: AbortSignal): Promise<TopSimple | null> =>
  whenNotFound(getApi().support.getTopSimpleStats({ params: { serverId } }, { signal }), null);

export const topSimpleStatsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ['support', serverId, 'stats', 'top', 'simple'],
    queryFn: ({ signal }) => getTopSimpleStats(serverId, signal),
  });

export const useTopSimpleStats = (serverId: string) => useQuery(topSimpleStatsQueryOptions(serverId));
