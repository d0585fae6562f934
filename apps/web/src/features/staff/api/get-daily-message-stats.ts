import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DailyCount, StatsRangeQuery } from '@ticket/contracts';
import { getApi } from '@/lib/api';

export const getDailyMessageStats = (
  serverId: string,
  range: StatsRangeQuery,
  signal?: AbortSignal,
): Promise<DailyCount[]> =>
  getApi().support.getDailyMessageStats({ params: { serverId }, query: range }, { signal });

export const dailyMessageStatsQueryOptions = (serverId: string, range: StatsRangeQuery) =>
  queryOptions({
    queryKey: ['support', serverId, 'stats', 'daily', 'messages', range],
    queryFn: ({ signal }) => getDailyMessageStats(serverId, range, signal),
  });

export const useDailyMessageStats = (serverId: string, range: StatsRangeQuery) =>
  useQuery(dailyMessageStatsQueryOptions(serverId, range));
