import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { Channel, Panel } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import { confirm, notifyError, notifySuccess } from '@/lib/notify';
import { useDeletePanel } from '../api/delete-panel';
import { useResendPanel } from '../api/resend-panel';
import { channelName } from '../lib/channels';
import { isSent } from '../lib/draft';
import { saveErrorOf } from '../lib/error-message';
import { relativeTime } from '@/lib/relative-time';
import { PencilIcon, RepeatIcon, TrashIcon } from '@/components/screen-icons';

interface PanelListProps {
  serverId: string;
  panels: readonly Panel[];
  channels: readonly Channel[] | undefined;
  /** Subject names by id. */
  subjectNames: ReadonlyMap<string, string>;
  onEdit: (id: string) => void;
}

/** The server's panels: name, state, channel, when last sent, what they open; edit, resend, delete. */
export function PanelList({ serverId, panels, channels, subjectNames, onEdit }: PanelListProps) {
  return (
    <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {panels.map((panel) => (
        <PanelRow
          key={panel.id}
          serverId={serverId}
          panel={panel}
          channels={channels}
          subjectNames={subjectNames}
          onEdit={onEdit}
        />
      ))}
    </Stack>
  );
}

function PanelRow({
  serverId,
  panel,
  channels,
  subjectNames,
  onEdit,
}: Omit<PanelListProps, 'panels'> & { panel: Panel }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const resend = useResendPanel(serverId);
  const remove = useDeletePanel(serverId);
  const name = panel.name.trim() || t('panels.list.untitled');
  const sent = isSent(panel);
  const channelId = panel.integrationDetails.channelId;
  const channel = channelId
    ? (channelName(channels, channelId) ?? (channels ? t('panels.channel.unknown') : t('app.loading')))
    : t('panels.list.noChannel');
  const opens = panel.subjects
    .flatMap((s) => (s.subjectId ? [subjectNames.get(s.subjectId) ?? t('panels.subjects.deleted')] : []))
    .filter((n, i, all) => all.indexOf(n) === i);

  const onResend = () =>
    resend.mutate(panel.id, {
      onSuccess: () => notifySuccess(t('panels.list.resent', { channel })),
      onError: (error) => notifyError(saveErrorOf(error).message, t('panels.errors.resendFailed')),
    });

  const onDelete = async () => {
    const confirmed = await confirm({
      title: t('panels.list.deleteTitle', { name }),
      text: sent ? t('panels.list.deleteSentText', { channel }) : t('panels.list.deleteText'),
    });
    if (!confirmed) return;
    remove.mutate(panel.id, {
      onSuccess: () => notifySuccess(t('panels.list.deleted', { name })),
      onError: (error) => notifyError(saveErrorOf(error).message, t('panels.errors.deleteFailed')),
    });
  };

  return (
    <Paper component="li" withBorder p="md" radius="md" data-panel-id={panel.id} aria-label={name}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} miw={0} style={{ flex: '1 1 260px' }}>
          <Group gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Text>
            {panel.draft ? (
              <Badge variant="light" color="gray" tt="none">
                {t('panels.list.draft')}
              </Badge>
            ) : (
              <Badge variant="light" color="green" tt="none">
                {t('panels.list.sent')}
              </Badge>
            )}
            <Badge variant="outline" color="gray" tt="none">
              {panel.type === 'BUTTON' ? t('panels.actions.buttons') : t('panels.actions.dropdown')}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {channel}
            {' · '}
            {panel.lastSent ? (
              <time dateTime={panel.lastSent} title={format.dateTime(panel.lastSent)}>
                {t('panels.list.lastSent', { when: relativeTime(panel.lastSent, i18n.language) })}
              </time>
            ) : (
              t('panels.list.neverSent')
            )}
          </Text>
          <Text size="sm">
            {opens.length > 0
              ? t('panels.list.opens', { subjects: new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(opens) })
              : t('panels.list.opensNothing')}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            leftSection={<PencilIcon />}
            aria-label={t('panels.list.editNamed', { name })}
            onClick={() => onEdit(panel.id)}
          >
            {t('panels.list.edit')}
          </Button>
          {sent && (
            <Button
              variant="default"
              size="xs"
              leftSection={<RepeatIcon />}
              aria-label={t('panels.list.resendNamed', { name })}
              loading={resend.isPending}
              onClick={onResend}
            >
              {t('panels.list.resend')}
            </Button>
          )}
          <Button
            variant="light"
            color="red"
            size="xs"
            leftSection={<TrashIcon />}
            aria-label={t('panels.list.deleteNamed', { name })}
            loading={remove.isPending}
            onClick={() => void onDelete()}
          >
            {t('panels.list.delete')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
