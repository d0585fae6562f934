import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subject } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { settingsKeys } from './keys';
import { refreshServerSettings } from './server-settings-cache';

export const createSubject = (serverId: string, name: string): Promise<Subject> =>
  getApi().settings.createSubject({ params: { serverId }, body: { name } });

export function useCreateSubject(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => createSubject(serverId, name),
    onSuccess: (subject) => {
      queryClient.setQueryData(settingsKeys.subject(serverId, subject.subjectId), subject);
      queryClient.setQueryData<Subject[]>(settingsKeys.subjects(serverId), (list) => (list ? [...list, subject] : list));
      void queryClient.invalidateQueries({ queryKey: settingsKeys.subjects(serverId), exact: true });
      refreshServerSettings(serverId);
    },
  });
}
