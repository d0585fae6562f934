import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKeyCallStatus } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { apiKeyKeys } from './keys';

export const API_KEY_CALLS_PAGE_SIZE = 20;

/** The calls made with the server's API key, newest first, a page at a time, and the limit the key has. */
export const getApiKeyCalls = (serverId: string, status: ApiKeyCallStatus | 'all', page: number, signal?: AbortSignal) =>
  getApi().authentication.getApiKeyCalls(
    {
      params: { serverId },
      query: { Page: page, Amount: API_KEY_CALLS_PAGE_SIZE, ...(status === 'all' ? {} : { status }) },
    },
    { signal },
  );

export const apiKeyCallsQueryOptions = (serverId: string, status: ApiKeyCallStatus | 'all', page: number) =>
  queryOptions({
    queryKey: apiKeyKeys.callsPage(serverId, status, page),
    queryFn: ({ signal }) => getApiKeyCalls(serverId, status, page, signal),
    placeholderData: keepPreviousData,
  });

export const useApiKeyCalls = (serverId: string, status: ApiKeyCallStatus | 'all', page: number) =>
  useQuery(apiKeyCallsQueryOptions(serverId, status, page));
