import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CenteredPanel } from '@/components/centered-panel';
import { DocumentTitle } from '@/components/document-title';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <CenteredPanel>
      <DocumentTitle title={t('errors.notFoundTitle')} />
      <Stack gap="md">
        <Title order={1}>{t('errors.notFoundTitle')}</Title>
        <Text>{t('errors.notFound')}</Text>
        <Button component={Link} to="/">
          {t('errors.backToDashboard')}
        </Button>
      </Stack>
    </CenteredPanel>
  );
}
