import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Subject } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { whenNotFound } from './when-not-found';

export const getSubjects = (serverId: string, signal?: AbortSignal): Promise<Subject[]> =>
  whenNotFound(getApi().settings.getSubjects({ params: { serverId } }, { signal }), []);

export const subjectsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ['settings', serverId, 'subjects'],
    queryFn: ({ signal }) => getSubjects(serverId, signal),
  });

export const useSubjects = (serverId: string) => useQuery(subjectsQueryOptions(serverId));

/** The subjects a server really has: deleted ones stay in storage but are gone for the user. */
export const liveSubjects = (subjects: Subject[]): Subject[] =>
  subjects.filter((subject) => !subject.deleted).sort((a, b) => a.index - b.index);
