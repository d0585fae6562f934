import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi, isResponseError } from '@/lib/api';
import { apiKeyKeys } from './keys';

/** Deletes the server's API key: it stops working at once. A key already gone (404) is as good as deleted. */
export const deleteApiKey = async (serverId: string): Promise<void> => {
  try {
    await getApi().authentication.deleteApiKey({ params: { serverId } });
  } catch (error) {
    if (!isResponseError(error, 404)) throw error;
  }
};

export function useDeleteApiKey(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteApiKey(serverId),
    onSuccess: () => queryClient.setQueryData(apiKeyKeys.server(serverId), null),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.server(serverId) }),
  });
}
