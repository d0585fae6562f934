import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicUser } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { ticketKeys } from './keys';

/** The call takes at most 100 ids. */
const MAX_IDS = 100;

/**
 * Public profiles by id. With a server, staff get each user's name and colour on that server;
 * without, anyone gets the platform profile.
 */
export const getUsers = (ids: readonly string[], serverId: string | null, signal?: AbortSignal): Promise<PublicUser[]> =>
  getApi().server.getUsers({ body: { ids: [...ids], ...(serverId ? { serverId } : {}) } }, { signal });

export const usersQueryOptions = (ids: readonly string[], serverId: string | null) =>
  queryOptions({
    queryKey: ticketKeys.users(serverId, ids),
    queryFn: ({ signal }) => getUsers(ids, serverId, signal),
    staleTime: 10 * 60_000,
  });

/**
 * The profiles of `ids` not already known. Names are a nicety: while they load, or when they
 * cannot be loaded, the screens show what they have.
 */
export function useUserProfiles(ids: readonly (string | null | undefined)[], serverId: string | null) {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))].sort().slice(0, MAX_IDS);
  return useQuery({ ...usersQueryOptions(wanted, serverId), enabled: wanted.length > 0, retry: false });
}
