import { whenNotFound } from '@/features/staff/api/when-not-found';
import { getApi } from '@/lib/api';
import { NO_TICKETS, type TicketFilters, type TicketPage } from './get-server-tickets';

/** Full-text search in the server's tickets; each item carries the stretches of text that matched. */
export const searchServerTickets = (
  serverId: string,
  filters: TicketFilters,
  text: string,
  signal?: AbortSignal,
): Promise<TicketPage> =>
  whenNotFound(getApi().support.searchServerTickets({ params: { serverId }, query: filters, body: { text } }, { signal }), NO_TICKETS);
