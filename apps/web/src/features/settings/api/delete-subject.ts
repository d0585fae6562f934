import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subject } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { settingsKeys } from './keys';
import { refreshServerSettings } from './server-settings-cache';

export const deleteSubject = (serverId: string, subjectId: string): Promise<void> =>
  getApi().settings.deleteSubject({ params: { serverId, subjectId } });

export function useDeleteSubject(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subjectId: string) => deleteSubject(serverId, subjectId),
    onSuccess: (_, subjectId) => {
      queryClient.setQueryData<Subject[]>(settingsKeys.subjects(serverId), (list) =>
        list?.filter((subject) => subject.subjectId !== subjectId),
      );
      queryClient.removeQueries({ queryKey: settingsKeys.subject(serverId, subjectId), exact: true });
      // Positions close up, and subjects inheriting from it no longer do.
      void queryClient.invalidateQueries({ queryKey: settingsKeys.subjects(serverId) });
      refreshServerSettings(serverId);
    },
  });
}
