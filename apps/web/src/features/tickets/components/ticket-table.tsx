import { Anchor, Table, Text } from '@mantine/core';
import type { TicketListItem } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatters } from '@/components/formatters';
import { nameIn } from './ticket-names';
import { TicketStateBadge } from './ticket-state-badge';

interface TicketTableProps {
  tickets: TicketListItem[];
  /** Where a row's ticket opens. */
  linkTo: (ticket: TicketListItem) => string;
  /** The personal list spans servers; a server's own list does not need the column. */
  showServer?: boolean;
}

/** The ticket list columns of SPEC §2; scrolls sideways on a narrow screen rather than squeezing. */
export function TicketTable({ tickets, linkTo, showServer = false }: TicketTableProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Table.ScrollContainer minWidth={showServer ? 900 : 800} type="native">
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('tickets.columns.ticket')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.author')}</Table.Th>
            {showServer && <Table.Th scope="col">{t('tickets.columns.server')}</Table.Th>}
            <Table.Th scope="col">{t('tickets.columns.subject')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.content')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.claimedBy')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.closedBy')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.date')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tickets.map((ticket) => (
            <Table.Tr key={ticket.ticketId} data-ticket-id={ticket.ticketId}>
              <Table.Td>
                <Anchor component={Link} to={linkTo(ticket)} fw={500}>
                  {t('tickets.numberedName', { number: ticket.number, name: ticket.name })}
                </Anchor>
                <div>
                  <TicketStateBadge state={ticket.state} />
                </div>
              </Table.Td>
              <Table.Td>{nameIn(ticket.users, ticket.author)}</Table.Td>
              {showServer && <Table.Td>{ticket.server.name}</Table.Td>}
              <Table.Td>{ticket.subject.name}</Table.Td>
              <Table.Td maw={280}>
                <Text size="sm" lineClamp={2}>
                  {ticket.lastMessage?.content ?? ''}
                </Text>
              </Table.Td>
              <Table.Td>{nameIn(ticket.users, ticket.assignee) ?? '—'}</Table.Td>
              <Table.Td>{nameIn(ticket.users, ticket.closed?.closedBy) ?? '—'}</Table.Td>
              <Table.Td>
                <time dateTime={ticket.createdAt}>{format.dateTime(ticket.createdAt)}</time>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
