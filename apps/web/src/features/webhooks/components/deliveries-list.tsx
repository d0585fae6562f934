import { Box, Button, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { WebhookDelivery } from '@ticket/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { useFormatters } from '@/components/formatters';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { Pager } from '@/components/pager';
import { notifyError, notifySuccess } from '@/lib/notify';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useResendWebhookDelivery } from '../api/resend-webhook-delivery';
import { DeliveryStatusBadge } from './delivery-status';
import { eventLabelKey } from './labels';

/** What the latest attempt got: its HTTP status, or why there was none. */
export function DeliveryResult({ delivery }: { delivery: Pick<WebhookDelivery, 'statusCode' | 'error' | 'attempts'> }) {
  const { t } = useTranslation();
  if (delivery.attempts === 0) return <>{t('webhooks.deliveries.notYet')}</>;
  const code = delivery.statusCode === null ? t('webhooks.deliveries.noAnswer') : `HTTP ${delivery.statusCode}`;
  return (
    <>
      {code}
      {delivery.error && (
        <Text size="xs" c="dimmed" dir="ltr" style={{ overflowWrap: 'anywhere' }}>
          {delivery.error}
        </Text>
      )}
    </>
  );
}

/** An endpoint's deliveries of the last 14 days, newest first, a page at a time; a finished one can be sent again. */
export function DeliveriesList({ serverId, endpointId, label }: { serverId: string; endpointId: string; label: string }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [page, setPage] = useState(1);
  const query = useWebhookDeliveries(serverId, endpointId, page);
  const resend = useResendWebhookDelivery(serverId, endpointId);

  if (query.isPending) return <LoadingBlock height={96} />;
  if (query.isError) return <LoadError message={t('webhooks.deliveries.loadFailed')} onRetry={() => void query.refetch()} />;
  const { elements, maxPage } = query.data;
  if (elements.length === 0 && page === 1) return <EmptyState title={t('webhooks.deliveries.empty')} />;

  const sendAgain = (deliveryId: string) =>
    resend.mutate(deliveryId, {
      onSuccess: () => notifySuccess(t('webhooks.deliveries.resent')),
      onError: () => notifyError(t('webhooks.deliveries.resendFailed')),
    });

  return (
    <Stack gap="sm">
      <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
        <Table striped verticalSpacing="xs" miw={760} aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('webhooks.deliveries.event')}</Table.Th>
              <Table.Th scope="col">{t('webhooks.deliveries.status')}</Table.Th>
              <Table.Th scope="col">{t('webhooks.deliveries.result')}</Table.Th>
              <Table.Th scope="col">{t('webhooks.deliveries.attempts')}</Table.Th>
              <Table.Th scope="col">{t('webhooks.deliveries.created')}</Table.Th>
              <Table.Th scope="col">{t('webhooks.deliveries.lastAttempt')}</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>{t('webhooks.deliveries.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {elements.map((delivery) => (
              <Table.Tr key={delivery.deliveryId} data-delivery={delivery.deliveryId}>
                <Table.Td>{t(eventLabelKey(delivery.event))}</Table.Td>
                <Table.Td>
                  <DeliveryStatusBadge status={delivery.status} />
                </Table.Td>
                <Table.Td>
                  <DeliveryResult delivery={delivery} />
                </Table.Td>
                <Table.Td>{format.number(delivery.attempts)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <time dateTime={delivery.createdAt}>{format.dateTime(delivery.createdAt)}</time>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {delivery.lastAttemptAt ? <time dateTime={delivery.lastAttemptAt}>{format.dateTime(delivery.lastAttemptAt)}</time> : '—'}
                </Table.Td>
                <Table.Td>
                  {delivery.status === 'failed' && (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => sendAgain(delivery.deliveryId)}
                      loading={resend.isPending && resend.variables === delivery.deliveryId}
                      disabled={resend.isPending}
                    >
                      {t('webhooks.deliveries.resend')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      <Pager page={page} maxPage={maxPage} onChange={setPage} />
    </Stack>
  );
}
