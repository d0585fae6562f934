import { Alert, Badge, Button, Code, Collapse, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '@ticket/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Fact, Facts } from '@/components/facts';
import { useFormatters } from '@/components/formatters';
import { confirm, notifyError, notifySuccess } from '@/lib/notify';
import { useChangeWebhookSecret } from '../api/change-webhook-secret';
import { useCreateWebhookTestDelivery } from '../api/create-webhook-test-delivery';
import { useDeleteWebhookEndpoint } from '../api/delete-webhook-endpoint';
import { useUpdateWebhookEndpoint } from '../api/update-webhook-endpoint';
import { DeliveriesList, DeliveryResult } from './deliveries-list';
import { DeliveryStatusBadge } from './delivery-status';
import { EndpointForm } from './endpoint-form';
import { eventLabelKey } from './labels';

interface EndpointCardProps {
  serverId: string;
  endpoint: WebhookEndpoint;
  /** A new signing secret, to show once. */
  onSecret: (endpoint: WebhookEndpointWithSecret) => void;
}

/** One endpoint: what it receives and how its last delivery went, with everything that can be done to it. */
export function EndpointCard({ serverId, endpoint, onSecret }: EndpointCardProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const headingId = useId();
  const deliveriesId = useId();
  const { endpointId } = endpoint;
  const update = useUpdateWebhookEndpoint(serverId, endpointId);
  const rotate = useChangeWebhookSecret(serverId, endpointId);
  const remove = useDeleteWebhookEndpoint(serverId, endpointId);
  const test = useCreateWebhookTestDelivery(serverId, endpointId);
  const [editing, setEditing] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [testResult, setTestResult] = useState<WebhookDelivery | null>(null);
  const busy = update.isPending || rotate.isPending || remove.isPending;
  const name = endpoint.description || endpoint.url;

  const toggle = (enabled: boolean) =>
    update.mutate({ enabled }, { onError: () => notifyError(t('webhooks.endpoint.toggleFailed')) });

  const rotateSecret = async () => {
    if (!(await confirm({ title: t('webhooks.rotate.confirmTitle'), text: t('webhooks.rotate.confirmText') }))) return;
    rotate.mutate(undefined, { onSuccess: onSecret, onError: () => notifyError(t('webhooks.rotate.failed')) });
  };

  const deleteEndpoint = async () => {
    if (!(await confirm({ title: t('webhooks.delete.confirmTitle'), text: t('webhooks.delete.confirmText') }))) return;
    remove.mutate(undefined, {
      onSuccess: () => notifySuccess(t('webhooks.delete.done')),
      onError: () => notifyError(t('webhooks.delete.failed')),
    });
  };

  const sendTest = () => {
    setTestResult(null);
    test.mutate(undefined, { onSuccess: setTestResult, onError: () => notifyError(t('webhooks.test.failed')) });
  };

  return (
    <Paper withBorder radius="md" p="md" component="article" aria-labelledby={headingId} data-endpoint={endpointId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Title order={3} size="h5" id={headingId} style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Title>
            {endpoint.description && (
              <Text size="sm" c="dimmed" dir="ltr" style={{ overflowWrap: 'anywhere' }}>
                {endpoint.url}
              </Text>
            )}
          </Stack>
          <Switch
            label={t('webhooks.endpoint.enabled')}
            aria-label={t('webhooks.endpoint.enabledFor', { name })}
            checked={endpoint.enabled}
            disabled={busy}
            onChange={(event) => toggle(event.currentTarget.checked)}
          />
        </Group>

        {editing ? (
          <EndpointForm
            initial={endpoint}
            submitLabel={t('webhooks.form.save')}
            saving={update.isPending}
            onCancel={() => setEditing(false)}
            onSubmit={async (draft) => {
              await update.mutateAsync(draft);
              setEditing(false);
              notifySuccess(t('webhooks.form.saved'));
            }}
          />
        ) : (
          <Facts>
            <Fact label={t('webhooks.form.events')}>
              <Group gap={4}>
                {endpoint.events.map((event) => (
                  <Badge key={event} variant="outline" tt="none">
                    {t(eventLabelKey(event))}
                  </Badge>
                ))}
              </Group>
            </Fact>
            <Fact label={t('webhooks.endpoint.lastDelivery')}>
              {endpoint.lastDelivery ? (
                <Group gap={6}>
                  <DeliveryStatusBadge status={endpoint.lastDelivery.status} />
                  <Text size="sm" span>
                    {endpoint.lastDelivery.statusCode === null ? t('webhooks.deliveries.noAnswer') : `HTTP ${endpoint.lastDelivery.statusCode}`}
                    {' · '}
                    <time dateTime={endpoint.lastDelivery.at}>{format.dateTime(endpoint.lastDelivery.at)}</time>
                  </Text>
                </Group>
              ) : (
                t('webhooks.endpoint.noDeliveries')
              )}
            </Fact>
            <Fact label={t('webhooks.endpoint.secret')}>
              <Code dir="ltr">{endpoint.secretHint}</Code>
            </Fact>
          </Facts>
        )}

        {testResult && (
          <Alert
            role="status"
            color={testResult.status === 'delivered' ? 'teal' : 'red'}
            title={t(testResult.status === 'delivered' ? 'webhooks.test.delivered' : 'webhooks.test.notDelivered')}
            withCloseButton
            closeButtonLabel={t('common.close')}
            onClose={() => setTestResult(null)}
          >
            <DeliveryResult delivery={testResult} />
          </Alert>
        )}

        {!editing && (
          <Group gap="sm">
            <Button size="xs" variant="default" onClick={() => setEditing(true)} disabled={busy}>
              {t('webhooks.endpoint.edit')}
            </Button>
            <Button size="xs" variant="default" onClick={sendTest} loading={test.isPending}>
              {t('webhooks.test.action')}
            </Button>
            <Button size="xs" variant="default" onClick={() => void rotateSecret()} loading={rotate.isPending} disabled={busy}>
              {t('webhooks.rotate.action')}
            </Button>
            <Button size="xs" variant="light" color="red" onClick={() => void deleteEndpoint()} loading={remove.isPending} disabled={busy}>
              {t('webhooks.delete.action')}
            </Button>
            <Button
              size="xs"
              variant="subtle"
              aria-expanded={showDeliveries}
              aria-controls={deliveriesId}
              onClick={() => setShowDeliveries((shown) => !shown)}
            >
              {t('webhooks.deliveries.title')}
            </Button>
          </Group>
        )}

        <Collapse in={showDeliveries} id={deliveriesId}>
          {showDeliveries && (
            <DeliveriesList serverId={serverId} endpointId={endpointId} label={t('webhooks.deliveries.tableLabel', { name })} />
          )}
        </Collapse>
      </Stack>
    </Paper>
  );
}
