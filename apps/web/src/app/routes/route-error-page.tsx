import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { CenteredPanel } from '@/components/centered-panel';
import { DocumentTitle } from '@/components/document-title';
import { NotFoundPage } from './not-found-page';

export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return (
    <CenteredPanel>
      <DocumentTitle title={t('errors.unexpectedTitle')} />
      <Stack gap="md">
        <Title order={1}>{t('errors.unexpectedTitle')}</Title>
        <Text>{t('errors.unexpected')}</Text>
        <Button onClick={() => window.location.reload()}>{t('app.reload')}</Button>
      </Stack>
    </CenteredPanel>
  );
}
