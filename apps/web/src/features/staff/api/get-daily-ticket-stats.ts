import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DailyCount, StatsRangeQuery } from '@ticket/contracts';
import { getApi } from '@/lib/api';

export const getDailyTicketStats = (
  serverId: string,
  range: StatsRangeQuery,
  signal?: AbortSignal,
): Promise<DailyCount[]> =>
  getApi().support.getDailyTicketStats({ params: { serverId }, query: range }, { signal });

export const dailyTicketStatsQueryOptions = (serverId: string, range: StatsRangeQuery) =>
  queryOptions({
    queryKey: ['support', serverId, 'stats', 'daily', 'tickets', range],
    queryFn: ({ signal }) => getDailyTicketStats(serverId, range, signal),
  });

export const useDailyTicketStats = (serverId: string, range: StatsRangeQuery) =>
  useQuery(dailyTicketStatsQueryOptions(serverId, range));
