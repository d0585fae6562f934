import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/lib/routes';

export type PremiumResult = 'cancel' | 'success' | 'updateSuccess';

/**
 * Where the payment provider sends the browser back (SPEC §4: processing, unable to verify,
 * complete). Until the result is verified with the provider, the honest answer is that the
 * payment is being processed and could not be verified here.
 */
export function PremiumResultSection({ serverId, result }: { serverId: string; result: PremiumResult }) {
  const { t } = useTranslation();
  const back = (
    <Button component={Link} to={paths.premium(serverId)} variant="default">
      {t('staff.premiumResult.backToPremium')}
    </Button>
  );
  if (result === 'cancel') {
    return (
      <Stack gap="md" align="flex-start">
        <Text>{t('staff.premiumResult.cancelled')}</Text>
        {back}
      </Stack>
    );
  }
  return (
    <Stack gap="md" align="flex-start">
      <Text fw={600} role="status">
        {result === 'success' ? t('staff.premiumResult.processingPurchase') : t('staff.premiumResult.processingUpdate')}
      </Text>
      <Alert color="yellow" title={t('staff.premiumResult.unverifiedTitle')}>
        {t('staff.premiumResult.unverified')}
      </Alert>
      {back}
    </Stack>
  );
}
