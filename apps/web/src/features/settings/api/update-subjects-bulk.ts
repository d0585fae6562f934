import type { SettingsUpdate, UpdateResult } from '@ticket/contracts';
import { getApi } from '@/lib/api';

/** `PATCH /servers/:serverId/subjects/bulk`: the queued updates in order, all or none (SPEC §4). */
export const updateSubjectsBulk = (serverId: string, updates: SettingsUpdate[]): Promise<UpdateResult[]> =>
  getApi().settings.updateSubjectsBulk({ params: { serverId }, body: { updates } });
