import type { UseQueryResult } from '@tanstack/react-query';
import type { Ticket } from '@ticket/contracts';
import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ListAndTicket } from '@/features/tickets/components/list-and-ticket';
import { TicketList, listPath } from '@/features/tickets/components/ticket-list';
import { TicketPanel } from '@/features/tickets/components/ticket-panel';
import type { TicketScope } from '@/features/tickets/lib/ticket-scope';

interface TicketsSectionProps {
  serverId: string;
  /** Set at `/staff/:serverId/tickets/:ticketId`. */
  ticketId: string | undefined;
  /** That ticket's query; the frame's, which also names the page after it. */
  ticket: UseQueryResult<Ticket>;
}

/** The server's tickets, newest activity first, and one of them on the list's child route. */
export function TicketsSection({ serverId, ticketId, ticket }: TicketsSectionProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const scope = useMemo<TicketScope>(() => ({ kind: 'server', serverId }), [serverId]);
  return (
    <ListAndTicket
      ticketId={ticketId}
      list={<TicketList scope={scope} />}
      ticket={<TicketPanel query={ticket} staff onDeleted={() => navigate(listPath(scope, location.search))} />}
    />
  );
}
