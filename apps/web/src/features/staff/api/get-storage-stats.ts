import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StorageOverview } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { whenNotFound } from './when-not-found';

/** Null when the server has stored no files yet (404). */
export const getStorageStats = (serverId: string, signal?: AbortSignal): Promise<StorageOverview | null> =>
  whenNotFound(getApi().files.getStorageStats({ params: { serverId } }, { signal }), null);

export const storageStatsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ['files', serverId, 'stats'],
    queryFn: ({ signal }) => getStorageStats(serverId, signal),
  });

export const useStorageStats = (serverId: string) => useQuery(storageStatsQueryOptions(serverId));
