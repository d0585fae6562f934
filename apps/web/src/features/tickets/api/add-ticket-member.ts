import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { ticketKeys } from './keys';

export interface TicketMemberChange {
  serverId: string;
  ticketId: string;
  userId: string;
}

export const addTicketMember = ({ serverId, ticketId, userId }: TicketMemberChange): Promise<void> =>
  getApi().support.addTicketMember({ params: { serverId, ticketId }, body: { userId } });

/** Lets a member of the server into a ticket; the ticket is read again to show them. */
export function useAddTicketMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addTicketMember,
    onSuccess: (_, { serverId, ticketId }) => {
      void queryClient.invalidateQueries({ queryKey: ticketKeys.serverTicket(serverId, ticketId) });
      void queryClient.invalidateQueries({ queryKey: ticketKeys.personalTicket(ticketId) });
    },
  });
}
