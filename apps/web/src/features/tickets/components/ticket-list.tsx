import { Button, Stack } from '@mantine/core';
import type { PublicUser } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { useAuthStore } from '@/lib/auth-store';
import { paths } from '@/lib/routes';
import { useTicketList } from '../api/get-ticket-list';
import { useUserProfiles } from '../api/get-users';
import { hasFilters, readListParams, searchTextOf, type TicketListParams, writeListParams } from '../lib/list-params';
import type { TicketScope } from '../lib/ticket-scope';
import { TicketFilters } from './ticket-filters';
import { Pager } from '@/components/pager';
import { TicketSearch } from './ticket-search';
import { TicketTable } from './ticket-table';

/** Where one ticket of the list opens; it keeps the list's query, so the way back shows the same list. */
export const ticketPath = (scope: TicketScope, ticketId: string, search = ''): string =>
  (scope.kind === 'server' ? paths.ticket(scope.serverId, ticketId) : paths.myTicket(ticketId)) + search;

/** The list itself, with the same query. */
export const listPath = (scope: TicketScope, search = ''): string =>
  (scope.kind === 'server' ? paths.tickets(scope.serverId) : paths.myTickets()) + search;

/**
 * A ticket list (SPEC §2): search, filters, the table and its pages, all read from and written to
 * the address. The staff list of one server and the member's own list are the same list with
 * another scope.
 */
export function TicketList({ scope }: { scope: TicketScope }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  const params = readListParams(search);
  const query = useTicketList(scope, params);
  const me = useAuthStore((state) => state.user);

  const update = (changes: Partial<TicketListParams>, replace = false) =>
    setSearch((current) => writeListParams(current, changes), { replace, preventScrollReset: true });

  // The service has no filter for resolved tickets (closing soon); they are left out of the page here.
  const tickets = query.data?.elements ?? [];
  const attendeeIds = tickets.flatMap((ticket) => ticket.attendees.filter((id) => !ticket.users.some((user) => user.id === id)));
  const attendees = useUserProfiles(attendeeIds, scope.kind === 'server' ? scope.serverId : null);
  const profiles = new Map((attendees.data ?? []).map((user) => [user.id, user]));

  const knownUsers = new Map<string, PublicUser>();
  if (me) knownUsers.set(me.userId, { id: me.userId, name: me.globalName ?? me.username, avatarUrl: me.avatarUrl ?? null, color: null });
  for (const ticket of tickets) for (const user of ticket.users) if (!knownUsers.has(user.id)) knownUsers.set(user.id, user);
  for (const user of profiles.values()) if (!knownUsers.has(user.id)) knownUsers.set(user.id, user);

  const narrowed = hasFilters(params) || searchTextOf(params) !== null;

  const clearAll = () =>
    update({ text: '', server: null, subject: null, author: null, claimedBy: null, closedBy: null, onlyActive: false, hideResolved: false });

  let body;
  if (query.isPending) {
    body = <LoadingBlock height={200} />;
  } else if (query.isError) {
    body = <LoadError message={t('tickets.errorLoading')} onRetry={() => void query.refetch()} />;
  } else {
    const { page, maxPage } = query.data;
    const empty = !narrowed ? (
      scope.kind === 'server' ? (
        <EmptyState title={t('staff.tickets.empty')}>{t('staff.tickets.emptyHint')}</EmptyState>
      ) : (
        <EmptyState title={t('tickets.noneYet')}>{t('tickets.noneYetHint')}</EmptyState>
      )
    ) : (
      <EmptyState
        title={t('tickets.noMatches')}
        action={
          <Button variant="light" size="xs" onClick={clearAll}>
            {t('tickets.showAll')}
          </Button>
        }
      >
        {t('tickets.noMatchesHint')}
      </EmptyState>
    );
    body = (
      <Stack gap="sm" aria-busy={query.isPlaceholderData || undefined}>
        {tickets.length > 0 ? (
          <TicketTable
            tickets={tickets}
            linkTo={(ticket) => ticketPath(scope, ticket.ticketId, location.search)}
            showServer={scope.kind === 'personal'}
            profiles={profiles}
          />
        ) : (
          empty
        )}
        {/* A page past the end, or one whose tickets were all left out, still has the way to the others. */}
        {(tickets.length > 0 || maxPage > 1) && (
          <Pager page={page} maxPage={Math.max(maxPage, 1)} onChange={(next) => update({ page: next })} />
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <TicketSearch value={params.text} onSearch={(text) => update({ text }, true)} />
      <TicketFilters scope={scope} params={params} onChange={update} knownUsers={[...knownUsers.values()]} />
      {body}
    </Stack>
  );
}
