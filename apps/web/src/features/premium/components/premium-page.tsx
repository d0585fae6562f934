import { Alert, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { BillingInterval, Subscription } from '@ticket/contracts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerLoadNotice } from '@/components/bot-missing';
import { useFormatters } from '@/components/formatters';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { StaffPageHeader } from '@/components/staff-page-header';
import { useAuthStore } from '@/lib/auth-store';
import { useMyReceipts } from '@/lib/queries/get-my-receipts';
import { useCurrentServer } from '@/lib/use-current-server';
import { useMySubscriptions } from '../api/get-my-subscriptions';
import { usePrices } from '../api/get-prices';
import { useServerSubscriptions } from '../api/get-server-subscriptions';
import { CARBON_REMOVAL_SHARE, REFUND_WINDOW_DAYS } from '@/lib/plans';
import { BuySteps } from './buy-steps';
import { PeriodPicker } from './period-picker';
import { PlanTable } from './plan-table';
import { PremiumFaq } from './premium-faq';
import { SubscriptionCard } from './subscription-card';

/**
 * `/staff/:serverId/premium`: the server's plan and who pays for it, the plans at each period's
 * price, buying in four steps, the user's own subscriptions with their actions, and an FAQ.
 */
export function PremiumPage() {
  const current = useCurrentServer();
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader current={current} title={t('staff.sections.premium')} />
      <ServerLoadNotice current={current} />
      {!current.notFound && <PremiumBody serverId={current.serverId} plan={current.server ? current.plan : undefined} isAdmin={current.isAdmin} />}
    </Stack>
  );
}

function PremiumBody({ serverId, plan, isAdmin }: { serverId: string; plan: ReturnType<typeof useCurrentServer>['plan'] | undefined; isAdmin: boolean }) {
  const { t } = useTranslation();
  const userId = useAuthStore((state) => state.user?.userId);
  const prices = usePrices();
  const serverSubscriptions = useServerSubscriptions(serverId);
  const mine = useMySubscriptions();
  const receipts = useMyReceipts();
  const [interval, setPeriod] = useState<BillingInterval>('annually');
  const format = useFormatters();
  const here = serverSubscriptions.data ?? [];
  const elsewhere = (mine.data ?? []).filter((subscription) => subscription.serverId !== serverId);

  const card = (subscription: Subscription) => (
    <SubscriptionCard
      key={subscription.id}
      subscription={subscription}
      prices={prices.data}
      receipts={receipts.data}
      mine={subscription.userId === userId}
      revokeFrom={isAdmin && subscription.serverId === serverId ? serverId : undefined}
    />
  );

  return (
    <>
      <Section title={t('premium.subscriptions.serverTitle')} id="server-subscription">
        {serverSubscriptions.isPending ? (
          <LoadingBlock height={120} />
        ) : serverSubscriptions.isError ? (
          <LoadError message={t('premium.subscriptions.loadFailed')} onRetry={() => void serverSubscriptions.refetch()} />
        ) : here.length === 0 ? (
          <Text>{t('premium.subscriptions.none')}</Text>
        ) : (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {here.map(card)}
          </Stack>
        )}
      </Section>

      <Section
        title={t('premium.plansTitle')}
        id="plans"
        aside={<PeriodPicker value={interval} onChange={setPeriod} prices={prices.data} label={t('premium.period')} />}
      >
        {prices.isError && <Alert color="yellow">{t('premium.pricesLoadFailed')}</Alert>}
        <PlanTable current={plan} prices={prices.data} interval={interval} />
        <List size="sm" spacing={4} c="dimmed">
          <List.Item>{t('premium.longerIsCheaper')}</List.Item>
          <List.Item>{t('premium.refund', { days: REFUND_WINDOW_DAYS })}</List.Item>
          <List.Item>{t('premium.carbon', { share: format.percent(CARBON_REMOVAL_SHARE) })}</List.Item>
        </List>
      </Section>

      {prices.isPending ? (
        <LoadingBlock height={200} />
      ) : prices.isError ? (
        <LoadError message={t('premium.pricesLoadFailed')} onRetry={() => void prices.refetch()} />
      ) : (
        <BuySteps key={serverId} serverId={serverId} prices={prices.data} currentPlan={plan} initialInterval={interval} />
      )}

      <Section title={t('premium.subscriptions.mineTitle')} id="my-subscriptions">
        {mine.isPending ? (
          <LoadingBlock height={120} />
        ) : mine.isError ? (
          <LoadError message={t('premium.subscriptions.loadFailed')} onRetry={() => void mine.refetch()} />
        ) : elsewhere.length === 0 ? (
          <Text c="dimmed">{(mine.data ?? []).length === 0 ? t('premium.subscriptions.noneMine') : t('premium.subscriptions.noneElsewhere')}</Text>
        ) : (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {elsewhere.map(card)}
          </Stack>
        )}
      </Section>

      <PremiumFaq />
    </>
  );
}

function Section({ title, id, aside, children }: { title: string; id: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={id}>
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Title order={2} size="h3" id={id}>
            {title}
          </Title>
          {aside}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
