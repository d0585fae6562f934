import { Avatar, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Ticket } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { Fact, Facts } from '@/components/facts';
import { useFormatters } from '@/components/formatters';
import { nameIn } from './ticket-names';
import { TicketStateBadge } from './ticket-state-badge';


/** One ticket: who, where, its state, the form answers and the conversation, oldest first. */
export function TicketDetails({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const name = (id: string | null | undefined) => nameIn(ticket.users, id) ?? '—';
  const avatarOf = (id: string) => ticket.users.find((user) => user.id === id)?.avatarUrl ?? null;

  return (
    <Stack gap="lg">
      <Group gap="sm">
        <Title order={2} size="h3">
          {t('tickets.numberedName', { number: ticket.number, name: ticket.name })}
        </Title>
        <TicketStateBadge state={ticket.state} />
      </Group>

      <Facts>
        <Fact label={t('tickets.columns.server')}>{ticket.server.name}</Fact>
        <Fact label={t('tickets.columns.subject')}>{ticket.subject.name}</Fact>
        <Fact label={t('tickets.columns.author')}>{name(ticket.author)}</Fact>
        <Fact label={t('tickets.columns.claimedBy')}>{name(ticket.assignee)}</Fact>
        <Fact label={t('tickets.columns.date')}>{format.dateTime(ticket.createdAt)}</Fact>
        {ticket.closed && (
          <Fact label={t('tickets.columns.closedBy')}>
            {t('tickets.closedByAt', { name: name(ticket.closed.closedBy), date: format.dateTime(ticket.closed.closedAt) })}
            {ticket.closed.reason && ` — ${ticket.closed.reason}`}
          </Fact>
        )}
      </Facts>

      {ticket.templateAnswers.length > 0 && (
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('tickets.formAnswers')}
          </Title>
          <Facts cols={{ base: 1, sm: 2 }}>
            {ticket.templateAnswers.map((answer) => (
              <Fact key={answer.questionId} label={answer.question}>
                {answer.answer}
              </Fact>
            ))}
          </Facts>
        </Stack>
      )}

      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('tickets.messages', { count: ticket.messages.length })}
        </Title>
        {ticket.messages.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('tickets.noMessages')}
          </Text>
        ) : (
          <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
            {ticket.messages.map((message) => (
              <Paper component="li" key={message.messageId} withBorder p="sm" radius="md">
                <Group gap="xs" wrap="nowrap" align="center">
                  <Avatar src={avatarOf(message.authorId)} alt="" name={name(message.authorId)} color="initials" size="sm" />
                  <Text size="sm" fw={600} truncate="end">
                    {name(message.authorId)}
                  </Text>
                  {message.messageType !== 'User' && (
                    <Badge size="xs" variant="light" tt="none">
                      {t(`tickets.messageTypes.${message.messageType}`)}
                    </Badge>
                  )}
                  <Text size="xs" c="dimmed" component="time" dateTime={message.createdAt}>
                    {format.dateTime(message.createdAt)}
                  </Text>
                </Group>
                <Text size="sm" mt={6} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} c={message.deleted ? 'dimmed' : undefined}>
                  {message.deleted ? t('tickets.messageDeleted') : message.message.content}
                </Text>
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>
    </Stack>
  );
}
