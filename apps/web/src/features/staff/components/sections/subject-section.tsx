import { Stack, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Subject } from '@ticket/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { Fact, Facts } from '@/components/facts';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { isResponseError } from '@/lib/api';

/** The settings of one subject, in the groups the subject editor will edit them. */
export function SubjectSection({ query }: { query: UseQueryResult<Subject> }) {
  const { t } = useTranslation();
  if (query.isPending) return <LoadingBlock />;
  if (isResponseError(query.error, 404)) {
    return <EmptyState title={t('staff.subject.notFound')}>{t('staff.subject.notFoundHint')}</EmptyState>;
  }
  if (query.isError) return <LoadError message={t('staff.subject.loadFailed')} onRetry={() => void query.refetch()} />;
  const subject = query.data;
  const inherited = (value: ReactNode, inherits: boolean) => (inherits ? t('staff.subject.inherited') : value);
  const limit = (value: number | null) => (value === null ? t('staff.subject.noLimit') : String(value));

  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {t('staff.subject.overview')}
      </Title>
      <Facts>
        <Fact label={t('staff.subject.status')}>
          {subject.active ? t('staff.subjects.active') : t('staff.subjects.inactive')}
        </Fact>
        <Fact label={t('staff.subject.ticketName')}>
          {inherited(<code>{subject.ticketNameFormat.value}</code>, subject.ticketNameFormat.inherits)}
        </Fact>
        <Fact label={t('staff.subject.staffRoles')}>
          {inherited(t('staff.subjects.staffRoles', { count: subject.staffRoles.value.length }), subject.staffRoles.inherits)}
        </Fact>
        <Fact label={t('staff.subject.formQuestions')}>{subject.questions.length}</Fact>
        <Fact label={t('staff.subject.maxPerUser')}>{limit(subject.limitations.maxActivePerUser)}</Fact>
        <Fact label={t('staff.subject.maxTotal')}>{limit(subject.limitations.maxActiveTotal)}</Fact>
        <Fact label={t('staff.subject.logging')}>
          {subject.logging.channelId ? t('staff.subject.loggingOn') : t('staff.subject.loggingOff')}
        </Fact>
      </Facts>
    </Stack>
  );
}

