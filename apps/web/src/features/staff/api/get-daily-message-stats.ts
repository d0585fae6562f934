import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DailyCount, StatsRangeQuery } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { whenNotFound } from './when-not-found';

/** Null when the server has no statistics yet (404). */
export const getDailyMessageStats = (
  serverId: string,
  range: StatsRangeQuery,
  signal?: AbortSignal,
): Promise<DailyCount[] | null> =>
  whenNotFound(getApi().support.getDailyMessageStats({ params: { serverId }, query: range }, { signal }), null);

export const dailyMessageStatsQueryOptions = (serverId: string, range: StatsRangeQuery) =>
  queryOptions({
    queryKey: ['support', serverId, 'stats', 'daily', 'messages', range],
    queryFn: ({ signal }) => getDailyMessageStats(serverId, range, signal),
  });

export const useDailyMessageStats = (serverId: string, range: StatsRangeQuery) =>
  useQuery(dailyMessageStatsQueryOptions(serverId, range));
