import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StorageOverview } from '@ticket/contracts';
import { getApi } from '@/lib/api';

export const getStorageStats = (serverId: string, signal?: AbortSignal): Promise<StorageOverview> =>
  getApi().files.getStorageStats({ params: { serverId } }, { signal });

export const storageStatsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ['files', serverId, 'stats'],
    queryFn: ({ signal }) => getStorageStats(serverId, signal),
  });

export const useStorageStats = (serverId: string) => useQuery(storageStatsQueryOptions(serverId));
