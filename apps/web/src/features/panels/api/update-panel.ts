import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Panel, PanelInput } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { storePanel } from './cache';

/** `PATCH /servers/:serverId/panels/:id`: unless it is a draft, the posted message is edited (or posted). */
export const updatePanel = (serverId: string, id: string, body: PanelInput): Promise<Panel> =>
  getApi().settings.updatePanel({ params: { serverId, id }, body });

export function useUpdatePanel(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PanelInput }) => updatePanel(serverId, id, body),
    onSuccess: (panel) => storePanel(queryClient, serverId, panel),
  });
}
