import { Badge } from '@mantine/core';
import type { WebhookDeliveryStatus } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';

const COLOR: Record<WebhookDeliveryStatus, string> = { pending: 'yellow', delivered: 'teal', failed: 'red' };

export function DeliveryStatusBadge({ status }: { status: WebhookDeliveryStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLOR[status]} variant="light">
      {t(`webhooks.status.${status}`)}
    </Badge>
  );
}
