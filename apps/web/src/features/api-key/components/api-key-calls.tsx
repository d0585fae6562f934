import { Badge, Box, Group, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import type { ApiKeyCall, ApiKeyCallStatus, ApiKeyRateLimit } from '@ticket/contracts';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { useFormatters } from '@/components/formatters';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { Pager } from '@/components/pager';
import { useApiKeyCalls } from '../api/get-api-key-calls';

type Filter = ApiKeyCallStatus | 'all';
const FILTERS = ['all', 'error', 'rateLimited'] as const satisfies readonly Filter[];
const FILTER_LABEL = { all: 'apiKey.calls.filter.all', error: 'apiKey.calls.filter.errors', rateLimited: 'apiKey.calls.filter.rateLimited' } as const;

/** The status's class in colour: success, redirect, refused by the caller's request, failed on ours. */
const statusColor = (status: number): string => {
  if (status >= 500) return 'red';
  if (status >= 400) return 'orange';
  if (status >= 300) return 'blue';
  return 'teal';
};

/**
 * The calls made with the server's API key, newest first, a page at a time, filtered to the
 * failed or rate-limited ones on demand, with the limit every key has.
 */
export function ApiKeyCalls({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const query = useApiKeyCalls(serverId, filter, page);

  const choose = (value: string) => {
    setFilter(value as Filter);
    setPage(1);
  };

  let content;
  if (query.isPending) content = <LoadingBlock height={96} />;
  else if (query.isError) content = <LoadError message={t('apiKey.calls.loadFailed')} onRetry={() => void query.refetch()} />;
  else if (query.data.elements.length === 0 && page === 1) {
    content =
      filter === 'all' ? (
        <EmptyState title={t('apiKey.calls.empty.title')}>{t('apiKey.calls.empty.text')}</EmptyState>
      ) : (
        <EmptyState title={t('apiKey.calls.emptyFiltered')} />
      );
  } else {
    content = (
      <Stack gap="sm">
        <CallsTable calls={query.data.elements} />
        <Pager page={page} maxPage={query.data.maxPage} onChange={setPage} />
      </Stack>
    );
  }

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4}>
            <Title order={2} size="h4" id={headingId}>
              {t('apiKey.calls.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('apiKey.calls.kept')}
            </Text>
            {query.data && <RateLimitLine limit={query.data.limit} />}
          </Stack>
          <SegmentedControl
            aria-label={t('apiKey.calls.filter.label')}
            value={filter}
            onChange={choose}
            data={FILTERS.map((value) => ({ value, label: t(FILTER_LABEL[value]) }))}
          />
        </Group>
        {content}
      </Stack>
    </Paper>
  );
}

function RateLimitLine({ limit }: { limit: ApiKeyRateLimit }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const max = format.number(limit.max);
  return (
    <Text size="sm" data-rate-limit>
      <Text span fw={600}>
        {t('apiKey.calls.limitLabel')}
      </Text>{' '}
      {limit.windowMs === 60_000
        ? t('apiKey.calls.perMinute', { max })
        : t('apiKey.calls.perWindow', { max, seconds: format.number(limit.windowMs / 1000) })}
    </Text>
  );
}

function CallsTable({ calls }: { calls: ApiKeyCall[] }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const milliseconds = useMemo(
    () => new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'millisecond', unitDisplay: 'short', maximumFractionDigits: 1 }),
    [i18n.language],
  );
  const label = t('apiKey.calls.tableLabel');
  return (
    <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
      <Table striped verticalSpacing="xs" miw={720} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('apiKey.calls.columns.time')}</Table.Th>
            <Table.Th scope="col">{t('apiKey.calls.columns.method')}</Table.Th>
            <Table.Th scope="col">{t('apiKey.calls.columns.path')}</Table.Th>
            <Table.Th scope="col">{t('apiKey.calls.columns.status')}</Table.Th>
            <Table.Th scope="col">{t('apiKey.calls.columns.duration')}</Table.Th>
            <Table.Th scope="col">{t('apiKey.calls.columns.key')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {calls.map((call, index) => (
            <Table.Tr key={`${call.at}-${index}`} data-call>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <time dateTime={call.at}>{format.dateTime(call.at)}</time>
              </Table.Td>
              <Table.Td dir="ltr">{call.method}</Table.Td>
              <Table.Td dir="ltr" title={call.route} style={{ overflowWrap: 'anywhere', fontFamily: 'var(--mantine-font-family-monospace)' }}>
                {call.path}
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Badge color={statusColor(call.status)} variant="light">
                    {call.status}
                  </Badge>
                  {call.rateLimited && (
                    <Badge color="red" variant="outline">
                      {t('apiKey.calls.filter.rateLimited')}
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{milliseconds.format(call.durationMs)}</Table.Td>
              <Table.Td dir="ltr" style={{ whiteSpace: 'nowrap', fontFamily: 'var(--mantine-font-family-monospace)' }}>
                {`${call.keyPrefix}…`}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
