import type { Query } from '@tanstack/react-query';
import type { Ticket } from '@ticket/contracts';
import { isResponseError } from '@/lib/api';

/** How often an open ticket is read again, so new messages appear without a reload. */
export const LIVE_REFRESH_MS = 5000;

/**
 * The `refetchInterval` of a ticket: every 5 s while it is open, never once it is closed (nothing
 * more happens in it) or answers 4xx (it will answer the same). TanStack Query pauses interval
 * refetches while the tab is hidden (`refetchIntervalInBackground` stays false).
 */
export function liveRefetchInterval<K extends readonly unknown[]>(query: Query<Ticket, Error, Ticket, K>): number | false {
  const ticket = query.state.data;
  if (!ticket || ticket.state === 'Closed') return false;
  const error = query.state.error;
  if (isResponseError(error) && error.status >= 400 && error.status < 500) return false;
  return LIVE_REFRESH_MS;
}
