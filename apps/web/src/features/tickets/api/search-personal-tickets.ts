import { getApi } from '@/lib/api';
import type { TicketFilters, TicketPage } from '@/lib/queries/get-server-tickets';

/** Full-text search in the caller's own tickets. */
export const searchPersonalTickets = (filters: TicketFilters, text: string, signal?: AbortSignal): Promise<TicketPage> =>
  getApi().support.searchPersonalTickets({ query: filters, body: { text } }, { signal });
