import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePlanRequest, Subscription } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { refreshAfterChange } from './invalidate';

/** Changes the plan or the billing period: applied now, scheduled for the period's end, or waiting for the payer's confirmation. */
export const changePlan = (body: ChangePlanRequest) => getApi().payment.changePlan({ body });

export function useChangePlan(subscription: Subscription) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePlan,
    onSettled: () => refreshAfterChange(queryClient, [subscription.serverId]),
  });
}
