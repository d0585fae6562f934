import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Panel } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { panelsKeys } from './keys';

/** `DELETE /servers/:serverId/panels/:id`: the panel and its posted message. */
export const deletePanel = (serverId: string, id: string): Promise<void> =>
  getApi().settings.deletePanel({ params: { serverId, id } });

export function useDeletePanel(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deletePanel(serverId, id),
    onSuccess: (_, id) =>
      queryClient.setQueryData<Panel[]>(panelsKeys.list(serverId), (list) => list?.filter((p) => p.id !== id)),
  });
}
