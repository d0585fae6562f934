import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';

export const getServer = (serverId: string, signal?: AbortSignal) =>
  getApi().server.getServer({ params: { serverId } }, { signal });

export const serverQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ['server', serverId],
    queryFn: ({ signal }) => getServer(serverId, signal),
  });

export const useServer = (serverId: string | undefined) =>
  useQuery({ ...serverQueryOptions(serverId ?? ''), enabled: Boolean(serverId) });
