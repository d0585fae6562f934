import type { SettingsOperation, UpdateResult } from '@ticket/contracts';
import { getApi } from '@/lib/api';

/** One immediate change of one subject (PATCH subject): the list's rename, switch and reordering. */
export const updateSubject = (
  serverId: string,
  subjectId: string,
  path: string,
  value: unknown,
  operation: SettingsOperation = 'set',
): Promise<UpdateResult> =>
  getApi().settings.updateSubject({
    params: { serverId, subjectId },
    body: { serverId, subjectId, path, operation, value },
  });
