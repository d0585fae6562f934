import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicStats } from '@ticket/contracts';
import { getApi } from '@/lib/api';

/** `GET /stats` (support): totals across every server, for anyone. */
export const getPublicStats = (signal?: AbortSignal): Promise<PublicStats> => getApi().support.getPublicStats({}, { signal });

export const publicStatsQueryOptions = () =>
  queryOptions({
    queryKey: ['support', 'stats', 'public'],
    queryFn: ({ signal }) => getPublicStats(signal),
    // The numbers move all the time: the landing page shows them live.
    refetchInterval: 30_000,
  });

export const usePublicStats = () => useQuery(publicStatsQueryOptions());
