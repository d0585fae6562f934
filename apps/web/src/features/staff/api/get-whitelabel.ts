import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WhitelabelEntry } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { whenNotFound } from './when-not-found';

/** The server's white-label bot, or null when it has none (404). */
export const getWhitelabel = (serverId: string, signal?: AbortSignal): Promise<WhitelabelEntry | null> =>
  whenNotFound(getApi().deployment.getWhitelabel({ params: { serverId } }, { signal }), null);

export const whitelabelQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ['deployment', serverId, 'whitelabel'],
    queryFn: ({ signal }) => getWhitelabel(serverId, signal),
  });

export const useWhitelabel = (serverId: string, enabled = true) =>
  useQuery({ ...whitelabelQueryOptions(serverId), enabled });
