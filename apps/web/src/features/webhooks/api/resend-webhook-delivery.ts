import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { webhookKeys } from './keys';

/** Sends a delivery again as a new one with the same event id. */
export const resendWebhookDelivery = (serverId: string, endpointId: string, deliveryId: string) =>
  getApi().settings.resendWebhookDelivery({ params: { serverId, endpointId, deliveryId } });

export function useResendWebhookDelivery(serverId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => resendWebhookDelivery(serverId, endpointId, deliveryId),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(serverId), exact: true }),
        queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(serverId, endpointId) }),
      ]),
  });
}
