import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CenteredPanel } from '@/components/centered-panel';

/** Shown when config.json cannot be loaded: without it no service can be reached. */
export function StartupError() {
  const { t } = useTranslation();
  return (
    <CenteredPanel>
      <Stack gap="md">
        <Title order={1}>{t('app.name')}</Title>
        <Text role="alert">{t('app.startupFailed')}</Text>
        <Button onClick={() => window.location.reload()}>{t('app.reload')}</Button>
      </Stack>
    </CenteredPanel>
  );
}
