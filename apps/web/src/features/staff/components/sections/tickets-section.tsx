import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { TicketPager, usePageParam } from '@/features/tickets/components/ticket-pager';
import { TicketTable } from '@/features/tickets/components/ticket-table';
import { paths } from '@/lib/routes';
import { useServerTickets } from '../../api/get-server-tickets';

const PAGE_SIZE = 25;

/** The server's tickets, newest activity first. */
export function TicketsSection({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = usePageParam();
  const query = useServerTickets(serverId, { Page: page, Amount: PAGE_SIZE });

  if (query.isPending) return <LoadingBlock height={200} />;
  if (query.isError) return <LoadError message={t('tickets.errorLoading')} onRetry={() => void query.refetch()} />;
  if (query.data.elements.length === 0) {
    return <EmptyState title={t('staff.tickets.empty')}>{t('staff.tickets.emptyHint')}</EmptyState>;
  }
  return (
    <Stack gap="sm">
      <TicketTable
        tickets={query.data.elements}
        linkTo={(ticket) => paths.ticket(serverId, ticket.ticketId)}
      />
      <TicketPager page={query.data.page} maxPage={query.data.maxPage} onChange={setPage} />
    </Stack>
  );
}
