import { Badge, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { BillingInterval, PlanType, PriceTable } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import { PLAN_FEATURES, PLAN_TYPES, PLANS, PRICE_CURRENCY } from '@/lib/plans';
import { priceOf } from '../prices';

/**
 * The three plans side by side (stacked on a phone); each lists what it adds to the one before.
 * Prices are per month for the chosen period, from the installation's price table once loaded.
 */
export function PlanTable({ current, prices, interval }: { current: PlanType | undefined; prices?: PriceTable; interval: BillingInterval }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <SimpleGrid component="ul" cols={{ base: 1, sm: 3 }} p={0} m={0} style={{ listStyle: 'none' }}>
      {PLAN_TYPES.map((type, index) => {
        const info = PLANS[type];
        const previous = index > 0 ? PLANS[PLAN_TYPES[index - 1] as PlanType] : undefined;
        const added = PLAN_FEATURES.filter((feature) => info.features[feature] && !previous?.features[feature]);
        const isCurrent = type === current;
        const price = type === 'free' ? undefined : priceOf(prices, type, interval);
        const currency = prices?.currency ?? PRICE_CURRENCY;
        const monthly = type === 'free' ? 0 : (price?.monthlyCents ?? info.monthlyPriceCents);
        return (
          <Paper
            component="li"
            key={type}
            withBorder
            radius="md"
            p="md"
            data-plan={type}
            aria-current={isCurrent ? 'true' : undefined}
            style={isCurrent ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined}
          >
            <Stack gap="sm">
              <Group justify="space-between" gap="xs">
                <Title order={3} size="h4">
                  {t(`staff.plans.${type}`)}
                </Title>
                {isCurrent && (
                  <Badge variant="filled" tt="none">
                    {t('premium.currentPlan')}
                  </Badge>
                )}
              </Group>
              <Stack gap={0}>
                <Text fz="xl" fw={700} data-price>
                  {t('premium.pricePerMonth', { price: format.currency(monthly, currency) })}
                </Text>
                {price && interval !== 'monthly' && (
                  <Text size="sm" c="dimmed" data-billed>
                    {t(`premium.billed.${interval}`, { amount: format.currency(price.amountCents, currency) })}
                  </Text>
                )}
              </Stack>
              <List size="sm" spacing={4}>
                <List.Item>{t('premium.subjects', { count: info.maxSubjects })}</List.Item>
                {info.storageBytes > 0 && <List.Item>{t('premium.storage', { size: format.bytes(info.storageBytes) })}</List.Item>}
                {previous && (
                  <List.Item>{t('premium.everythingIn', { plan: t(`staff.plans.${PLAN_TYPES[index - 1] as PlanType}`) })}</List.Item>
                )}
                {added.map((feature) => (
                  <List.Item key={feature}>{t(`premium.features.${feature}`)}</List.Item>
                ))}
              </List>
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
