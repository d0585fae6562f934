import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhookEndpointRequest } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { webhookKeys } from './keys';

/** Registers an endpoint: the answer is the only time its signing secret is seen. */
export const createWebhookEndpoint = (serverId: string, body: CreateWebhookEndpointRequest) =>
  getApi().settings.createWebhookEndpoint({ params: { serverId }, body });

export function useCreateWebhookEndpoint(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookEndpointRequest) => createWebhookEndpoint(serverId, body),
    // The secret is not kept in the mutation cache once the screen lets go of it.
    gcTime: 0,
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(serverId) }),
  });
}
