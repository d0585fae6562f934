import { getApi } from '@/lib/api';
import type { TicketFilters, TicketPage } from '@/lib/queries/get-server-tickets';

/** Full-text search in the server's tickets; each item carries the stretches of text that matched. */
export const searchServerTickets = (
  serverId: string,
  filters: TicketFilters,
  text: string,
  signal?: AbortSignal,
): Promise<TicketPage> =>
  getApi().support.searchServerTickets({ params: { serverId }, query: filters, body: { text } }, { signal });
