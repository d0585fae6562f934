import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { WEBHOOK_POLICY, type WebhookEndpointWithSecret } from '@ticket/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ServerLoadNotice } from '@/components/bot-missing';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { StaffPageHeader } from '@/components/staff-page-header';
import { notifySuccess } from '@/lib/notify';
import { paths } from '@/lib/routes';
import { type CurrentServer, useCurrentServer } from '@/lib/use-current-server';
import { useCreateWebhookEndpoint } from '../api/create-webhook-endpoint';
import { useWebhookEndpoints } from '../api/get-webhook-endpoints';
import { EndpointCard } from './endpoint-card';
import { EndpointForm } from './endpoint-form';
import { SecretPanel } from './secret-panel';
import { VerifyHelp } from './verify-help';

/**
 * `/staff/:serverId/webhooks`: the server's outgoing webhooks (Enterprise only). Endpoints can be
 * added, changed, switched off, tested and deleted; a signing secret is shown in full once, when
 * the endpoint is made or its secret rotated.
 */
export function WebhooksPage() {
  const current = useCurrentServer();
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader current={current} title={t('webhooks.title')} />
      <ServerLoadNotice current={current} />
      {!current.notFound && <WebhooksBody current={current} />}
    </Stack>
  );
}

function WebhooksBody({ current }: { current: CurrentServer }) {
  const { serverId, plan, server } = current;
  if (!server) return current.isLoading ? <LoadingBlock /> : null;
  if (plan !== 'enterprise') return <EnterpriseOnly serverId={serverId} plan={plan} />;
  return <ServerWebhooks serverId={serverId} />;
}

/** Other plans learn what it takes, and nothing is asked of the service: it would only refuse. */
function EnterpriseOnly({ serverId, plan }: { serverId: string; plan: CurrentServer['plan'] }) {
  const { t } = useTranslation();
  return (
    <Alert color="violet" title={t('webhooks.enterpriseOnly')}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('webhooks.explanation')}</Text>
        <Text size="sm">{t('webhooks.currentPlan', { plan: t(`staff.plans.${plan}`) })}</Text>
        <Button component={Link} to={paths.premium(serverId)} variant="light" color="violet">
          {t('webhooks.seePlans')}
        </Button>
      </Stack>
    </Alert>
  );
}

function ServerWebhooks({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const addHeadingId = useId();
  const query = useWebhookEndpoints(serverId);
  const create = useCreateWebhookEndpoint(serverId);
  const [adding, setAdding] = useState(false);
  // The whole secret lives here only, for as long as the page is open.
  const [shown, setShown] = useState<WebhookEndpointWithSecret | null>(null);
  const full = (query.data?.length ?? 0) >= WEBHOOK_POLICY.endpointsPerServer;

  const addButton = (
    <Button onClick={() => setAdding(true)} disabled={full}>
      {t('webhooks.add.action')}
    </Button>
  );

  let content;
  if (query.isPending) content = <LoadingBlock height={96} />;
  else if (query.isError) content = <LoadError message={t('webhooks.loadFailed')} onRetry={() => void query.refetch()} />;
  else if (query.data.length === 0) {
    content = (
      <EmptyState title={t('webhooks.empty.title')} action={adding ? undefined : addButton}>
        {t('webhooks.empty.text')}
      </EmptyState>
    );
  } else {
    content = (
      <Stack gap="md">
        {query.data.map((endpoint) => (
          <EndpointCard key={endpoint.endpointId} serverId={serverId} endpoint={endpoint} onSecret={setShown} />
        ))}
        {!adding && <div>{addButton}</div>}
        {full && (
          <Text size="sm" c="dimmed">
            {t('webhooks.add.limit', { max: WEBHOOK_POLICY.endpointsPerServer })}
          </Text>
        )}
      </Stack>
    );
  }

  return (
    <>
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={2} size="h4" id={headingId}>
              {t('webhooks.endpointsTitle')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('webhooks.explanation')}
            </Text>
          </Stack>
          {shown && <SecretPanel secret={shown.secret} url={shown.url} onDismiss={() => setShown(null)} />}
          {content}
          {adding && (
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby={addHeadingId}>
              <Stack gap="sm">
                <Title order={3} size="h5" id={addHeadingId}>
                  {t('webhooks.add.title')}
                </Title>
                <EndpointForm
                  submitLabel={t('webhooks.add.submit')}
                  saving={create.isPending}
                  onCancel={() => setAdding(false)}
                  onSubmit={async (draft) => {
                    const endpoint = await create.mutateAsync(draft);
                    setAdding(false);
                    setShown(endpoint);
                    notifySuccess(t('webhooks.add.done'));
                  }}
                />
              </Stack>
            </Paper>
          )}
        </Stack>
      </Paper>
      <VerifyHelp />
    </>
  );
}
