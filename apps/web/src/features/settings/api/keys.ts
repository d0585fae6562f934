import { subjectsQueryKey } from '@/lib/queries/get-subjects';

/**
 * The query keys of the settings area. Subjects share the prefix the staff screens use
 * (`['settings', serverId, 'subjects']`, lib/queries/get-subjects.ts), so every screen reads one cached answer.
 */
export const settingsKeys = {
  all: (serverId: string) => ['settings', serverId] as const,
  subjects: subjectsQueryKey,
  subject: (serverId: string, subjectId: string) => [...subjectsQueryKey(serverId), subjectId] as const,
  templates: (serverId: string, subjectId: string) => ['settings', serverId, 'templates', subjectId] as const,
  auditLog: (serverId: string, page: number) => ['settings', serverId, 'audit-log', page] as const,
};
