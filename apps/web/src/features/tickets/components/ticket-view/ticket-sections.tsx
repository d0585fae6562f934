import { Paper, Text, Timeline, Title } from '@mantine/core';
import type { Ticket } from '@ticket/contracts';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Fact, Facts } from '@/components/facts';
import { useFormatters } from '@/components/formatters';
import { TicketStateBadge } from '../ticket-state-badge';

/** A titled part of the ticket view, named by its heading for assistive technology. */
export function ViewSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper component="section" aria-labelledby={id} withBorder p="md" radius="md">
      <Title order={3} size="h5" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

type NameOf = (id: string | null | undefined) => string;

/** Server, subject, author, who claimed it, its state and when it opened and closed. */
export function TicketFacts({ ticket, nameOf }: { ticket: Ticket; nameOf: NameOf }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <ViewSection title={t('tickets.view.details')}>
      <Facts cols={1}>
        <Fact label={t('tickets.view.state')}>
          <TicketStateBadge state={ticket.state} />
        </Fact>
        <Fact label={t('tickets.columns.server')}>{ticket.server.name}</Fact>
        <Fact label={t('tickets.columns.subject')}>{ticket.subject.name}</Fact>
        <Fact label={t('tickets.columns.author')}>{nameOf(ticket.author)}</Fact>
        <Fact label={t('tickets.columns.claimedBy')}>{nameOf(ticket.assignee)}</Fact>
        <Fact label={t('tickets.view.opened')}>{format.dateTime(ticket.createdAt)}</Fact>
        {ticket.closed && (
          <Fact label={t('tickets.columns.closedBy')}>
            {t('tickets.closedByAt', { name: nameOf(ticket.closed.closedBy), date: format.dateTime(ticket.closed.closedAt) })}
          </Fact>
        )}
      </Facts>
    </ViewSection>
  );
}

export interface TicketStatsValues {
  messages: number;
  attachments: number;
  /** Bytes; undefined while loading, null when it could not be read. */
  storage: number | null | undefined;
  firstResponse: number | null;
  averageResponse: number | null;
}

/** The ticket's own statistics: messages, attachments, storage used, response times. */
export function TicketStats({ stats }: { stats: TicketStatsValues }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const duration = (seconds: number | null) => (seconds === null ? t('tickets.stats.noAnswer') : format.duration(seconds));
  return (
    <ViewSection title={t('tickets.stats.heading')}>
      <Facts cols={2}>
        <Fact label={t('tickets.stats.messages')}>{format.number(stats.messages)}</Fact>
        <Fact label={t('tickets.stats.attachments')}>{format.number(stats.attachments)}</Fact>
        <Fact label={t('tickets.stats.storage')}>
          {stats.storage === undefined ? t('app.loading') : stats.storage === null ? '—' : format.bytes(stats.storage)}
        </Fact>
        <Fact label={t('tickets.stats.firstResponse')}>{duration(stats.firstResponse)}</Fact>
        <Fact label={t('tickets.stats.averageResponse')}>{duration(stats.averageResponse)}</Fact>
      </Facts>
    </ViewSection>
  );
}

/** What happened to the ticket: opened, claimed, closed (by whom, when, why). */
export function TicketHistory({ ticket, nameOf }: { ticket: Ticket; nameOf: NameOf }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const steps = 1 + (ticket.assignee ? 1 : 0) + (ticket.closed ? 1 : 0);
  return (
    <ViewSection title={t('tickets.history.heading')}>
      <Timeline active={steps - 1} bulletSize={14} lineWidth={2} styles={{ itemTitle: { fontSize: 'var(--mantine-font-size-sm)' } }}>
        <Timeline.Item title={t('tickets.history.opened', { name: nameOf(ticket.author) })}>
          <Text size="xs" c="dimmed" component="time" dateTime={ticket.createdAt}>
            {format.dateTime(ticket.createdAt)}
          </Text>
        </Timeline.Item>
        {ticket.assignee && <Timeline.Item title={t('tickets.history.claimed', { name: nameOf(ticket.assignee) })} />}
        {ticket.closed && (
          <Timeline.Item title={t('tickets.history.closed', { name: nameOf(ticket.closed.closedBy) })}>
            <Text size="xs" c="dimmed" component="time" dateTime={ticket.closed.closedAt}>
              {format.dateTime(ticket.closed.closedAt)}
            </Text>
            {ticket.closed.reason && (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <Text span size="sm" c="dimmed">
                  {t('tickets.view.reason')}:{' '}
                </Text>
                {ticket.closed.reason}
              </Text>
            )}
            {ticket.closed.force && (
              <Text size="xs" c="dimmed">
                {t('tickets.history.forced')}
              </Text>
            )}
          </Timeline.Item>
        )}
      </Timeline>
    </ViewSection>
  );
}

/** The answers the author gave to the subject's form when opening the ticket. */
export function TicketAnswers({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  if (ticket.templateAnswers.length === 0) return null;
  return (
    <ViewSection title={t('tickets.formAnswers')}>
      <Facts cols={{ base: 1, sm: 2 }}>
        {ticket.templateAnswers.map((answer) => (
          <Fact key={answer.questionId} label={answer.question}>
            <span style={{ whiteSpace: 'pre-wrap' }}>{answer.answer}</span>
          </Fact>
        ))}
      </Facts>
    </ViewSection>
  );
}
