import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { panelsQueryOptions } from '@/lib/queries/get-panels';
import { serverTicketsQueryOptions } from '@/lib/queries/get-server-tickets';
import { subjectsQueryOptions } from '@/lib/queries/get-subjects';
import { type ChecklistItemId, type ChecklistStatus, summarizeSubjects } from '../checklist';

export interface ChecklistEntry {
  id: ChecklistItemId;
  status: ChecklistStatus;
  retry: () => void;
}

// Shape checks run in `select`, so an answer that is not what the contract says becomes an
// "unknown" item with a retry instead of breaking the whole dashboard.
const countOf = (list: unknown[]) => list.length;
const ONE_TICKET = { Amount: 1 } as const;

function statusOf<T>(query: UseQueryResult<T>, done: (data: T) => boolean): ChecklistStatus {
  if (query.isPending) return 'loading';
  if (query.isError) return 'unknown';
  return done(query.data) ? 'done' : 'todo';
}

/** The getting-started steps of one server, each computed from the server's real data. */
export function useChecklist(serverId: string): ChecklistEntry[] {
  const subjects = useQuery({ ...subjectsQueryOptions(serverId), select: summarizeSubjects });
  const panels = useQuery({ ...panelsQueryOptions(serverId), select: countOf });
  const tickets = useQuery({
    ...serverTicketsQueryOptions(serverId, ONE_TICKET),
    select: (page) => countOf(page.elements),
  });
  const retry = (query: UseQueryResult) => () => void query.refetch();

  return [
    { id: 'subjects', status: statusOf(subjects, (s) => s.count > 0), retry: retry(subjects) },
    { id: 'panel', status: statusOf(panels, (count) => count > 0), retry: retry(panels) },
    { id: 'staffRoles', status: statusOf(subjects, (s) => s.hasStaffRoles), retry: retry(subjects) },
    { id: 'testWorkflow', status: statusOf(tickets, (count) => count > 0), retry: retry(tickets) },
  ];
}
