import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';

/** A user as the server knows them (nickname and all). */
export const getServerUser = (serverId: string, userId: string, signal?: AbortSignal) =>
  getApi().server.getUser({ params: { id: userId }, query: { serverId } }, { signal });

export const serverUserQueryOptions = (serverId: string, userId: string) =>
  queryOptions({
    queryKey: ['server', serverId, 'users', userId],
    queryFn: ({ signal }) => getServerUser(serverId, userId, signal),
    staleTime: 5 * 60_000,
  });

export const useServerUser = (serverId: string, userId: string | undefined) =>
  useQuery({ ...serverUserQueryOptions(serverId, userId ?? ''), enabled: Boolean(userId) });
