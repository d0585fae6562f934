import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateWhitelabelRequest } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { whitelabelQueryOptions } from '@/lib/queries/get-whitelabel';
import { cancelWhitelabelReads } from './cancel-reads';

/** Sets the server's white-label bot up with its token: the service checks the token with the platform (400 'Invalid token'). */
export const createWhitelabel = (serverId: string, body: CreateWhitelabelRequest) =>
  getApi().deployment.createWhitelabel({ params: { serverId }, body });

export function useCreateWhitelabel(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWhitelabelRequest) => createWhitelabel(serverId, body),
    // The token is the mutation's variable: it is not kept once the page lets go of the mutation.
    gcTime: 0,
    onMutate: () => cancelWhitelabelReads(queryClient, serverId),
    onSuccess: (entry) => queryClient.setQueryData(whitelabelQueryOptions(serverId).queryKey, entry),
  });
}
