import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';

export const getSubject = (serverId: string, subjectId: string, signal?: AbortSignal) =>
  getApi().settings.getSubject({ params: { serverId, subjectId } }, { signal });

export const subjectQueryOptions = (serverId: string, subjectId: string) =>
  queryOptions({
    queryKey: ['settings', serverId, 'subjects', subjectId],
    queryFn: ({ signal }) => getSubject(serverId, subjectId, signal),
  });

export const useSubject = (serverId: string, subjectId: string) => useQuery(subjectQueryOptions(serverId, subjectId));
