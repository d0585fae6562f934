import { Paper, Stack, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';

export interface StatsPanelProps<T> {
  title: string;
  /** Answers null when the call is not there yet or the server has no data (404). */
  query: UseQueryResult<T | null>;
  /** Shown for that null: nothing has happened on the server yet. */
  emptyText: string;
  /** Data that holds nothing worth drawing, e.g. a period without tickets. */
  isQuiet?: (data: T) => boolean;
  quietText?: string;
  children: (data: T) => ReactNode;
  height?: number;
}

/** One statistics panel: its own loading, empty and error states, so one failing call spoils nothing else. */
export function StatsPanel<T>({ title, query, emptyText, isQuiet, quietText, children, height = 160 }: StatsPanelProps<T>) {
  const { t } = useTranslation();
  const headingId = useId();
  let body: ReactNode;
  if (query.isPending) body = <LoadingBlock height={height} />;
  else if (query.isError) body = <LoadError message={t('staff.stats.loadFailed')} onRetry={() => void query.refetch()} />;
  else if (query.data === null) body = <EmptyState title={emptyText} />;
  else if (isQuiet?.(query.data)) body = <EmptyState title={quietText ?? emptyText} />;
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
