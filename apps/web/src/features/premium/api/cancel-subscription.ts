import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subscription } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { refreshAfterChange } from './invalidate';

/** Cancels: active until the end of the paid period, or refunded and ended at once within the refund window. */
export const cancelSubscription = (subscriptionId: string) => getApi().payment.cancelSubscription({ body: { subscriptionId } });

export function useCancelSubscription(subscription: Subscription) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelSubscription(subscription.id),
    onSettled: () => refreshAfterChange(queryClient, [subscription.serverId]),
  });
}
