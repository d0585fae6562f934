import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getServerTickets } from '@/lib/queries/get-server-tickets';
import { searchTextOf, type TicketListParams, toTicketQuery } from '../lib/list-params';
import { type TicketScope } from '../lib/ticket-scope';
import { getPersonalTickets } from './get-personal-tickets';
import { ticketKeys } from './keys';
import { searchPersonalTickets } from './search-personal-tickets';
import { searchServerTickets } from './search-server-tickets';

export const TICKET_PAGE_SIZE = 25;

/** One page of a list, as its address describes it: the list call, or the search call when there is search text. */
export function ticketListQueryOptions(scope: TicketScope, params: TicketListParams) {
  const query = toTicketQuery(params, TICKET_PAGE_SIZE);
  const text = searchTextOf(params);
  return queryOptions({
    queryKey: scope.kind === 'server' ? ticketKeys.serverList(scope.serverId, query, text) : ticketKeys.personalList(query, text),
    queryFn: ({ signal }) => {
      if (scope.kind === 'server') {
        return text ? searchServerTickets(scope.serverId, query, text, signal) : getServerTickets(scope.serverId, query, signal);
      }
      return text ? searchPersonalTickets(query, text, signal) : getPersonalTickets(query, signal);
    },
  });
}

export const useTicketList = (scope: TicketScope, params: TicketListParams) =>
  // The previous page stays on screen while the next one loads, so the table does not jump.
  useQuery({ ...ticketListQueryOptions(scope, params), placeholderData: keepPreviousData });
