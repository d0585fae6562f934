import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { CenteredPanel } from '@/components/centered-panel';
import { DocumentTitle } from '@/components/document-title';
import { NotFoundPage } from './not-found-page';

/** A failure outside the signed-in shell: the whole page says so. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return (
    <CenteredPanel>
      <UnexpectedError />
    </CenteredPanel>
  );
}

/** A screen that failed inside the signed-in shell: the header and menu stay usable around it. */
export function ScreenErrorPage() {
  const error = useRouteError();
  console.error(error);
  return (
    <Stack maw={640} mx="auto" py="xl">
      <UnexpectedError />
    </Stack>
  );
}

function UnexpectedError() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <DocumentTitle title={t('errors.unexpectedTitle')} />
      <Title order={1}>{t('errors.unexpectedTitle')}</Title>
      <Text>{t('errors.unexpected')}</Text>
      <Button onClick={() => window.location.reload()} style={{ alignSelf: 'flex-start' }}>
        {t('app.reload')}
      </Button>
    </Stack>
  );
}
