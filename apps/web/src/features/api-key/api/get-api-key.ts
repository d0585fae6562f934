import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKeyInfo } from '@ticket/contracts';
import { getApi, isResponseError } from '@/lib/api';
import { apiKeyKeys } from './keys';

/**
 * The server's API key as the service shows it again (masked, with when it was made and last
 * used), or null when the server has none: for this one resource, 404 is the answer "no key yet".
 */
export const getApiKey = async (serverId: string, signal?: AbortSignal): Promise<ApiKeyInfo | null> => {
  try {
    return await getApi().authentication.getApiKey({ params: { serverId } }, { signal });
  } catch (error) {
    if (isResponseError(error, 404)) return null;
    throw error;
  }
};

export const apiKeyQueryOptions = (serverId: string) =>
  queryOptions({ queryKey: apiKeyKeys.server(serverId), queryFn: ({ signal }) => getApiKey(serverId, signal) });

export const useApiKey = (serverId: string, enabled = true) =>
  useQuery({ ...apiKeyQueryOptions(serverId), enabled: enabled && serverId !== '' });
