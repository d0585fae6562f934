import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';

export const getLoginConfig = (signal?: AbortSignal) => getApi().authentication.getLoginConfig({}, { signal });

export const loginConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['authentication', 'login-config'],
    queryFn: ({ signal }) => getLoginConfig(signal),
    // It changes only when the server is reconfigured.
    staleTime: Infinity,
  });

export const useLoginConfig = () => useQuery(loginConfigQueryOptions());
