import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateWhitelabelRequest } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { whitelabelQueryOptions } from '@/lib/queries/get-whitelabel';
import { cancelWhitelabelReads } from './cancel-reads';

/**
 * A new token (checked with the platform first: refused, nothing changes) or activity. The service
 * restarts a bot that runs or is starting when its token changes.
 */
export const updateWhitelabel = (serverId: string, body: UpdateWhitelabelRequest) =>
  getApi().deployment.updateWhitelabel({ params: { serverId }, body });

export function useUpdateWhitelabel(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateWhitelabelRequest) => updateWhitelabel(serverId, body),
    // A new token is the mutation's variable: it is not kept once the page lets go of the mutation.
    gcTime: 0,
    onMutate: () => cancelWhitelabelReads(queryClient, serverId),
    onSuccess: (entry) => queryClient.setQueryData(whitelabelQueryOptions(serverId).queryKey, entry),
  });
}
