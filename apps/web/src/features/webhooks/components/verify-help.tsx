import { Code, Paper, Stack, Text, Title } from '@mantine/core';
import { WEBHOOK_HEADERS } from '@ticket/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** How a receiver checks that a delivery is genuine (see WEBHOOK_HEADERS in the contracts). */
export function VerifyHelp() {
  const { t } = useTranslation();
  const headingId = useId();
  const headers = [
    `${WEBHOOK_HEADERS.id}: evt_…`,
    `${WEBHOOK_HEADERS.timestamp}: 1767225600`,
    `${WEBHOOK_HEADERS.signature}: v1=<hex>`,
    `${WEBHOOK_HEADERS.event}: ticket.opened`,
    `${WEBHOOK_HEADERS.attempt}: 1`,
  ].join('\n');
  const check = 'v1=' + 'hex(HMAC-SHA256(secret, `${timestamp}.${rawBody}`))';
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('webhooks.verify.title')}
        </Title>
        <Text size="sm">{t('webhooks.verify.headers')}</Text>
        <Code block dir="ltr">
          {headers}
        </Code>
        <Text size="sm">{t('webhooks.verify.signature')}</Text>
        <Code block dir="ltr">
          {check}
        </Code>
        <Text size="sm">{t('webhooks.verify.retries')}</Text>
      </Stack>
    </Paper>
  );
}
