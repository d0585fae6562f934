import { Anchor, Select, Stack, Text } from '@mantine/core';
import type { Channel } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { panelChannelGroups } from '../../lib/channels';

interface ChannelStepProps {
  channels: readonly Channel[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  value: string | null;
  onChange: (channelId: string | null) => void;
  error?: string;
}

/** Where the panel is posted: a text or announcement channel, grouped by category as on the platform. */
export function ChannelStep({ channels, loading, failed, onRetry, value, onChange, error }: ChannelStepProps) {
  const { t } = useTranslation();
  const groups = panelChannelGroups(channels ?? [], t('panels.channel.noCategory'));
  const known = groups.some((g) => g.items.some((i) => i.value === value));
  const data =
    value && !known
      ? [{ group: t('panels.channel.current'), items: [{ value, label: loading ? t('app.loading') : t('panels.channel.unknown') }] }, ...groups]
      : groups;
  return (
    <Stack gap="sm">
      <Select
        label={t('panels.channel.label')}
        description={t('panels.channel.hint')}
        placeholder={t('panels.channel.placeholder')}
        data={data}
        value={value}
        onChange={onChange}
        searchable
        allowDeselect={false}
        error={error}
        withAsterisk
        nothingFoundMessage={loading ? t('app.loading') : t('panels.channel.noMatch')}
        comboboxProps={{ withinPortal: true }}
      />
      {failed && (
        <Text size="sm" c="red" role="alert">
          {t('panels.channel.loadFailed')}{' '}
          <Anchor component="button" type="button" size="sm" onClick={onRetry}>
            {t('common.tryAgain')}
          </Anchor>
        </Text>
      )}
      {!loading && !failed && channels && groups.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('panels.channel.none')}
        </Text>
      )}
    </Stack>
  );
}
