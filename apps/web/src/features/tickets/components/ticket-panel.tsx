import type { UseQueryResult } from '@tanstack/react-query';
import type { Ticket } from '@ticket/contracts';
import { lazy, Suspense } from 'react';
import { LoadingBlock } from '@/components/loading-block';
import { TicketLoadError } from './ticket-load-error';

// The view (with the markdown parser, BlurHash and the transcript) is a chunk of its own: the lists
// and the other staff screens sharing their frame do not need it until a ticket opens.
const TicketView = lazy(async () => ({ default: (await import('./ticket-view/ticket-view')).TicketView }));

interface TicketPanelProps {
  query: UseQueryResult<Ticket>;
  staff: boolean;
  onDeleted: () => void | Promise<void>;
}

/**
 * A ticket's query as a screen shows it. Once shown, a ticket stays on screen when a live refresh
 * fails; a first load that fails says why (SPEC §8).
 */
export function TicketPanel({ query, staff, onDeleted }: TicketPanelProps) {
  const loading = <LoadingBlock height={240} />;
  if (query.data) {
    return (
      <Suspense fallback={loading}>
        <TicketView ticket={query.data} staff={staff} onDeleted={onDeleted} />
      </Suspense>
    );
  }
  if (query.isError) return <TicketLoadError error={query.error} onRetry={() => void query.refetch()} />;
  return loading;
}
