import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { refreshAfterChange } from './invalidate';

/** Detaches the server's subscription: the server returns to Free; its buyer may apply it elsewhere. */
export const revokeSubscription = (serverId: string) => getApi().payment.revokeSubscription({ params: { serverId } });

export function useRevokeSubscription(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => revokeSubscription(serverId),
    onSettled: () => refreshAfterChange(queryClient, [serverId]),
  });
}
