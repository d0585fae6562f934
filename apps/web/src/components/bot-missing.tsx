import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { inviteUrlFor } from '@/lib/invite-url';
import type { CurrentServer } from '@/lib/use-current-server';
import { useLoginConfig } from '@/lib/queries/get-login-config';
import { LoadError } from './load-error';

/** The server answered 404: the bot is not (or no longer) on it. Admins can add it right here. */
export function BotMissing({ serverId, canInvite }: { serverId: string; canInvite: boolean }) {
  const { t } = useTranslation();
  const inviteUrl = useLoginConfig().data?.inviteUrl;
  return (
    <Alert color="yellow" title={t('staff.botMissing.title')} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{canInvite ? t('staff.botMissing.admin') : t('staff.botMissing.member')}</Text>
        {canInvite && inviteUrl ? (
          <Button component="a" href={inviteUrlFor(inviteUrl, serverId)}>
            {t('servers.beginSetup')}
          </Button>
        ) : (
          <Button component={Link} to="/" variant="default">
            {t('errors.backToDashboard')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/**
 * What a staff screen shows instead of (or above) its content when its server did not load: the
 * bot is missing (the screen stays away), or loading failed (its data may still show below).
 */
export function ServerLoadNotice({ current }: { current: CurrentServer }) {
  const { t } = useTranslation();
  if (current.notFound) return <BotMissing serverId={current.serverId} canInvite={current.isAdmin} />;
  if (current.error) return <LoadError message={t('staff.serverLoadFailed')} onRetry={current.refetch} />;
  return null;
}
