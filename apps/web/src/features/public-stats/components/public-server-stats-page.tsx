import { Box, Button, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { DailyCount } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { CenteredPanel } from '@/components/centered-panel';
import { DocumentTitle } from '@/components/document-title';
import { useFormatters } from '@/components/formatters';
import { LanguagePicker } from '@/components/language-picker';
import { LoadingBlock } from '@/components/loading-block';
import { BarList } from '@/components/stats/bar-list';
import { DailyBarChart } from '@/components/stats/daily-bar-chart';
import { StatsPanel } from '@/components/stats/stats-panel';
import { isResponseError } from '@/lib/api';
import { usePublicServerStats } from '../api/get-public-server-stats';

const allZero = (points: DailyCount[]) => points.every((point) => point.count === 0);
const sum = (points: DailyCount[]) => points.reduce((total, point) => total + point.count, 0);

/** `/servers/:serverId/stats` (open): the statistics a server's admins made public; not found otherwise. */
export function PublicServerStatsPage() {
  const { t } = useTranslation();
  const format = useFormatters();
  const serverId = useParams().serverId ?? '';
  const stats = usePublicServerStats(serverId);
  const period = t('staff.stats.period.month');

  if (isResponseError(stats.error, 404)) {
    return (
      <CenteredPanel>
        <DocumentTitle title={t('publicStats.notFoundTitle')} />
        <Stack gap="md">
          <Title order={1}>{t('publicStats.notFoundTitle')}</Title>
          <Text>{t('publicStats.notFound')}</Text>
          <Button component={Link} to="/">
            {t('publicStats.home')}
          </Button>
        </Stack>
      </CenteredPanel>
    );
  }

  const name = stats.data?.name;
  return (
    <>
      <DocumentTitle title={name ? t('publicStats.title', { name }) : undefined} />
      <Box component="header" py="sm" px="md" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group justify="space-between" maw={1100} mx="auto">
          <Text component={Link} to="/" fw={700} c="var(--mantine-color-text)" td="none">
            {t('app.name')}
          </Text>
          <LanguagePicker />
        </Group>
      </Box>
      <Container component="main" size={1100} py="xl">
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1}>{name ? t('publicStats.title', { name }) : t('app.loading')}</Title>
            <Text c="dimmed">{t('publicStats.description')}</Text>
          </Stack>
          {stats.isPending ? (
            <LoadingBlock height={240} />
          ) : (
            <>
              <StatsPanel title={t('staff.stats.overview')} query={stats} emptyText={t('staff.stats.noTickets')} isQuiet={(data) => data.totals.totalTickets === 0} height={80}>
                {(data) => (
                  <SimpleGrid component="dl" cols={{ base: 1, xs: 3 }} m={0}>
                    {(['activeTickets', 'totalTickets', 'totalMessages'] as const).map((key) => (
                      <div key={key} data-stat={key}>
                        <Text component="dt" size="sm" c="dimmed">
                          {t(`staff.stats.${key}`)}
                        </Text>
                        <Text component="dd" m={0} fz={28} fw={700}>
                          {format.number(data.totals[key])}
                        </Text>
                      </div>
                    ))}
                  </SimpleGrid>
                )}
              </StatsPanel>
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <StatsPanel
                  title={t('staff.stats.ticketsPerDay')}
                  query={stats}
                  isQuiet={(data) => allZero(data.ticketsPerDay)}
                  emptyText={t('staff.stats.noTicketsInPeriod', { period })}
                >
                  {(data) => (
                    <>
                      <Text size="sm">{t('staff.stats.ticketsTotal', { count: sum(data.ticketsPerDay), period })}</Text>
                      <DailyBarChart data={data.ticketsPerDay} label={t('staff.stats.ticketsPerDay')} formatValue={format.number} />
                    </>
                  )}
                </StatsPanel>
                <StatsPanel
                  title={t('staff.stats.responseTime')}
                  query={stats}
                  isQuiet={(data) => allZero(data.responseTimePerDay)}
                  emptyText={t('staff.stats.noAnswersInPeriod', { period })}
                >
                  {(data) => {
                    const answered = data.responseTimePerDay.filter((point) => point.count > 0);
                    return (
                      <>
                        <Text size="sm">{t('staff.stats.responseTimeMean', { duration: format.duration(sum(answered) / answered.length), period })}</Text>
                        <DailyBarChart data={data.responseTimePerDay} label={t('staff.stats.responseTime')} formatValue={format.duration} />
                      </>
                    );
                  }}
                </StatsPanel>
              </SimpleGrid>
              <StatsPanel
                title={t('staff.stats.topSubjects')}
                query={stats}
                isQuiet={(data) => data.topSubjects.length === 0}
                emptyText={t('staff.stats.noTicketsInPeriod', { period })}
              >
                {(data) => (
                  <BarList
                    items={data.topSubjects.map((subject) => ({
                      key: subject.subjectId,
                      label: subject.name,
                      value: subject.amount,
                      display: t('staff.stats.ticketCount', { count: subject.amount }),
                    }))}
                  />
                )}
              </StatsPanel>
            </>
          )}
        </Stack>
      </Container>
    </>
  );
}
