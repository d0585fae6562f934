import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { webhookKeys } from './keys';

/** Sends a webhook.test event now; the answer is the delivery with its first attempt. */
export const createWebhookTestDelivery = (serverId: string, endpointId: string) =>
  getApi().settings.createWebhookTestDelivery({ params: { serverId, endpointId } });

export function useCreateWebhookTestDelivery(serverId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createWebhookTestDelivery(serverId, endpointId),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(serverId), exact: true }),
        queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(serverId, endpointId) }),
      ]),
  });
}
