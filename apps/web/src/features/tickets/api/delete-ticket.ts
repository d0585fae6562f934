import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { ticketKeys } from './keys';

export const deleteTicket = (serverId: string, ticketId: string): Promise<void> =>
  getApi().support.deleteTicket({ params: { serverId, ticketId } });

/** Deletes a ticket with its messages and files; every list and statistic that counted it is read again. */
export function useDeleteTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ serverId, ticketId }: { serverId: string; ticketId: string }) => deleteTicket(serverId, ticketId),
    onSuccess: (_, { serverId }) => {
      void queryClient.invalidateQueries({ queryKey: ticketKeys.serverLists(serverId) });
      void queryClient.invalidateQueries({ queryKey: ticketKeys.personalLists() });
      void queryClient.invalidateQueries({ queryKey: ['support', serverId, 'stats'] });
      void queryClient.invalidateQueries({ queryKey: ['files', serverId, 'stats'] });
    },
  });
}

/**
 * Drops what is cached of a deleted ticket, so Back does not show it again. Called once the screen
 * has left it: while it is shown, dropping it would only make it load (and fail) again.
 */
export function forgetTicket(queryClient: QueryClient, serverId: string, ticketId: string): void {
  queryClient.removeQueries({ queryKey: ticketKeys.serverTicket(serverId, ticketId) });
  queryClient.removeQueries({ queryKey: ticketKeys.personalTicket(ticketId) });
  queryClient.removeQueries({ queryKey: ticketKeys.ticketFiles(serverId, ticketId) });
}
