import { Box, Code, Stack, Table, Text } from '@mantine/core';
import type { AuditEntry } from '@ticket/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '@/components/pager';
import { EmptyState } from '@/components/empty-state';
import { useFormatters } from '@/components/formatters';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { useAuditLog } from '../../api/get-audit-log';

/** A value of the log in one short line. */
export function shortValue(value: unknown, max = 48): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function Actor({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  if (entry.actor.kind === 'apiKey') return <>{t('settings.audit.apiKey')}</>;
  if (entry.actor.kind === 'admin') return <>{t('settings.audit.platformAdmin')}</>;
  return <>{entry.actor.name ?? entry.actor.id ?? t('settings.audit.unknownUser')}</>;
}

/** The server's activity log (who changed which setting when), newest first, a page at a time. */
export function AuditLog({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [page, setPage] = useState(1);
  const query = useAuditLog(serverId, page);

  if (query.isPending) return <LoadingBlock />;
  if (query.isError) return <LoadError message={t('settings.audit.loadFailed')} onRetry={() => void query.refetch()} />;
  const { elements, maxPage } = query.data;
  if (elements.length === 0 && page === 1) {
    return <EmptyState title={t('settings.audit.empty')}>{t('settings.audit.emptyHint')}</EmptyState>;
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('settings.audit.explanation')}
      </Text>
      {/* Scrolls sideways on narrow screens; focusable so the keyboard can scroll it too. */}
      <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('settings.audit.tableLabel')}>
        <Table striped verticalSpacing="xs" miw={860} aria-label={t('settings.audit.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('settings.audit.who')}</Table.Th>
              <Table.Th scope="col">{t('settings.audit.when')}</Table.Th>
              <Table.Th scope="col">{t('settings.audit.subject')}</Table.Th>
              <Table.Th scope="col">{t('settings.audit.what')}</Table.Th>
              <Table.Th scope="col">{t('settings.audit.change')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {elements.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>
                  <Actor entry={entry} />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <time dateTime={entry.createdAt}>{format.dateTime(entry.createdAt)}</time>
                </Table.Td>
                <Table.Td>{entry.subjectName ?? (entry.subjectId ? t('settings.audit.deletedSubject') : t('settings.audit.server'))}</Table.Td>
                <Table.Td>
                  <Text size="sm">{t(`settings.audit.actions.${entry.action}`)}</Text>
                  {entry.path && <Code>{entry.path}</Code>}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere', minWidth: 260 }}>
                  <Code>{shortValue(entry.oldValue)}</Code> → <Code>{shortValue(entry.newValue)}</Code>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      <Pager page={page} maxPage={maxPage} onChange={setPage} />
    </Stack>
  );
}
