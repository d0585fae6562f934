import { Alert, Avatar, Badge, Button, Group, Loader, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { WhitelabelEntry } from '@ticket/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Fact, Facts } from '@/components/facts';
import { isOnTheWayUp, type WhitelabelUiState } from '../whitelabel-state';

const STATE_COLORS: Record<WhitelabelUiState, string> = {
  ReadyToSetup: 'blue',
  NotRunning: 'gray',
  Deploying: 'indigo',
  Starting: 'indigo',
  Running: 'teal',
  Failed: 'red',
};

interface BotStatusProps {
  bot: WhitelabelEntry | null;
  state: WhitelabelUiState;
  /** On the way up for over a minute. */
  slow: boolean;
  /** The bot's invite to this server, once the main bot's invite is known. */
  inviteUrl: string | null;
  busy: boolean;
  starting: boolean;
  removing: boolean;
  onStart: () => void;
  onRemove: () => void;
}

/**
 * The server's bot as the service reports it: its state (SPEC §4's names), who it is on the
 * platform, why it failed, and what can be done with it. The state is a live region, so a screen
 * reader hears it change while the page follows a deployment.
 */
export function BotStatus({ bot, state, slow, inviteUrl, busy, starting, removing, onStart, onRemove }: BotStatusProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const canStart = bot !== null && !isOnTheWayUp(state);

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Stack gap={6}>
          <Title order={2} size="h4" id={headingId}>
            {t('whitelabel.bot.title')}
          </Title>
          <div role="status" aria-live="polite">
            <Group gap="xs" wrap="nowrap" align="center">
              <Text size="sm" c="dimmed" component="span">
                {t('whitelabel.state.label')}
              </Text>
              <Badge
                color={STATE_COLORS[state]}
                variant="light"
                tt="none"
                data-state={state}
                leftSection={isOnTheWayUp(state) ? <Loader size={10} color={STATE_COLORS[state]} aria-hidden /> : undefined}
              >
                {t(`whitelabel.state.${state}`)}
              </Badge>
            </Group>
            <Text size="sm" mt={6}>
              {t(`whitelabel.stateText.${state}`)}
            </Text>
          </div>
        </Stack>

        {bot && (
          <Group gap="md" wrap="nowrap" align="flex-start">
            <Avatar src={bot.avatarUrl} alt="" name={bot.name} color="initials" size="lg" />
            <Facts>
              <Fact label={t('whitelabel.bot.name')}>{bot.name}</Fact>
              <Fact label={t('whitelabel.bot.clientId')}>
                <span dir="ltr">{bot.clientId}</span>
              </Fact>
              <Fact label={t('whitelabel.form.activity')}>{bot.activity || t('whitelabel.bot.noActivity')}</Fact>
            </Facts>
          </Group>
        )}

        {state === 'Failed' && (
          <Alert color="red" title={t('whitelabel.deployment.failedTitle')}>
            <Stack gap={4}>
              <Text size="sm">{bot?.statusMessage ? t('whitelabel.deployment.reason', { reason: bot.statusMessage }) : t('whitelabel.deployment.noReason')}</Text>
              <Text size="sm">{t('whitelabel.deployment.failedAdvice')}</Text>
            </Stack>
          </Alert>
        )}
        {state === 'NotRunning' && bot?.statusMessage && (
          <Text size="sm" c="dimmed">
            {t('whitelabel.deployment.reason', { reason: bot.statusMessage })}
          </Text>
        )}
        {slow && (
          <Alert color="yellow" title={t('whitelabel.deployment.slowTitle')}>
            <Text size="sm">{t('whitelabel.deployment.slowText')}</Text>
          </Alert>
        )}

        {bot && (
          <Group gap="sm">
            {canStart && (
              <Button onClick={onStart} loading={starting} disabled={busy}>
                {t(state === 'Running' ? 'whitelabel.start.restart' : 'whitelabel.start.action')}
              </Button>
            )}
            {inviteUrl && (
              <Button component="a" href={inviteUrl} target="_blank" rel="noopener noreferrer" variant="default">
                {t('whitelabel.bot.invite')}
                <VisuallyHidden>{t('dashboard.opensInNewTab')}</VisuallyHidden>
              </Button>
            )}
            <Button variant="light" color="red" onClick={onRemove} loading={removing} disabled={busy}>
              {t('whitelabel.remove.action')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
