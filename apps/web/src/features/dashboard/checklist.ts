import type { Subject } from '@ticket/contracts';
import { liveSubjects } from '@/lib/queries/get-subjects';
import { paths } from '@/lib/routes';

export const CHECKLIST_ITEMS = ['subjects', 'panel', 'staffRoles', 'testWorkflow'] as const;
export type ChecklistItemId = (typeof CHECKLIST_ITEMS)[number];

/** `unknown`: the answer could not be loaded, so the item is neither done nor to do. */
export type ChecklistStatus = 'loading' | 'done' | 'todo' | 'unknown';

/** Where each step is done. The test workflow happens in Discord; its tickets show up here. */
export const CHECKLIST_PATH: Record<ChecklistItemId, (serverId: string) => string> = {
  subjects: paths.settings,
  panel: paths.panels,
  staffRoles: paths.settings,
  testWorkflow: paths.tickets,
};

export interface SubjectsSummary {
  count: number;
  hasStaffRoles: boolean;
}

export function summarizeSubjects(subjects: Subject[]): SubjectsSummary {
  const live = liveSubjects(subjects);
  return {
    count: live.length,
    // Staff roles only count where members can reach them: on a subject that is in use.
    hasStaffRoles: live.some((subject) => subject.active && subject.staffRoles.value.length > 0),
  };
}
