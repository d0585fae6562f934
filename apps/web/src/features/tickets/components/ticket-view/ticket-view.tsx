import { Badge, Grid, Group, Stack, Text, Title } from '@mantine/core';
import type { Ticket } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { MentionContext } from '@/components/markdown/markdown';
import { useTicketFiles } from '../../api/get-ticket-files';
import { responseTimes } from '../../lib/response-times';
import { TicketStateBadge } from '../ticket-state-badge';
import { MessageItem } from './message-item';
import { TicketActions } from './ticket-actions';
import { useTicketMentionNames, useTicketPeople } from './ticket-mentions';
import { TicketMembers } from './ticket-members';
import { TicketAnswers, TicketFacts, TicketHistory, TicketStats, ViewSection } from './ticket-sections';

interface TicketViewProps {
  ticket: Ticket;
  /** Staff of the ticket's server: their names and colours there, and the delete action. */
  staff: boolean;
  onDeleted: () => void | Promise<void>;
}

/**
 * One ticket (SPEC §2): the conversation with the form answers above it, and beside it its details,
 * statistics, members and history; export and delete at the top. An open ticket's messages
 * appear as they are written (its query reads it again every few seconds).
 */
export function TicketView({ ticket, staff, onDeleted }: TicketViewProps) {
  const { t } = useTranslation();
  const people = useTicketPeople(ticket, staff ? ticket.server.serverId : null);
  const mentionNames = useTicketMentionNames(people, staff ? ticket.server.serverId : null);
  const attachments = ticket.messages.reduce((sum, message) => sum + message.message.attachments.length, 0);
  const files = useTicketFiles(ticket.server.serverId, ticket.ticketId, attachments);
  const nameOf = (id: string | null | undefined) => (id ? (people.get(id)?.name ?? id) : '—');
  const times = responseTimes(ticket);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="sm" miw={0}>
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {t('tickets.numberedName', { number: ticket.number, name: ticket.name })}
          </Title>
          <TicketStateBadge state={ticket.state} />
          {ticket.state !== 'Closed' && (
            <Badge variant="dot" color="green" tt="none" title={t('tickets.view.liveHint')}>
              {t('tickets.view.live')}
            </Badge>
          )}
        </Group>
        <TicketActions ticket={ticket} canDelete={staff} onDeleted={onDeleted} />
      </Group>

      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <TicketAnswers ticket={ticket} />
            <ViewSection title={t('tickets.messages', { count: ticket.messages.length })}>
              {ticket.messages.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('tickets.noMessages')}
                </Text>
              ) : (
                <MentionContext.Provider value={mentionNames}>
                  <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
                    {ticket.messages.map((message) => (
                      <MessageItem key={message.messageId} message={message} author={people.get(message.authorId)} />
                    ))}
                  </Stack>
                </MentionContext.Provider>
              )}
            </ViewSection>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            <TicketFacts ticket={ticket} nameOf={nameOf} />
            <TicketStats
              stats={{
                messages: ticket.messages.length,
                attachments,
                storage: files.isPending ? undefined : files.isError ? null : files.data.reduce((sum, file) => sum + file.size, 0),
                firstResponse: times.first,
                averageResponse: times.average,
              }}
            />
            <TicketMembers ticket={ticket} profileOf={(id) => people.get(id)} staff={staff} />
            <TicketHistory ticket={ticket} nameOf={nameOf} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
