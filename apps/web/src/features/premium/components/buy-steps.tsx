import { Alert, Button, Group, Paper, Select, Stack, Stepper, Text, Title } from '@mantine/core';
import type { BillingInterval, PaidPlanType, PaymentProvider, PlanType, PriceTable } from '@ticket/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import { isStaffRole, useAuthStore } from '@/lib/auth-store';
import { notifyError } from '@/lib/notify';
import { useCreateCheckoutSession } from '../api/create-checkout-session';
import { leaveForProvider } from '../leave-for-provider';
import { BILLING_INTERVALS, PAID_PLANS, priceOf } from '../prices';
import { type OptionCard, OptionCards } from './option-cards';

interface Choice {
  serverId: string;
  plan: PaidPlanType;
  interval: BillingInterval;
  provider: PaymentProvider | null;
}

/**
 * Buying a plan, in the steps of SPEC §2: the server, the plan, the billing period, the payment
 * method. The last step sends the browser to the provider's page; it comes back to a result page.
 */
export function BuySteps({
  serverId,
  prices,
  currentPlan,
  initialInterval,
}: {
  serverId: string;
  prices: PriceTable;
  currentPlan: PlanType | undefined;
  initialInterval: BillingInterval;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const user = useAuthStore((state) => state.user);
  // Only staff may buy for a server (SPEC §6).
  const servers = (user?.servers ?? []).filter((server) => isStaffRole(server.role));
  const [step, setStep] = useState(0);
  const [choice, setChoice] = useState<Choice>({
    serverId,
    plan: currentPlan === 'premium' ? 'enterprise' : 'premium',
    interval: initialInterval,
    provider: prices.providers.length === 1 ? (prices.providers[0] as PaymentProvider) : null,
  });
  const checkout = useCreateCheckoutSession();
  const money = (cents: number) => format.currency(cents, prices.currency);
  const server = servers.find((entry) => entry.serverId === choice.serverId);
  const chosen = priceOf(prices, choice.plan, choice.interval);

  const pay = () => {
    if (!choice.provider) return;
    checkout.mutate(
      { serverId: choice.serverId, provider: choice.provider, type: choice.plan, interval: choice.interval },
      {
        onSuccess: (answer) => leaveForProvider(answer.session.url),
        onError: () => notifyError(t('premium.errors.request')),
      },
    );
  };

  const planOptions: OptionCard<PaidPlanType>[] = PAID_PLANS.map((plan) => {
    const price = priceOf(prices, plan, choice.interval);
    return {
      value: plan,
      label: t(`staff.plans.${plan}`),
      description: price ? t('premium.pricePerMonth', { price: money(price.monthlyCents) }) : undefined,
    };
  });
  const periodOptions: OptionCard<BillingInterval>[] = BILLING_INTERVALS.map((interval) => {
    const price = priceOf(prices, choice.plan, interval);
    return {
      value: interval,
      label: t(`premium.intervals.${interval}`),
      description: price && (
        <>
          {t(`premium.billed.${interval}`, { amount: money(price.amountCents) })}
          {price.savingPercent > 0 && (
            <Text span size="sm" c="teal" fw={600} display="block">
              {t('premium.save', { percent: format.percent(price.savingPercent / 100) })}
            </Text>
          )}
        </>
      ),
    };
  });
  const methodOptions: OptionCard<PaymentProvider>[] = prices.providers.map((provider) => ({
    value: provider,
    label: t(`premium.methods.${provider}`),
    description: t(`premium.methodHints.${provider}`),
  }));

  const last = 3;
  const canContinue = [Boolean(server), true, Boolean(chosen), Boolean(choice.provider)][step] ?? false;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="buy-title">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h3" id="buy-title">
            {t('premium.buy.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('premium.buy.description')}
          </Text>
        </Stack>
        <Stepper active={step} onStepClick={setStep} allowNextStepsSelect={false} size="sm">
          <Stepper.Step label={t('premium.buy.stepServer')}>
            <Select
              label={t('premium.buy.serverLabel')}
              description={t('premium.buy.serverHint')}
              data={servers.map((entry) => ({ value: entry.serverId, label: entry.name }))}
              value={choice.serverId}
              onChange={(value) => value && setChoice({ ...choice, serverId: value })}
              allowDeselect={false}
              searchable={servers.length > 8}
              maw={420}
            />
          </Stepper.Step>
          <Stepper.Step label={t('premium.buy.stepPlan')}>
            <OptionCards label={t('premium.buy.planLabel')} value={choice.plan} onChange={(plan) => setChoice({ ...choice, plan })} options={planOptions} />
          </Stepper.Step>
          <Stepper.Step label={t('premium.buy.stepPeriod')}>
            <OptionCards
              label={t('premium.period')}
              value={choice.interval}
              onChange={(interval) => setChoice({ ...choice, interval })}
              options={periodOptions}
              cols={4}
            />
          </Stepper.Step>
          <Stepper.Step label={t('premium.buy.stepMethod')}>
            <Stack gap="md">
              {methodOptions.length === 0 ? (
                <Alert color="yellow">{t('premium.buy.noMethods')}</Alert>
              ) : (
                <OptionCards
                  label={t('premium.buy.methodLabel')}
                  value={choice.provider}
                  onChange={(provider) => setChoice({ ...choice, provider })}
                  options={methodOptions}
                />
              )}
              {server && chosen && (
                <Text data-summary>
                  {t('premium.buy.summary', {
                    plan: t(`staff.plans.${choice.plan}`),
                    server: server.name,
                    price: t(`premium.billed.${choice.interval}`, { amount: money(chosen.amountCents) }),
                  })}
                </Text>
              )}
            </Stack>
          </Stepper.Step>
        </Stepper>
        <Group justify="space-between">
          <Button variant="default" onClick={() => setStep(step - 1)} disabled={step === 0 || checkout.isPending}>
            {t('premium.buy.back')}
          </Button>
          {step < last ? (
            <Button onClick={() => setStep(step + 1)} disabled={!canContinue}>
              {t('premium.buy.next')}
            </Button>
          ) : (
            <Button onClick={pay} disabled={!canContinue} loading={checkout.isPending}>
              {t('premium.buy.pay')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
