import { Button, Group, Select, Text } from '@mantine/core';
import type { BillingInterval, PaidPlanType, PriceTable, Receipt, Subscription } from '@ticket/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import { isStaffRole, useAuthStore } from '@/lib/auth-store';
import { confirm, errorPopup, notifyError, notifySuccess } from '@/lib/notify';
import { useCancelScheduledChange } from '../api/cancel-scheduled-change';
import { useCancelSubscription } from '../api/cancel-subscription';
import { useChangePlan } from '../api/change-plan';
import { useTransferSubscription } from '../api/transfer-subscription';
import { leaveForProvider } from '../leave-for-provider';
import { REFUND_WINDOW_DAYS } from '@/lib/plans';
import { BILLING_INTERVALS, PAID_PLANS, priceOf } from '../prices';
import { ActionModal } from './action-modal';
import { OptionCards } from './option-cards';

type Dialog = 'plan' | 'billing' | 'transfer' | null;

/** Whether cancelling now refunds in full: the first payment of the subscription is under 7 days old (SPEC §9). */
export function refundsOnCancel(subscription: Subscription, receipts: Receipt[] | undefined, now = Date.now()): boolean | undefined {
  if (!receipts) return undefined;
  const first = receipts.find((receipt) => receipt.subscriptionId === subscription.id && receipt.kind === 'payment');
  return first !== undefined && now - Date.parse(first.createdAt) < REFUND_WINDOW_DAYS * 86_400_000;
}

/**
 * What the buyer can do with a subscription that has not ended: change its plan or billing
 * period, move it to another server, cancel it, or drop a change waiting for the period's end.
 * Each asks first and says what will happen; failures say so in SPEC §8's words.
 */
export function SubscriptionActions({ subscription, prices, receipts }: { subscription: Subscription; prices: PriceTable | undefined; receipts: Receipt[] | undefined }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const user = useAuthStore((state) => state.user);
  const [dialog, setDialog] = useState<Dialog>(null);
  const target = subscription.scheduledChange ?? { planType: subscription.planType, planInterval: subscription.planInterval };
  const [plan, setPlan] = useState<PaidPlanType>(subscription.planType === 'premium' ? 'enterprise' : 'premium');
  const [interval, setNewInterval] = useState<BillingInterval>(subscription.planInterval);
  const [serverId, setServerId] = useState<string | null>(null);
  const changePlan = useChangePlan(subscription);
  const transfer = useTransferSubscription(subscription);
  const cancel = useCancelSubscription(subscription);
  const cancelScheduled = useCancelScheduledChange(subscription);
  const periodEnd = subscription.nextBilling ? format.date(subscription.nextBilling) : '';
  const money = (cents: number) => format.currency(cents, prices?.currency ?? 'USD');
  const renews = subscription.state !== 'canceled' && !subscription.cancelAtPeriodEnd;
  const targets = (user?.servers ?? []).filter((server) => isStaffRole(server.role) && server.serverId !== subscription.serverId);

  const close = () => setDialog(null);
  const open = (next: Dialog) => {
    setPlan(subscription.planType === 'premium' ? 'enterprise' : 'premium');
    setNewInterval(target.planInterval === 'monthly' ? 'annually' : 'monthly');
    setServerId(null);
    setDialog(next);
  };

  // Each action awaits its call rather than passing callbacks to `mutate`: the card it started from
  // may be gone once the lists are refreshed (a transfer moves it), and the outcome must still be said.
  const submitChange = async (body: { plan: PaidPlanType; interval: BillingInterval }, failure: string) => {
    try {
      const answer = await changePlan.mutateAsync({ ...body, subscriptionId: subscription.id });
      close();
      if (answer.status === 'confirmation_required' && answer.confirmationSession) {
        leaveForProvider(answer.confirmationSession.url);
      } else if (answer.status === 'scheduled') {
        notifySuccess(t('premium.actions.changeScheduled', { date: periodEnd }));
      } else {
        notifySuccess(t('premium.actions.planChanged'));
      }
    } catch {
      notifyError(failure);
    }
  };

  const cancelSubscription = async () => {
    const refund = refundsOnCancel(subscription, receipts);
    const text =
      refund === true
        ? t('premium.actions.cancelRefund', { days: REFUND_WINDOW_DAYS })
        : refund === false
          ? t('premium.actions.cancelAtEnd', { date: periodEnd })
          : t('premium.actions.cancelEither', { days: REFUND_WINDOW_DAYS, date: periodEnd });
    if (!(await confirm({ title: t('premium.actions.cancelTitle'), text }))) return;
    try {
      const answer = await cancel.mutateAsync();
      notifySuccess(answer.state === 'canceled' ? t('premium.actions.refunded') : t('premium.actions.cancelled', { date: periodEnd }));
    } catch {
      await errorPopup({ title: t('premium.errors.cancel'), text: t('premium.errors.cancelText') });
    }
  };

  const dropScheduled = async () => {
    if (!(await confirm({ title: t('premium.actions.cancelScheduledTitle'), text: t('premium.actions.cancelScheduledText') }))) return;
    // PayPal takes the buyer's approval to go back to the current plan: the change to it asks for one.
    if (subscription.provider === 'paypal') {
      await submitChange({ plan: subscription.planType, interval: subscription.planInterval }, t('premium.errors.scheduled'));
      return;
    }
    try {
      await cancelScheduled.mutateAsync();
      notifySuccess(t('premium.actions.scheduledCancelled'));
    } catch {
      notifyError(t('premium.errors.scheduled'));
    }
  };

  const moveTo = async (target: string) => {
    try {
      const answer = await transfer.mutateAsync(target);
      close();
      notifySuccess(t('premium.actions.transferred', { server: answer.server?.name ?? target }));
    } catch {
      notifyError(t('premium.errors.transfer'));
    }
  };

  if (!renews) return null;
  const upgrade = plan === 'enterprise';
  return (
    <>
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={() => open('plan')}>
          {t('premium.actions.changePlan')}
        </Button>
        <Button size="xs" variant="default" onClick={() => open('billing')}>
          {t('premium.actions.changeBilling')}
        </Button>
        <Button size="xs" variant="default" onClick={() => open('transfer')} disabled={targets.length === 0}>
          {t('premium.actions.transfer')}
        </Button>
        {subscription.scheduledChange && (
          <Button size="xs" variant="default" onClick={() => void dropScheduled()} loading={cancelScheduled.isPending}>
            {t('premium.actions.cancelScheduled')}
          </Button>
        )}
        <Button size="xs" variant="light" color="red" onClick={() => void cancelSubscription()} loading={cancel.isPending}>
          {t('premium.actions.cancel')}
        </Button>
      </Group>

      <ActionModal
        opened={dialog === 'plan'}
        title={t('premium.actions.changePlanTitle')}
        onClose={close}
        busy={changePlan.isPending}
        canConfirm={plan !== subscription.planType || subscription.scheduledChange !== null}
        onConfirm={() => void submitChange({ plan, interval: subscription.planInterval }, t('premium.errors.plan'))}
      >
        <OptionCards
          label={t('premium.buy.planLabel')}
          value={plan}
          onChange={setPlan}
          options={PAID_PLANS.map((value) => {
            const price = priceOf(prices, value, subscription.planInterval);
            return {
              value,
              label: t(`staff.plans.${value}`),
              description: price ? t(`premium.billed.${subscription.planInterval}`, { amount: money(price.amountCents) }) : undefined,
              disabled: value === subscription.planType && subscription.scheduledChange === null,
            };
          })}
        />
        <Text size="sm">{upgrade ? t('premium.actions.upgradeText') : t('premium.actions.downgradeText', { date: periodEnd })}</Text>
      </ActionModal>

      <ActionModal
        opened={dialog === 'billing'}
        title={t('premium.actions.changeBillingTitle')}
        onClose={close}
        busy={changePlan.isPending}
        canConfirm={interval !== target.planInterval}
        onConfirm={() => void submitChange({ plan: target.planType, interval }, t('premium.errors.billing'))}
      >
        <OptionCards
          label={t('premium.period')}
          value={interval}
          onChange={setNewInterval}
          cols={2}
          options={BILLING_INTERVALS.map((value) => {
            const price = priceOf(prices, target.planType, value);
            return {
              value,
              label: t(`premium.intervals.${value}`),
              description: price ? t(`premium.billed.${value}`, { amount: money(price.amountCents) }) : undefined,
              disabled: value === target.planInterval,
            };
          })}
        />
        <Text size="sm">{t('premium.actions.changeBillingText', { date: periodEnd })}</Text>
      </ActionModal>

      <ActionModal
        opened={dialog === 'transfer'}
        title={t('premium.actions.transferTitle')}
        onClose={close}
        busy={transfer.isPending}
        canConfirm={serverId !== null}
        onConfirm={() => serverId && void moveTo(serverId)}
      >
        <Select
          label={t('premium.actions.transferTarget')}
          data={targets.map((server) => ({ value: server.serverId, label: server.name }))}
          value={serverId}
          onChange={setServerId}
          searchable={targets.length > 8}
          comboboxProps={{ withinPortal: false }}
        />
        <Text size="sm">
          {subscription.server
            ? t('premium.actions.transferText', { server: subscription.server.name })
            : t('premium.actions.transferTextNoServer')}
        </Text>
      </ActionModal>
    </>
  );
}
