import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { apiKeyKeys } from './keys';

/** Creates the server's API key, or replaces the one it has: the answer is the only time the whole key is seen. */
export const createApiKey = (serverId: string) => getApi().authentication.createApiKey({ params: { serverId } });

export function useCreateApiKey(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createApiKey(serverId),
    // The whole key is not kept in the mutation cache once the screen lets go of it.
    gcTime: 0,
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.server(serverId) }),
  });
}
