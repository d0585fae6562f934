import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Panel } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { storePanel } from './cache';

/** `POST /servers/:serverId/panels/:id/resend`: posts the panel again as a new message. */
export const resendPanel = (serverId: string, id: string): Promise<Panel> =>
  getApi().settings.resendPanel({ params: { serverId, id } });

export function useResendPanel(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => resendPanel(serverId, id),
    onSuccess: (panel) => storePanel(queryClient, serverId, panel),
  });
}
