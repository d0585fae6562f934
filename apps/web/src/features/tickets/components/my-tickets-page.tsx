import { Anchor, Group, NativeSelect, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { useAuthStore } from '@/lib/auth-store';
import { paths } from '@/lib/routes';
import { usePersonalTicket } from '../api/get-personal-ticket';
import { usePersonalTickets } from '../api/get-personal-tickets';
import { TicketDetails } from './ticket-details';
import { TicketLoadError } from './ticket-load-error';
import { TicketPager, usePageParam } from './ticket-pager';
import { TicketTable } from './ticket-table';

const PAGE_SIZE = 25;

/** `/tickets` and `/tickets/:ticketId`: the tickets the user opened or was added to, on any server. */
export function MyTicketsPage() {
  const { t } = useTranslation();
  const { ticketId } = useParams();
  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <DocumentTitle title={t('menu.myTickets')} />
      {ticketId ? <PersonalTicket ticketId={ticketId} /> : <PersonalTicketList />}
    </Stack>
  );
}

function PersonalTicketList() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const [page, setPage] = usePageParam();
  const servers = useAuthStore((state) => state.user?.servers ?? []);
  const server = search.get('server') ?? '';
  const tickets = usePersonalTickets({ Server: server || undefined, Page: page, Amount: PAGE_SIZE });

  const chooseServer = (value: string) =>
    setSearch((current) => {
      const params = new URLSearchParams(current);
      params.delete('page');
      if (value) params.set('server', value);
      else params.delete('server');
      return params;
    });

  return (
    <>
      <Title order={1}>{t('menu.myTickets')}</Title>
      <NativeSelect
        label={t('tickets.serverFilter')}
        value={server}
        onChange={(event) => chooseServer(event.currentTarget.value)}
        data={[
          { value: '', label: t('tickets.allServers') },
          ...servers.map((entry) => ({ value: entry.serverId, label: entry.name })),
        ]}
        maw={360}
      />
      {tickets.isPending ? (
        <LoadingBlock height={160} />
      ) : tickets.isError ? (
        <LoadError message={t('tickets.errorLoading')} onRetry={() => void tickets.refetch()} />
      ) : tickets.data.elements.length === 0 ? (
        <EmptyState title={server ? t('tickets.noneOnServer') : t('tickets.noneYet')}>{t('tickets.noneYetHint')}</EmptyState>
      ) : (
        <Stack gap="sm">
          <TicketTable tickets={tickets.data.elements} linkTo={(ticket) => paths.myTicket(ticket.ticketId)} showServer />
          <TicketPager page={tickets.data.page} maxPage={tickets.data.maxPage} onChange={setPage} />
        </Stack>
      )}
    </>
  );
}

function PersonalTicket({ ticketId }: { ticketId: string }) {
  const { t } = useTranslation();
  const ticket = usePersonalTicket(ticketId);
  return (
    <>
      <Group gap="xs">
        <Anchor component={Link} to="/tickets" size="sm">
          {t('tickets.backToMyTickets')}
        </Anchor>
      </Group>
      <Title order={1}>{t('menu.myTickets')}</Title>
      {ticket.isPending ? (
        <LoadingBlock height={240} />
      ) : ticket.isError ? (
        <TicketLoadError error={ticket.error} onRetry={() => void ticket.refetch()} />
      ) : (
        <TicketDetails ticket={ticket.data} />
      )}
    </>
  );
}
