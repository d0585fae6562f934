import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { webhookKeys } from './keys';

/** Rotates an endpoint's signing secret: the old one stops at once, the new one is seen this once. */
export const changeWebhookSecret = (serverId: string, endpointId: string) =>
  getApi().settings.changeWebhookSecret({ params: { serverId, endpointId } });

export function useChangeWebhookSecret(serverId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => changeWebhookSecret(serverId, endpointId),
    gcTime: 0,
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(serverId) }),
  });
}
