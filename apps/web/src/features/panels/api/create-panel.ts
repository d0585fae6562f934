import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Panel, PanelInput } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { storePanel } from './cache';

/** `POST /servers/:serverId/panels`: saves a panel and, unless it is a draft, posts it. */
export const createPanel = (serverId: string, body: PanelInput): Promise<Panel> =>
  getApi().settings.createPanel({ params: { serverId }, body });

export function useCreatePanel(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PanelInput) => createPanel(serverId, body),
    onSuccess: (panel) => storePanel(queryClient, serverId, panel),
  });
}
