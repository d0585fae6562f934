import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CenteredPanel } from '@/components/centered-panel';
import { DocumentTitle } from '@/components/document-title';
import { useLoginConfig } from '@/lib/queries/get-login-config';
import { getRuntimeConfig } from '@/lib/runtime-config';
import { safeNext, startLogin } from '../login-flow';
import { DiscordIcon } from './discord-icon';

export function LoginPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const loginConfig = useLoginConfig();
  const { demo } = getRuntimeConfig();

  return (
    <CenteredPanel>
      <DocumentTitle title={t('login.title')} />
      <Stack gap="lg">
        <Stack gap="xs">
          <Title order={1}>{t('app.name')}</Title>
          <Text c="dimmed">{t('app.tagline')}</Text>
        </Stack>
        {loginConfig.isError ? (
          <Alert color="red" role="alert" title={t('login.configFailed')}>
            <Button variant="light" color="red" mt="sm" onClick={() => void loginConfig.refetch()}>
              {t('common.tryAgain')}
            </Button>
          </Alert>
        ) : (
          <Button
            size="md"
            fullWidth
            leftSection={<DiscordIcon />}
            loading={loginConfig.isPending}
            onClick={() => loginConfig.data && startLogin(loginConfig.data, safeNext(search.get('next')))}
          >
            {t('login.signInWithDiscord')}
          </Button>
        )}
        {demo && (
          <Text size="sm" c="dimmed">
            {t('login.demoNote')}
          </Text>
        )}
      </Stack>
    </CenteredPanel>
  );
}
