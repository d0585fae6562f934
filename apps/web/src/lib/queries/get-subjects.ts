import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Subject } from '@ticket/contracts';
import { getApi } from '@/lib/api';

/** Settings, the panels and the Dashboard's checklist read this one cached answer. */
export const subjectsQueryKey = (serverId: string) => ['settings', serverId, 'subjects'] as const;

export const getSubjects = (serverId: string, signal?: AbortSignal): Promise<Subject[]> =>
  getApi().settings.getSubjects({ params: { serverId } }, { signal });

export const subjectsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: subjectsQueryKey(serverId),
    queryFn: ({ signal }) => getSubjects(serverId, signal),
  });

export const useSubjects = (serverId: string) => useQuery(subjectsQueryOptions(serverId));

/** The subjects the server really has, in their order: deleted ones stay stored but are gone for the user. */
export const liveSubjects = (subjects: readonly Subject[]): Subject[] =>
  subjects.filter((subject) => !subject.deleted).sort((a, b) => a.index - b.index);
