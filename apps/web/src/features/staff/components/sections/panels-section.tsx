import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { Panel } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { useFormatters } from '@/components/formatters';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { usePanels } from '../../api/get-panels';

/** Panels: the messages members open tickets from. */
export function PanelsSection({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const query = usePanels(serverId);
  return (
    <Stack gap="md">
      <Text>{t('staff.panels.explanation')}</Text>
      {query.isPending ? (
        <LoadingBlock />
      ) : query.isError ? (
        <LoadError message={t('staff.panels.loadFailed')} onRetry={() => void query.refetch()} />
      ) : query.data.length === 0 ? (
        <EmptyState title={t('staff.panels.empty')}>{t('staff.panels.emptyHint')}</EmptyState>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {query.data.map((panel) => (
            <PanelRow key={panel.id} panel={panel} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function PanelRow({ panel }: { panel: Panel }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Paper component="li" withBorder p="sm" radius="md" data-panel-id={panel.id}>
      <Group justify="space-between" gap="xs">
        <Text fw={600}>{panel.name.trim() || t('staff.panels.untitled')}</Text>
        <Group gap={6}>
          <Badge variant="light" tt="none">
            {panel.type === 'BUTTON' ? t('staff.panels.buttons') : t('staff.panels.dropdown')}
          </Badge>
          {panel.draft && (
            <Badge variant="light" tt="none" color="gray">
              {t('staff.panels.draft')}
            </Badge>
          )}
        </Group>
      </Group>
      <Text size="sm" c="dimmed" mt={4}>
        {panel.type === 'BUTTON'
          ? t('staff.panels.buttonCount', { count: panel.subjects.length })
          : t('staff.panels.optionCount', { count: panel.subjects.length })}
        {' · '}
        {panel.lastSent ? t('staff.panels.lastSent', { date: format.dateTime(panel.lastSent) }) : t('staff.panels.notSent')}
      </Text>
    </Paper>
  );
}
