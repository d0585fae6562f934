import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { Receipt } from '@ticket/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { notifyError } from '@/lib/notify';
import { useMyReceipts } from '@/lib/queries/get-my-receipts';
import { downloadReceiptPdf } from '../api/get-receipt-pdf';
import { ProfileSection } from './profile-section';

/** The receipts of every payment and refund of the user's subscriptions, newest first, each as a PDF. */
export function ReceiptsSection() {
  const { t } = useTranslation();
  const receipts = useMyReceipts();
  return (
    <ProfileSection title={t('profile.receipts.title')} description={t('profile.receipts.description')}>
      {receipts.isPending ? (
        <LoadingBlock height={80} />
      ) : receipts.isError ? (
        <LoadError message={t('profile.receipts.loadFailed')} onRetry={() => void receipts.refetch()} />
      ) : receipts.data.length === 0 ? (
        <Text c="dimmed">{t('profile.receipts.none')}</Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {[...receipts.data].reverse().map((receipt) => (
            <ReceiptRow key={receipt.number} receipt={receipt} />
          ))}
        </Stack>
      )}
    </ProfileSection>
  );
}

function ReceiptRow({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [busy, setBusy] = useState(false);
  const refund = receipt.kind === 'refund';
  const download = async () => {
    setBusy(true);
    try {
      await downloadReceiptPdf(receipt.number);
    } catch {
      notifyError(t('profile.receipts.downloadFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper component="li" withBorder p="sm" radius="md" data-receipt={receipt.number} data-kind={receipt.kind}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Stack gap={2} miw={0}>
          <Group gap="xs">
            <Text fw={600}>{t('profile.receipts.number', { number: receipt.number })}</Text>
            <Badge color={refund ? 'orange' : 'teal'} variant="light" tt="none">
              {t(`profile.receipts.kinds.${receipt.kind}`)}
            </Badge>
            <Text fw={600} data-amount>
              {format.currency(refund ? -receipt.amountCents : receipt.amountCents, receipt.currency)}
            </Text>
          </Group>
          <Text size="sm" c="dimmed">
            {format.date(receipt.createdAt)}
            {' · '}
            {t('profile.receipts.planLine', {
              plan: t(`profile.receipts.plans.${receipt.planType}`),
              period: t(`profile.receipts.intervals.${receipt.planInterval}`),
            })}
            {' · '}
            {receipt.server?.name ?? t('profile.receipts.noServer')}
            {' · '}
            {t(`profile.receipts.methods.${receipt.provider}`)}
          </Text>
          {!refund && (
            <Text size="xs" c="dimmed">
              {t('profile.receipts.carbon', { amount: format.currency(receipt.carbonRemovalCents, receipt.currency) })}
            </Text>
          )}
        </Stack>
        <Button
          size="xs"
          variant="default"
          loading={busy}
          onClick={() => void download()}
          aria-label={t('profile.receipts.downloadNumber', { number: receipt.number })}
        >
          {t('profile.receipts.download')}
        </Button>
      </Group>
    </Paper>
  );
}
