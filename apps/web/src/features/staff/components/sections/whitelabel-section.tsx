import { Alert, Avatar, Badge, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { WhitelabelStatus } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { useWhitelabel } from '@/lib/queries/get-whitelabel';
import { paths } from '@/lib/routes';
import type { CurrentServer } from '@/lib/use-current-server';

const statusColors: Record<WhitelabelStatus, string> = {
  NotRunning: 'gray',
  Starting: 'blue',
  Running: 'teal',
  Failed: 'red',
};

/** White-label: the server's own bot. SPEC §6: Enterprise only, so other plans learn what it takes. */
export function WhitelabelSection({ current }: { current: CurrentServer }) {
  const { t } = useTranslation();
  const { serverId, plan, server } = current;
  const enterprise = plan === 'enterprise';
  // Asking for the bot of a server whose plan cannot have one would only earn a 403.
  const query = useWhitelabel(serverId, enterprise && Boolean(server));

  if (!server) return null;
  if (!enterprise) {
    return (
      <Alert color="violet" title={t('staff.whitelabel.enterpriseOnly')}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('staff.whitelabel.explanation')}</Text>
          <Text size="sm">{t('staff.whitelabel.currentPlan', { plan: t(`staff.plans.${plan}`) })}</Text>
          <Button component={Link} to={paths.premium(serverId)} variant="light" color="violet">
            {t('staff.whitelabel.seePlans')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (query.isPending) return <LoadingBlock />;
  if (query.isError) return <LoadError message={t('staff.whitelabel.loadFailed')} onRetry={() => void query.refetch()} />;

  const bot = query.data;
  return (
    <Stack gap="md">
      <Text>{t('staff.whitelabel.explanation')}</Text>
      <Paper withBorder p="md" radius="md">
        {bot ? (
          <Group gap="sm" wrap="nowrap">
            <Avatar src={bot.avatarUrl} alt="" name={bot.name} color="initials" size="lg" />
            <Stack gap={4} miw={0}>
              <Text fw={600} truncate="end">
                {bot.name}
              </Text>
              <Group gap={6}>
                <Badge color={statusColors[bot.status]} variant="light" tt="none">
                  {t(`staff.whitelabel.status.${bot.status}`)}
                </Badge>
                {bot.activity && (
                  <Text size="sm" c="dimmed">
                    {bot.activity}
                  </Text>
                )}
              </Group>
              {bot.statusMessage && (
                <Text size="sm" c={bot.status === 'Failed' ? 'red' : 'dimmed'}>
                  {bot.statusMessage}
                </Text>
              )}
            </Stack>
          </Group>
        ) : (
          <Group gap="xs">
            <Badge variant="light" tt="none">
              {t('staff.whitelabel.status.ReadyToSetup')}
            </Badge>
            <Text size="sm">{t('staff.whitelabel.none')}</Text>
          </Group>
        )}
      </Paper>
      {!bot && (
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('staff.whitelabel.guideTitle')}
          </Title>
          <List type="ordered" spacing="xs">
            <List.Item>{t('staff.whitelabel.guide.application')}</List.Item>
            <List.Item>{t('staff.whitelabel.guide.token')}</List.Item>
            <List.Item>{t('staff.whitelabel.guide.intents')}</List.Item>
          </List>
        </Stack>
      )}
    </Stack>
  );
}
