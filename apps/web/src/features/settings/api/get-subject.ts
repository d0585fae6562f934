import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Subject } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { settingsKeys } from './keys';

export const getSubject = (serverId: string, subjectId: string, signal?: AbortSignal): Promise<Subject> =>
  getApi().settings.getSubject({ params: { serverId, subjectId } }, { signal });

export const subjectQueryOptions = (serverId: string, subjectId: string) =>
  queryOptions({
    queryKey: settingsKeys.subject(serverId, subjectId),
    queryFn: ({ signal }) => getSubject(serverId, subjectId, signal),
  });

export const useSubject = (serverId: string, subjectId: string) =>
  useQuery({ ...subjectQueryOptions(serverId, subjectId), enabled: serverId !== '' && subjectId !== '' });
