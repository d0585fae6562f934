import { useMutation } from '@tanstack/react-query';
import type { ConfigurationChanges, ConfigurationDocument } from '@ticket/contracts';
import { getApi } from '@/lib/api';

/**
 * `POST /servers/:serverId/configuration/preview`: what importing the file would change, after
 * the server checked all of it; nothing is written. The file goes as it was read: the server names
 * any field that is wrong.
 */
export const getConfigurationChanges = (serverId: string, file: ConfigurationDocument): Promise<ConfigurationChanges> =>
  getApi().settings.getConfigurationChanges({ params: { serverId }, body: file });

export const usePreviewConfiguration = (serverId: string) =>
  useMutation({ mutationFn: (file: ConfigurationDocument) => getConfigurationChanges(serverId, file) });
