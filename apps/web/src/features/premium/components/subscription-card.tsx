import { Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { PriceTable, Receipt, Subscription, SubscriptionState } from '@ticket/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Fact, Facts } from '@/components/facts';
import { useFormatters } from '@/components/formatters';
import { confirm, notifyError, notifySuccess } from '@/lib/notify';
import { paths } from '@/lib/routes';
import { useRevokeSubscription } from '../api/revoke-subscription';
import { priceOf } from '../prices';
import { SubscriptionActions } from './subscription-actions';

const STATE_COLORS: Record<SubscriptionState, string> = { active: 'teal', canceled: 'gray', paused: 'orange' };

/**
 * One subscription: plan and period, state, price and amount, payment method, next billing or
 * end, the server it applies to, a change waiting for the period's end. Its buyer gets the
 * actions; an admin of the server it applies to may detach it from the server.
 */
export function SubscriptionCard({
  subscription,
  prices,
  receipts,
  mine,
  revokeFrom,
}: {
  subscription: Subscription;
  prices: PriceTable | undefined;
  receipts: Receipt[] | undefined;
  mine: boolean;
  /** The server an admin is looking at, when they may detach the subscription from it. */
  revokeFrom?: string;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const price = priceOf(prices, subscription.planType, subscription.planInterval);
  const currency = prices?.currency ?? 'USD';
  const ending = subscription.state !== 'canceled' && subscription.cancelAtPeriodEnd;
  const state: SubscriptionState | 'ending' = ending ? 'ending' : subscription.state;
  const scheduled = subscription.scheduledChange;

  const facts: { label: string; value: ReactNode }[] = [
    price && { label: t('premium.subscriptions.price'), value: t('premium.pricePerMonth', { price: format.currency(price.monthlyCents, currency) }) },
    price && { label: t('premium.subscriptions.amount'), value: t(`premium.billed.${subscription.planInterval}`, { amount: format.currency(price.amountCents, currency) }) },
    { label: t('premium.subscriptions.method'), value: t(`premium.methods.${subscription.provider}`) },
    subscription.nextBilling && {
      label: subscription.state === 'canceled' ? t('premium.subscriptions.ended') : ending ? t('premium.subscriptions.endsOn') : t('premium.subscriptions.nextBilling'),
      value: format.date(subscription.nextBilling),
    },
    {
      label: t('premium.subscriptions.server'),
      value: subscription.server ? (
        <Anchor component={Link} to={paths.premium(subscription.server.serverId)}>
          {subscription.server.name}
        </Anchor>
      ) : (
        t('premium.subscriptions.noServer')
      ),
    },
    subscription.lastTransferred && { label: t('premium.subscriptions.transferred'), value: format.date(subscription.lastTransferred) },
  ].filter((fact) => typeof fact === 'object' && fact !== null);

  return (
    <Paper withBorder radius="md" p="md" component="li" data-subscription={subscription.id} data-state={state}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={3} size="h4">
            {t('premium.subscriptions.planLine', { plan: t(`staff.plans.${subscription.planType}`), period: t(`premium.intervals.${subscription.planInterval}`) })}
          </Title>
          <Badge color={ending ? 'yellow' : STATE_COLORS[subscription.state]} variant="light" tt="none">
            {t(`premium.subscriptions.states.${state}`)}
          </Badge>
        </Group>
        <Facts>
          {facts.map((fact) => (
            <Fact key={fact.label} label={fact.label}>
              {fact.value}
            </Fact>
          ))}
        </Facts>
        {subscription.state === 'paused' && <Text size="sm" c="orange">{t('premium.subscriptions.pausedHint', { method: t(`premium.methods.${subscription.provider}`) })}</Text>}
        {scheduled && (
          <Text size="sm" data-scheduled>
            {t('premium.subscriptions.scheduled', {
              plan: t(`staff.plans.${scheduled.planType}`),
              period: t(`premium.intervals.${scheduled.planInterval}`),
              date: format.date(scheduled.effectiveDate),
            })}
          </Text>
        )}
        {!mine && <Text size="sm" c="dimmed">{t('premium.subscriptions.paidBySomeoneElse')}</Text>}
        {mine && <SubscriptionActions subscription={subscription} prices={prices} receipts={receipts} />}
        {revokeFrom && subscription.state !== 'canceled' && <RevokeButton serverId={revokeFrom} serverName={subscription.server?.name ?? revokeFrom} />}
      </Stack>
    </Paper>
  );
}

function RevokeButton({ serverId, serverName }: { serverId: string; serverName: string }) {
  const { t } = useTranslation();
  const revoke = useRevokeSubscription(serverId);
  const run = async () => {
    if (!(await confirm({ title: t('premium.actions.revokeTitle'), text: t('premium.actions.revokeText', { server: serverName }) }))) return;
    // Awaited: once removed, the card that asked is gone from this server's list.
    try {
      await revoke.mutateAsync();
      notifySuccess(t('premium.actions.revoked'));
    } catch {
      notifyError(t('premium.actions.revokeFailed'));
    }
  };
  return (
    <Group>
      <Button size="xs" variant="subtle" color="red" onClick={() => void run()} loading={revoke.isPending}>
        {t('premium.actions.revoke')}
      </Button>
    </Group>
  );
}
