import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookEndpoint } from '@ticket/contracts';
import { getApi, isResponseError } from '@/lib/api';
import { webhookKeys } from './keys';

/** Removes an endpoint with its deliveries. One already gone (404) is as good as deleted. */
export const deleteWebhookEndpoint = async (serverId: string, endpointId: string): Promise<void> => {
  try {
    await getApi().settings.deleteWebhookEndpoint({ params: { serverId, endpointId } });
  } catch (error) {
    if (!isResponseError(error, 404)) throw error;
  }
};

export function useDeleteWebhookEndpoint(serverId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteWebhookEndpoint(serverId, endpointId),
    onSuccess: () =>
      queryClient.setQueryData<WebhookEndpoint[]>(webhookKeys.endpoints(serverId), (list) =>
        list?.filter((item) => item.endpointId !== endpointId),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(serverId) }),
  });
}
