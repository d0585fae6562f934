import { Avatar, Group, Progress, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import type { DailyCount } from '@ticket/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BotMissing } from '@/components/bot-missing';
import { useFormatters } from '@/components/formatters';
import { LoadError } from '@/components/load-error';
import { StaffPageHeader } from '@/components/staff-page-header';
import { type CurrentServer, useCurrentServer } from '@/lib/use-current-server';
import { useDailyMessageStats } from '../api/get-daily-message-stats';
import { useDailyResponseTimeStats } from '../api/get-daily-response-time-stats';
import { useDailyTicketStats } from '../api/get-daily-ticket-stats';
import { useStorageStats } from '../api/get-storage-stats';
import { useTopSimpleStats } from '../api/get-top-simple-stats';
import { useTopSubjects } from '../api/get-top-subjects';
import { useTopSupporters } from '../api/get-top-supporters';
import { PLANS } from '@/lib/plans';
import { rangeDates, type StatsRange } from '../stats-range';
import { BarList } from '@/components/stats/bar-list';
import { DailyBarChart } from '@/components/stats/daily-bar-chart';
import { StatsPanel, type StatsPanelProps } from '@/components/stats/stats-panel';

const TOP_AMOUNT = 5;
const allZero = (points: DailyCount[]) => points.every((point) => point.count === 0);
const sum = (points: DailyCount[]) => points.reduce((total, point) => total + point.count, 0);

/** `/staff/:serverId` (ADMIN): how the server's support is doing. */
export function StaffHomePage() {
  const { t } = useTranslation();
  const current = useCurrentServer();
  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader current={current} title={current.serverName ?? t('staff.home.subtitle')} isHome />
      {current.notFound ? (
        <BotMissing serverId={current.serverId} canInvite={current.isAdmin} />
      ) : (
        <>
          {current.error ? <LoadError message={t('staff.serverLoadFailed')} onRetry={current.refetch} /> : null}
          <Stats current={current} />
        </>
      )}
    </Stack>
  );
}

function Stats({ current }: { current: CurrentServer }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { serverId } = current;
  const periodLabelId = useId();
  const [range, setRange] = useState<StatsRange>('week');
  const dates = rangeDates(range);
  const simple = useTopSimpleStats(serverId);
  const tickets = useDailyTicketStats(serverId, dates);
  const messages = useDailyMessageStats(serverId, dates);
  const responseTimes = useDailyResponseTimeStats(serverId, dates);
  const topSubjects = useTopSubjects(serverId, { ...dates, Amount: TOP_AMOUNT });
  const popularSubjects = useTopSubjects(serverId, { Amount: TOP_AMOUNT });
  const supporters = useTopSupporters(serverId, { Amount: TOP_AMOUNT });
  const storage = useStorageStats(serverId);
  const period = t(`staff.stats.period.${range}`);

  return (
    <Stack gap="lg">
      <StatsPanel
        title={t('staff.stats.overview')}
        query={simple}
        isQuiet={(data) => data.totalTickets === 0}
        emptyText={t('staff.stats.noTickets')}
        height={80}
      >
        {(data) => (
          <SimpleGrid component="dl" cols={{ base: 1, xs: 3 }} m={0}>
            {(
              [
                ['activeTickets', data.activeTickets],
                ['totalTickets', data.totalTickets],
                ['totalMessages', data.totalMessages],
              ] as const
            ).map(([key, value]) => (
              <div key={key} data-stat={key}>
                <Text component="dt" size="sm" c="dimmed">
                  {t(`staff.stats.${key}`)}
                </Text>
                <Text component="dd" m={0} fz={28} fw={700}>
                  {format.number(value)}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        )}
      </StatsPanel>

      <Group justify="space-between" gap="sm">
        <Text fw={600} id={periodLabelId}>
          {t('staff.stats.periodLabel')}
        </Text>
        <SegmentedControl
          aria-labelledby={periodLabelId}
          value={range}
          onChange={(value) => setRange(value as StatsRange)}
          data={[
            { value: 'week', label: t('staff.stats.week') },
            { value: 'month', label: t('staff.stats.month') },
          ]}
        />
      </Group>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <DailyStatsPanel
          title={t('staff.stats.ticketsPerDay')}
          query={tickets}
          emptyText={t('staff.stats.noTicketsInPeriod', { period })}
          summary={(data) => t('staff.stats.ticketsTotal', { count: sum(data), period })}
          formatValue={format.number}
        />
        <DailyStatsPanel
          title={t('staff.stats.messagesPerDay')}
          query={messages}
          emptyText={t('staff.stats.noMessagesInPeriod', { period })}
          summary={(data) => t('staff.stats.messagesTotal', { count: sum(data), period })}
          formatValue={format.number}
        />
        <DailyStatsPanel
          title={t('staff.stats.responseTime')}
          query={responseTimes}
          emptyText={t('staff.stats.noAnswersInPeriod', { period })}
          summary={(data) => {
            const answered = data.filter((point) => point.count > 0);
            return t('staff.stats.responseTimeMean', { duration: format.duration(sum(answered) / answered.length), period });
          }}
          formatValue={format.duration}
        />
        <StatsPanel
          title={t('staff.stats.topSubjects')}
          query={topSubjects}
          isQuiet={(page) => page.elements.length === 0}
          emptyText={t('staff.stats.noTicketsInPeriod', { period })}
        >
          {(page) => (
            <BarList
              items={page.elements.map((subject) => ({
                key: subject.subjectId,
                label: subject.name,
                value: subject.amount,
                display: t('staff.stats.ticketCount', { count: subject.amount }),
              }))}
            />
          )}
        </StatsPanel>
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <StatsPanel
          title={t('staff.stats.topSupporters')}
          query={supporters}
          emptyText={t('staff.stats.noSupporters')}
          isQuiet={(page) => page.elements.length === 0}
        >
          {(page) => (
            <BarList
              items={page.elements.map((supporter) => ({
                key: supporter.id,
                label: (
                  <Group gap={6} wrap="nowrap" component="span">
                    <Avatar src={supporter.avatarUrl} alt="" name={supporter.name} color="initials" size={22} />
                    {supporter.name}
                  </Group>
                ),
                value: supporter.amount,
                display: t('staff.stats.ticketCount', { count: supporter.amount }),
              }))}
            />
          )}
        </StatsPanel>
        <StatsPanel
          title={t('staff.stats.popularSubjects')}
          query={popularSubjects}
          emptyText={t('staff.stats.noTickets')}
          isQuiet={(page) => page.elements.length === 0}
        >
          {(page) => (
            <BarList
              items={page.elements.map((subject) => ({
                key: subject.subjectId,
                label: subject.name,
                value: subject.amount,
                display: t('staff.stats.ticketCount', { count: subject.amount }),
              }))}
            />
          )}
        </StatsPanel>
        <StatsPanel
          title={t('staff.stats.storage')}
          query={storage}
          emptyText={t('staff.stats.noFiles')}
          isQuiet={(overview) => overview.spaceUsed === 0}
        >
          {(overview) => {
            // Unknown until the server (and so its plan) is loaded: no limit is shown rather than a wrong one.
            const limit = current.server ? PLANS[current.plan].storageBytes : undefined;
            return (
              <Stack gap="sm">
                <Text size="sm">
                  {limit
                    ? t('staff.stats.storageOf', { used: format.bytes(overview.spaceUsed), limit: format.bytes(limit) })
                    : t('staff.stats.storageUsed', { used: format.bytes(overview.spaceUsed) })}
                </Text>
                {limit !== undefined && limit > 0 && (
                  <Progress.Root size="md" aria-hidden>
                    <Progress.Section value={Math.min(100, (overview.spaceUsed / limit) * 100)} />
                  </Progress.Root>
                )}
                {limit === 0 && (
                  <Text size="xs" c="dimmed">
                    {t('staff.stats.storageWithPremium', { size: format.bytes(PLANS.premium.storageBytes) })}
                  </Text>
                )}
                {overview.subjects.length > 0 && (
                  <BarList
                    max={limit || undefined}
                    items={overview.subjects.map((subject) => ({
                      key: subject.subjectId,
                      label: subject.name,
                      value: subject.spaceUsed,
                      display: format.bytes(subject.spaceUsed),
                    }))}
                  />
                )}
              </Stack>
            );
          }}
        </StatsPanel>
      </SimpleGrid>
    </Stack>
  );
}

/** A day-by-day statistic: its total or mean over the period above a bar per day. */
function DailyStatsPanel({
  title,
  query,
  emptyText,
  summary,
  formatValue,
}: Pick<StatsPanelProps<DailyCount[]>, 'title' | 'query' | 'emptyText'> & {
  summary: (data: DailyCount[]) => string;
  formatValue: (value: number) => string;
}) {
  return (
    <StatsPanel title={title} query={query} emptyText={emptyText} isQuiet={allZero}>
      {(data) => (
        <>
          <Text size="sm" c="dimmed">
            {summary(data)}
          </Text>
          <DailyBarChart data={data} label={title} formatValue={formatValue} />
        </>
      )}
    </StatsPanel>
  );
}
