import { useMutation } from '@tanstack/react-query';
import type { ServerSettingsUpdate, UpdateResult } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { setAt } from '../lib/setting-paths';
import { patchServerSettings } from './server-settings-cache';

/** `PATCH /servers/:serverId/settings`: one server-level setting, at once (a switch, not typing). */
export const updateServerSettings = (serverId: string, update: Omit<ServerSettingsUpdate, 'serverId'>): Promise<UpdateResult> =>
  getApi().settings.updateServerSettings({ params: { serverId }, body: { ...update, serverId } });

export const useUpdateServerSettings = (serverId: string) =>
  useMutation({
    mutationFn: (update: Omit<ServerSettingsUpdate, 'serverId'>) => updateServerSettings(serverId, update),
    onSuccess: (result) => patchServerSettings(serverId, (settings) => setAt(settings, result.path, result.value)),
  });
