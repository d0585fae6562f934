import { whenNotFound } from '@/features/staff/api/when-not-found';
import { getApi } from '@/lib/api';
import { NO_TICKETS, type TicketFilters, type TicketPage } from './get-server-tickets';

/** Full-text search in the caller's own tickets. */
export const searchPersonalTickets = (filters: TicketFilters, text: string, signal?: AbortSignal): Promise<TicketPage> =>
  whenNotFound(getApi().support.searchPersonalTickets({ query: filters, body: { text } }, { signal }), NO_TICKETS);
