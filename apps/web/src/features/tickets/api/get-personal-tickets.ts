import { whenNotFound } from '@/features/staff/api/when-not-found';
import { getApi } from '@/lib/api';
import { NO_TICKETS, type TicketFilters, type TicketPage } from './get-server-tickets';

/** The caller's tickets across servers; none yet when the call answers 404. */
export const getPersonalTickets = (filters: TicketFilters, signal?: AbortSignal): Promise<TicketPage> =>
  whenNotFound(getApi().support.getPersonalTickets({ query: filters }, { signal }), NO_TICKETS);
