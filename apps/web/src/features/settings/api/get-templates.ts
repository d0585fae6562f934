import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Template } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { settingsKeys } from './keys';

/** The form questions of one subject, in order. */
export const getTemplates = (serverId: string, subjectId: string, signal?: AbortSignal): Promise<Template[]> =>
  getApi().settings.getTemplates({ params: { serverId }, query: { subjectId } }, { signal });

export const templatesQueryOptions = (serverId: string, subjectId: string) =>
  queryOptions({
    queryKey: settingsKeys.templates(serverId, subjectId),
    queryFn: ({ signal }) => getTemplates(serverId, subjectId, signal),
    select: (templates: Template[]) => [...templates].sort((a, b) => a.index - b.index),
  });

export const useTemplates = (serverId: string, subjectId: string) => useQuery(templatesQueryOptions(serverId, subjectId));
