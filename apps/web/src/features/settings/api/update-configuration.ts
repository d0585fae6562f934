import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConfigurationChanges, ConfigurationDocument } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { settingsKeys } from './keys';
import { refreshServerSettings } from './server-settings-cache';

/** `POST /servers/:serverId/configuration`: imports the file, all of it or nothing. */
export const updateConfiguration = (serverId: string, file: ConfigurationDocument): Promise<ConfigurationChanges> =>
  getApi().settings.updateConfiguration({ params: { serverId }, body: file });

export function useImportConfiguration(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: ConfigurationDocument) => updateConfiguration(serverId, file),
    onSuccess: () => {
      // Subjects, questions and the activity log all changed.
      void queryClient.invalidateQueries({ queryKey: settingsKeys.all(serverId) });
      refreshServerSettings(serverId);
    },
  });
}
