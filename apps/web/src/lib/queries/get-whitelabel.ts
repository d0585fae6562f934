import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WhitelabelEntry } from '@ticket/contracts';
import { getApi, isResponseError } from '@/lib/api';

/**
 * The server's white-label bot, or null when it has none: for this one resource, 404 is the
 * answer "no bot set up yet" (the setup guide shows then), not a failure.
 */
export const getWhitelabel = async (serverId: string, signal?: AbortSignal): Promise<WhitelabelEntry | null> => {
  try {
    return await getApi().deployment.getWhitelabel({ params: { serverId } }, { signal });
  } catch (error) {
    if (isResponseError(error, 404)) return null;
    throw error;
  }
};

export const whitelabelQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ['deployment', serverId, 'whitelabel'],
    queryFn: ({ signal }) => getWhitelabel(serverId, signal),
  });

export const useWhitelabel = (serverId: string, enabled = true) =>
  useQuery({ ...whitelabelQueryOptions(serverId), enabled });
