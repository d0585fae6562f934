import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi, isResponseError } from '@/lib/api';
import { whitelabelQueryOptions } from '@/lib/queries/get-whitelabel';
import { cancelWhitelabelReads } from './cancel-reads';

/** Stops and removes the server's white-label bot, token and all. A bot already gone (404) is as good as removed. */
export const deleteWhitelabel = async (serverId: string): Promise<void> => {
  try {
    await getApi().deployment.deleteWhitelabel({ params: { serverId } });
  } catch (error) {
    if (!isResponseError(error, 404)) throw error;
  }
};

export function useDeleteWhitelabel(serverId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = whitelabelQueryOptions(serverId);
  return useMutation({
    mutationFn: () => deleteWhitelabel(serverId),
    onMutate: () => cancelWhitelabelReads(queryClient, serverId),
    onSuccess: () => queryClient.setQueryData(queryKey, null),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
