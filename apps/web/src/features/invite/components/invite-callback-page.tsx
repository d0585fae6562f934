import { Alert, Button, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { isAdminRole, roleOf, useAuthStore } from '@/lib/auth-store';
import { notifySuccess } from '@/lib/notify';
import { paths } from '@/lib/routes';

const SNOWFLAKE = /^\d{1,20}$/;

/**
 * `/invite_callback`: the platform sends the browser here after the bot invite, with `guild_id`
 * (and a `code` the dashboard does not need) or with `error`. The user's server list is fetched
 * again past the cache, so the server shows up with the bot at once.
 */
export function InviteCallbackPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  // Effects run twice under StrictMode; the refresh and the toast must happen once.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const serverId = search.get('guild_id');
    if (search.has('error') || !serverId || !SNOWFLAKE.test(serverId)) {
      setFailed(true);
      return;
    }
    useAuthStore
      .getState()
      .refresh('bypass_cache')
      .then((user) => {
        const name = user.servers.find((server) => server.serverId === serverId)?.name ?? serverId;
        notifySuccess(t('invite.added', { name }));
        // Admins carry on with the setup; anyone else (the role may have changed) lands on the dashboard.
        navigate(isAdminRole(roleOf(user, serverId)) ? paths.staffHome(serverId) : '/', { replace: true });
      })
      .catch(() => setFailed(true));
  }, [navigate, search, t]);

  return (
    <Center mih="60dvh" p="md">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={440}>
        <DocumentTitle title={t('invite.title')} />
        <Stack gap="lg">
          <Title order={1} size="h2">
            {failed ? t('invite.failedTitle') : t('invite.title')}
          </Title>
          {failed ? (
            <>
              <Alert color="red" role="alert">
                {t('invite.error')}
              </Alert>
              <Button component={Link} to="/">
                {t('errors.backToDashboard')}
              </Button>
            </>
          ) : (
            <Stack align="center" gap="sm" role="status">
              <Loader aria-hidden />
              <Text>{t('invite.working')}</Text>
            </Stack>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
