import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { whitelabelQueryOptions } from '@/lib/queries/get-whitelabel';
import { cancelWhitelabelReads } from './cancel-reads';

/** Starts (or restarts) the bot: the service answers Starting, and its runner reports Running or Failed. */
export const startWhitelabel = (serverId: string) => getApi().deployment.startWhitelabel({ params: { serverId } });

export function useStartWhitelabel(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startWhitelabel(serverId),
    onMutate: () => cancelWhitelabelReads(queryClient, serverId),
    onSuccess: (entry) => queryClient.setQueryData(whitelabelQueryOptions(serverId).queryKey, entry),
  });
}
