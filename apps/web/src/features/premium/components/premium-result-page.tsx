import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { PaymentProvider } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { BotMissing } from '@/components/bot-missing';
import { StaffPageHeader } from '@/components/staff-page-header';
import { paths } from '@/lib/routes';
import { useCurrentServer } from '@/lib/use-current-server';
import { type ResultKind, useCheckoutResult } from '../api/complete-checkout';

export type PremiumResult = 'cancel' | 'success' | 'updateSuccess';

const SECTION = { cancel: 'premiumCancel', success: 'premiumSuccess', updateSuccess: 'premiumUpdateSuccess' } as const;

/**
 * Where the provider sends the browser back: a cancelled payment, or a purchase or plan change to
 * verify (SPEC §4: processing, unable to verify, complete). The page asks the payment service,
 * which asks the provider, and keeps asking while the provider is still processing.
 */
export function PremiumResultPage({ result }: { result: PremiumResult }) {
  const current = useCurrentServer();
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader current={current} title={t(`staff.sections.${SECTION[result]}`)} trail={[{ label: t('staff.sections.premium'), to: paths.premium(current.serverId) }]} />
      {current.notFound ? (
        <BotMissing serverId={current.serverId} canInvite={current.isAdmin} />
      ) : result === 'cancel' ? (
        <Cancelled serverId={current.serverId} />
      ) : (
        <Verified serverId={current.serverId} kind={result === 'success' ? 'purchase' : 'update'} />
      )}
    </Stack>
  );
}

function BackToPremium({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  return (
    <Button component={Link} to={paths.premium(serverId)} variant="default">
      {t('premium.result.backToPremium')}
    </Button>
  );
}

function Cancelled({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  return (
    <Stack gap="md" align="flex-start">
      {search.get('provider') === 'paypal' ? (
        <Alert color="yellow" title={t('premium.errors.paypalCancelled')}>
          {t('premium.result.nothingChanged')}
        </Alert>
      ) : (
        <Text>{t('premium.result.cancelled')}</Text>
      )}
      <BackToPremium serverId={serverId} />
    </Stack>
  );
}

/** The provider's token: Stripe's session (or invoice) comes back as `token`, PayPal's subscription as `subscription_id`. */
function tokenOf(search: URLSearchParams, provider: PaymentProvider | undefined): string | undefined {
  const token = provider === 'paypal' ? (search.get('subscription_id') ?? search.get('token')) : search.get('token');
  return token || undefined;
}

function Verified({ serverId, kind }: { serverId: string; kind: ResultKind }) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const given = search.get('provider');
  const provider: PaymentProvider | undefined = given === 'stripe' || given === 'paypal' ? given : undefined;
  const token = tokenOf(search, provider);
  const answer = useCheckoutResult(kind, serverId, provider, token);
  const status = !provider || !token || answer.isError ? 'unverified' : (answer.data?.status ?? 'processing');
  const processing = kind === 'purchase' ? t('premium.result.processingPurchase') : t('premium.result.processingUpdate');
  // Polling has stopped while the provider still says "processing": this page cannot tell more.
  const gaveUp = status === 'processing' && answer.gaveUp;

  return (
    <Stack gap="md" align="flex-start" data-status={gaveUp ? 'unverified' : status}>
      {status === 'complete' ? (
        <Alert color="teal" title={kind === 'purchase' ? t('premium.result.completePurchase') : t('premium.result.completeUpdate')} role="status">
          {t('premium.result.completeText')}
        </Alert>
      ) : status === 'failed' ? (
        <Alert color="red" title={t('premium.result.failedTitle')} role="status">
          {t('premium.result.failed')}
        </Alert>
      ) : status === 'unverified' || gaveUp ? (
        <Alert color="yellow" title={t('premium.result.unverifiedTitle')} role="status">
          {t('premium.result.unverified')}
        </Alert>
      ) : (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text fw={600}>{processing}</Text>
        </Group>
      )}
      <BackToPremium serverId={serverId} />
    </Stack>
  );
}
