import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DailyCount, StatsRangeQuery } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { whenNotFound } from './when-not-found';

/** Null when the server has no statistics yet (404). */
export const getDailyTicketStats = (
  serverId: string,
  range: StatsRangeQuery,
  signal?: AbortSignal,
): Promise<DailyCount[] | null> =>
  whenNotFound(getApi().support.getDailyTicketStats({ params: { serverId }, query: range }, { signal }), null);

export const dailyTicketStatsQueryOptions = (serverId: string, range: StatsRangeQuery) =>
  queryOptions({
    queryKey: ['support', serverId, 'stats', 'daily', 'tickets', range],
    queryFn: ({ signal }) => getDailyTicketStats(serverId, range, signal),
  });

export const useDailyTicketStats = (serverId: string, range: StatsRangeQuery) =>
  useQuery(dailyTicketStatsQueryOptions(serverId, range));
