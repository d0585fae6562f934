import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DailyCount, StatsRangeQuery } from '@ticket/contracts';
import { getApi } from '@/lib/api';

export const getDailyResponseTimeStats = (
  serverId: string,
  range: StatsRangeQuery,
  signal?: AbortSignal,
): Promise<DailyCount[]> =>
  getApi().support.getDailyResponseTimeStats({ params: { serverId }, query: range }, { signal });

export const dailyResponseTimeStatsQueryOptions = (serverId: string, range: StatsRangeQuery) =>
  queryOptions({
    queryKey: ['support', serverId, 'stats', 'daily', 'response-time', range],
    queryFn: ({ signal }) => getDailyResponseTimeStats(serverId, range, signal),
  });

export const useDailyResponseTimeStats = (serverId: string, range: StatsRangeQuery) =>
  useQuery(dailyResponseTimeStatsQueryOptions(serverId, range));
