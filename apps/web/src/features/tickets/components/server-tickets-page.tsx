import { Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { BotMissing } from '@/components/bot-missing';
import { LoadError } from '@/components/load-error';
import { StaffPageHeader } from '@/components/staff-page-header';
import { paths } from '@/lib/routes';
import { useCurrentServer } from '@/lib/use-current-server';
import { useServerTicket } from '../api/get-server-ticket';
import type { TicketScope } from '../lib/ticket-scope';
import { ListAndTicket } from './list-and-ticket';
import { TicketList, listPath } from './ticket-list';
import { TicketPanel } from './ticket-panel';

/**
 * `/staff/:serverId/tickets` and `/staff/:serverId/tickets/:ticketId`: the server's tickets, newest
 * activity first, and one of them titled with its number once it is known. One screen for both
 * routes, so the list stays as it was while a ticket is open; the way back keeps the list's query.
 */
export function ServerTicketsPage() {
  const { t } = useTranslation();
  const current = useCurrentServer();
  const { ticketId } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  // Without the bot there is nothing to show; a server that failed to load still has its tickets.
  const blocked = current.notFound;
  const serverId = current.serverId;
  const query = useServerTicket(blocked ? '' : serverId, ticketId);
  const scope = useMemo<TicketScope>(() => ({ kind: 'server', serverId }), [serverId]);
  const title = !ticketId
    ? t('staff.sections.tickets')
    : query.data
      ? t('tickets.numbered', { number: query.data.number })
      : t('staff.sections.ticket');

  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader
        current={current}
        title={title}
        trail={ticketId ? [{ label: t('staff.sections.tickets'), to: paths.tickets(serverId) + location.search }] : []}
      />
      {blocked ? (
        <BotMissing serverId={serverId} canInvite={current.isAdmin} />
      ) : (
        <>
          {current.error ? <LoadError message={t('staff.serverLoadFailed')} onRetry={current.refetch} /> : null}
          <ListAndTicket
            ticketId={ticketId}
            list={<TicketList scope={scope} />}
            ticket={<TicketPanel query={query} staff onDeleted={() => navigate(listPath(scope, location.search))} />}
          />
        </>
      )}
    </Stack>
  );
}
