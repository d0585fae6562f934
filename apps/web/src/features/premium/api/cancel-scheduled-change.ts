import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subscription } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { refreshAfterChange } from './invalidate';

/** Drops the plan change waiting for the end of the period. */
export const cancelScheduledChange = (subscriptionId: string) => getApi().payment.cancelScheduledChange({ body: { subscriptionId } });

export function useCancelScheduledChange(subscription: Subscription) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelScheduledChange(subscription.id),
    onSettled: () => refreshAfterChange(queryClient, [subscription.serverId]),
  });
}
