import { getApi } from '@/lib/api';
import type { TicketFilters, TicketPage } from '@/lib/queries/get-server-tickets';

/** The caller's tickets across servers. */
export const getPersonalTickets = (filters: TicketFilters, signal?: AbortSignal): Promise<TicketPage> =>
  getApi().support.getPersonalTickets({ query: filters }, { signal });
