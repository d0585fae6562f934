import { Anchor, Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CHECKLIST_PATH, type ChecklistStatus } from '../checklist';
import { useChecklist } from '../hooks/use-checklist';
import { StatusIcon } from './status-icon';

const badgeColor: Record<ChecklistStatus, string> = { done: 'teal', todo: 'gray', unknown: 'orange', loading: 'gray' };

/** The getting-started steps of one server the user administers (SPEC §2). */
export function Checklist({ serverId, serverName }: { serverId: string; serverName: string }) {
  const { t } = useTranslation();
  const entries = useChecklist(serverId);
  const done = entries.filter((entry) => entry.status === 'done').length;
  const total = entries.length;

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          {done === total ? t('checklist.allDone', { name: serverName }) : t('checklist.progress', { done, total })}
        </Text>
      </Group>
      <Progress.Root size="sm" aria-hidden>
        <Progress.Section value={(done / total) * 100} color="teal" />
      </Progress.Root>
      <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
        {entries.map(({ id, status, retry }) => (
          <Group component="li" key={id} wrap="nowrap" align="flex-start" gap="sm" data-checklist-item={id} data-status={status}>
            <StatusIcon status={status} />
            <Stack gap={4} miw={0} style={{ flex: 1 }}>
              <Group gap="xs" wrap="wrap">
                <Text fw={600} td={status === 'done' ? 'line-through' : undefined}>
                  {t(`checklist.items.${id}.title`)}
                </Text>
                <Badge size="sm" variant="light" color={badgeColor[status]} tt="none">
                  {t(`checklist.status.${status}`)}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed">
                {t(`checklist.items.${id}.description`)}
              </Text>
              <Group gap="sm">
                <Anchor component={Link} to={CHECKLIST_PATH[id](serverId)} size="sm">
                  {t(`checklist.items.${id}.action`)}
                </Anchor>
                {status === 'unknown' && (
                  <Button size="compact-sm" variant="subtle" color="orange" onClick={retry}>
                    {t('common.tryAgain')}
                  </Button>
                )}
              </Group>
            </Stack>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
