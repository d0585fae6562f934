import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { inviteUrlFor } from '@/lib/invite-url';
import { useLoginConfig } from '@/lib/queries/get-login-config';

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
