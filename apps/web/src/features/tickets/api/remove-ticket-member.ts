import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import type { TicketMemberChange } from './add-ticket-member';
import { ticketKeys } from './keys';

export const removeTicketMember = ({ serverId, ticketId, userId }: TicketMemberChange): Promise<void> =>
  getApi().support.removeTicketMember({ params: { serverId, ticketId }, body: { userId } });

/** Takes an added member out of a ticket; the ticket is read again without them. */
export function useRemoveTicketMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeTicketMember,
    onSuccess: (_, { serverId, ticketId }) => {
      void queryClient.invalidateQueries({ queryKey: ticketKeys.serverTicket(serverId, ticketId) });
      void queryClient.invalidateQueries({ queryKey: ticketKeys.personalTicket(ticketId) });
    },
  });
}
