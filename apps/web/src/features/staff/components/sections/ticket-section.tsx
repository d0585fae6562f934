import type { UseQueryResult } from '@tanstack/react-query';
import type { Ticket } from '@ticket/contracts';
import { LoadingBlock } from '@/components/loading-block';
import { TicketDetails } from '@/features/tickets/components/ticket-details';
import { TicketLoadError } from '@/features/tickets/components/ticket-load-error';

/** One ticket of the server; the query is the frame's, which also names the page after it. */
export function TicketSection({ query }: { query: UseQueryResult<Ticket> }) {
  if (query.isPending) return <LoadingBlock height={240} />;
  if (query.isError) return <TicketLoadError error={query.error} onRetry={() => void query.refetch()} />;
  return <TicketDetails ticket={query.data} />;
}
