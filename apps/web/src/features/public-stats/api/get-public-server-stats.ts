import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicServerStats } from '@ticket/contracts';
import { getApi, isResponseError } from '@/lib/api';

/** `GET /public/servers/:serverId/stats` (support): a server's statistics, when its admins made them public. */
export const getPublicServerStats = (serverId: string, signal?: AbortSignal): Promise<PublicServerStats> =>
  getApi().support.getPublicServerStats({ params: { serverId } }, { signal });

export const publicServerStatsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ['support', 'public', serverId, 'stats'],
    queryFn: ({ signal }) => getPublicServerStats(serverId, signal),
    // Not public (or no such server) is an answer, not a failure to try again.
    retry: (failures, error) => !isResponseError(error, 404) && failures < 2,
  });

export const usePublicServerStats = (serverId: string) => useQuery(publicServerStatsQueryOptions(serverId));
