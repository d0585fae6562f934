import type { QueryClient } from '@tanstack/react-query';
import { whitelabelQueryOptions } from '@/lib/queries/get-whitelabel';

/**
 * Before a change: a read already on its way (the page polls while the bot starts) must not land
 * after the change's answer and put the bot back as it was.
 */
export const cancelWhitelabelReads = (queryClient: QueryClient, serverId: string) =>
  queryClient.cancelQueries({ queryKey: whitelabelQueryOptions(serverId).queryKey });
