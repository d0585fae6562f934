import { Anchor, Group, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { isStaffRole, roleOf, useAuthStore } from '@/lib/auth-store';
import { usePersonalTicket } from '../api/get-personal-ticket';
import type { TicketScope } from '../lib/ticket-scope';
import { ListAndTicket } from './list-and-ticket';
import { TicketList, listPath } from './ticket-list';
import { TicketPanel } from './ticket-panel';

const PERSONAL: TicketScope = { kind: 'personal' };

/** `/tickets` and `/tickets/:ticketId`: the tickets the user opened or was added to, on any server. */
export function MyTicketsPage() {
  const { t } = useTranslation();
  const { ticketId } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const ticket = usePersonalTicket(ticketId);
  const serverId = ticket.data?.server.serverId;
  // Staff of the ticket's server see it as staff do there: with the delete action.
  const staff = useAuthStore((state) => (serverId ? isStaffRole(roleOf(state.user, serverId)) : false));
  const back = listPath(PERSONAL, location.search);
  const title =
    ticketId && ticket.data ? `${t('tickets.numbered', { number: ticket.data.number })} · ${t('menu.myTickets')}` : t('menu.myTickets');

  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <DocumentTitle title={title} />
      {ticketId && (
        <Group gap="xs">
          <Anchor component={Link} to={back} size="sm">
            {t('tickets.backToMyTickets')}
          </Anchor>
        </Group>
      )}
      <Title order={1}>{t('menu.myTickets')}</Title>
      <ListAndTicket
        ticketId={ticketId}
        list={<TicketList scope={PERSONAL} />}
        ticket={<TicketPanel query={ticket} staff={staff} onDeleted={() => navigate(back)} />}
      />
    </Stack>
  );
}
