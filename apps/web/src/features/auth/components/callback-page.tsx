import { Alert, Button, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, type LoaderFunctionArgs, redirect, useLoaderData } from 'react-router';
import { CenteredPanel } from '@/components/centered-panel';
import { DocumentTitle } from '@/components/document-title';
import { useAuthStore } from '@/lib/auth-store';
import { type CallbackResult, callbackUrl, loginPath, readCallback } from '../login-flow';

type CallbackFailure = Extract<CallbackResult, { ok: false }>;

/**
 * Runs in the router rather than in an effect, so the one-time code is exchanged exactly once
 * (effects run twice under StrictMode) and the user never sees a half-signed-in page.
 */
export async function callbackLoader({ request }: LoaderFunctionArgs): Promise<CallbackFailure> {
  const result = readCallback(new URL(request.url).searchParams);
  if (!result.ok) return result;
  try {
    await useAuthStore.getState().login(result.code, callbackUrl());
  } catch {
    return { ok: false, error: 'failed', next: result.next };
  }
  throw redirect(result.next);
}

export function CallbackPage() {
  const { t } = useTranslation();
  const failure = useLoaderData<CallbackFailure>();
  const message =
    failure.error === 'unknown'
      ? t('login.errors.unknown', { error: failure.detail ?? '' })
      : t(`login.errors.${failure.error}`);

  return (
    <CenteredPanel>
      <DocumentTitle title={t('login.failedTitle')} />
      <Stack gap="lg">
        <Title order={1}>{t('login.failedTitle')}</Title>
        <Alert color="red" role="alert">
          {message}
        </Alert>
        <Button component={Link} to={loginPath(failure.next)} size="md">
          {t('common.tryAgain')}
        </Button>
      </Stack>
    </CenteredPanel>
  );
}
