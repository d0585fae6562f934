import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DailyCount, StatsRangeQuery } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { whenNotFound } from './when-not-found';

/** Null when the server has no statistics yet (404). */
export const getDailyResponseTimeStats = (
  serverId: string,
  range: StatsRangeQuery,
  signal?: AbortSignal,
): Promise<DailyCount[] | null> =>
  whenNotFound(getApi().support.getDailyResponseTimeStats({ params: { serverId }, query: range }, { signal }), null);

export const dailyResponseTimeStatsQueryOptions = (serverId: string, range: StatsRangeQuery) =>
  queryOptions({
    queryKey: ['support', serverId, 'stats', 'daily', 'response-time', range],
    queryFn: ({ signal }) => getDailyResponseTimeStats(serverId, range, signal),
  });

export const useDailyResponseTimeStats = (serverId: string, range: StatsRangeQuery) =>
  useQuery(dailyResponseTimeStatsQueryOptions(serverId, range));
