import { Paper, Stack, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';

export interface StatsPanelProps<T> {
  title: string;
  query: UseQueryResult<T>;
  /** Data that holds nothing worth drawing, e.g. a server or a period without tickets. */
  isQuiet?: (data: T) => boolean;
  /** Shown for such data. */
  emptyText: string;
  children: (data: T) => ReactNode;
  height?: number;
}

/** One statistics panel: its own loading, empty and error states, so one failing call spoils nothing else. */
export function StatsPanel<T>({ title, query, emptyText, isQuiet, children, height = 160 }: StatsPanelProps<T>) {
  const { t } = useTranslation();
  const headingId = useId();
  let body: ReactNode;
  if (query.isPending) body = <LoadingBlock height={height} />;
  else if (query.isError) body = <LoadError message={t('staff.stats.loadFailed')} onRetry={() => void query.refetch()} />;
  else if (isQuiet?.(query.data)) body = <EmptyState title={emptyText} />;
  else body = children(query.data);

  return (
    <Paper component="section" aria-labelledby={headingId} withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        {body}
      </Stack>
    </Paper>
  );
}
