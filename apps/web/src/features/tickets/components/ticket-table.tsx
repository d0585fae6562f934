import { Anchor, Table, Text } from '@mantine/core';
import type { PublicUser, TicketListItem } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatters } from '@/components/formatters';
import { relativeTime } from '@/lib/relative-time';
import { Attendees } from './attendees';
import { serverMentionNames } from '@/components/markdown/markdown';
import { plainText } from '../lib/highlight';
import { Highlights } from './highlights';
import { TicketStateBadge } from './ticket-state-badge';

interface TicketTableProps {
  tickets: TicketListItem[];
  /** Where a row's ticket opens. */
  linkTo: (ticket: TicketListItem) => string;
  /** The personal list spans servers; a server's own list does not need the column. */
  showServer?: boolean;
  /** Profiles the list items do not carry (attendees), by id. */
  profiles?: ReadonlyMap<string, PublicUser>;
}

/**
 * The ticket list columns of SPEC §2 (author, server, subject, content, claimed by, closed by,
 * date) with the number, the attendees and the last activity. A search result shows where it
 * matched instead of the last message. Scrolls sideways on a narrow screen rather than squeezing.
 */
export function TicketTable({ tickets, linkTo, showServer = false, profiles }: TicketTableProps) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  // A list cannot know the server's channels and roles (the ticket view names them for staff).
  const unknown = { channel: t('tickets.message.unknownChannel'), role: t('tickets.message.unknownRole') };
  return (
    <Table.ScrollContainer minWidth={showServer ? 1240 : 1120} type="native">
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('tickets.columns.number')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.ticket')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.author')}</Table.Th>
            {showServer && <Table.Th scope="col">{t('tickets.columns.server')}</Table.Th>}
            <Table.Th scope="col">{t('tickets.columns.subject')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.content')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.claimedBy')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.closedBy')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.attendees')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.lastActivity')}</Table.Th>
            <Table.Th scope="col">{t('tickets.columns.date')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tickets.map((ticket) => {
            const profileOf = (id: string) => ticket.users.find((user) => user.id === id) ?? profiles?.get(id);
            const name = (id: string | null | undefined) => (id ? (profileOf(id)?.name ?? id) : '—');
            const mentionNames = serverMentionNames(null, (id) => profileOf(id)?.name ?? id, unknown);
            return (
              <Table.Tr key={ticket.ticketId} data-ticket-id={ticket.ticketId}>
                <Table.Td>{t('tickets.number', { number: ticket.number })}</Table.Td>
                <Table.Td maw={220}>
                  <Anchor component={Link} to={linkTo(ticket)} fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {ticket.name}
                  </Anchor>
                  <div>
                    <TicketStateBadge state={ticket.state} />
                  </div>
                </Table.Td>
                <Table.Td>{name(ticket.author)}</Table.Td>
                {showServer && <Table.Td>{ticket.server.name}</Table.Td>}
                <Table.Td>{ticket.subject.name}</Table.Td>
                <Table.Td maw={300}>
                  {ticket.highlights.length > 0 ? (
                    <Highlights highlights={ticket.highlights} names={mentionNames} />
                  ) : (
                    <Text size="sm" lineClamp={2}>
                      {plainText(ticket.lastMessage?.content ?? '', mentionNames)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{name(ticket.assignee)}</Table.Td>
                <Table.Td>{name(ticket.closed?.closedBy)}</Table.Td>
                <Table.Td>
                  <Attendees ids={ticket.attendees} profileOf={profileOf} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" component="time" dateTime={ticket.lastActivity} title={format.dateTime(ticket.lastActivity)}>
                    {relativeTime(ticket.lastActivity, i18n.language)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <time dateTime={ticket.createdAt}>{format.dateTime(ticket.createdAt)}</time>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
