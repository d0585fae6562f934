import type { QueryClient } from '@tanstack/react-query';
import { serverDetailsQueryOptions } from '@/lib/server-context';
import { premiumKeys } from './keys';

/**
 * After a purchase or a change: the subscriptions, and the plan of every server involved (the
 * shell's plan badge and the limits of the settings read it from the server's details).
 */
export async function refreshAfterChange(queryClient: QueryClient, serverIds: (string | null | undefined)[]): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: premiumKeys.all }),
    ...[...new Set(serverIds.filter((id): id is string => Boolean(id)))].map((serverId) =>
      queryClient.invalidateQueries({ queryKey: serverDetailsQueryOptions(serverId).queryKey }),
    ),
  ]);
}
