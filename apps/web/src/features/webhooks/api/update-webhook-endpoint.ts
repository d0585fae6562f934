import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateWebhookEndpointRequest, WebhookEndpoint } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { webhookKeys } from './keys';

/** Changes an endpoint's URL, events or description, or switches it off or on. */
export const updateWebhookEndpoint = (serverId: string, endpointId: string, body: UpdateWebhookEndpointRequest) =>
  getApi().settings.updateWebhookEndpoint({ params: { serverId, endpointId }, body });

export function useUpdateWebhookEndpoint(serverId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateWebhookEndpointRequest) => updateWebhookEndpoint(serverId, endpointId, body),
    onSuccess: (endpoint) =>
      queryClient.setQueryData<WebhookEndpoint[]>(webhookKeys.endpoints(serverId), (list) =>
        list?.map((item) => (item.endpointId === endpoint.endpointId ? endpoint : item)),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(serverId) }),
  });
}
