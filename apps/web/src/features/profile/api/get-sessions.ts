import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';

export const getSessions = (signal?: AbortSignal) => getApi().authentication.getSessions({}, { signal });

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['authentication', 'sessions'],
    queryFn: ({ signal }) => getSessions(signal),
  });

export const useSessions = () => useQuery(sessionsQueryOptions());
