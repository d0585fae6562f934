import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subscription } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { refreshAfterChange } from './invalidate';

/** Moves the plan to another server where the buyer is staff; the server it leaves returns to Free. */
export const transferSubscription = (subscriptionId: string, serverId: string) =>
  getApi().payment.transferSubscription({ body: { subscriptionId, serverId } });

export function useTransferSubscription(subscription: Subscription) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (serverId: string) => transferSubscription(subscription.id, serverId),
    onSettled: (_data, _error, serverId) => refreshAfterChange(queryClient, [subscription.serverId, serverId]),
  });
}
