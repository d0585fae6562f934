import { Badge, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { PlanType } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import {
  CARBON_REMOVAL_SHARE,
  PLAN_FEATURES,
  PLAN_TYPES,
  PLANS,
  PRICE_CURRENCY,
  REFUND_WINDOW_DAYS,
} from '../../plans';

/** Premium: what each plan gives, at what price, and which one the server is on (once known). */
export function PremiumSection({ plan }: { plan: PlanType | undefined }) {
  const { t, i18n } = useTranslation();
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent' });
  return (
    <Stack gap="lg">
      <PlanTable current={plan} />
      <List size="sm" spacing={4} c="dimmed">
        <List.Item>{t('staff.premium.longerIsCheaper')}</List.Item>
        <List.Item>{t('staff.premium.refund', { days: REFUND_WINDOW_DAYS })}</List.Item>
        <List.Item>{t('staff.premium.carbon', { share: percent.format(CARBON_REMOVAL_SHARE) })}</List.Item>
      </List>
    </Stack>
  );
}

/** The three plans side by side (stacked on a phone); each lists what it adds to the one before. */
export function PlanTable({ current }: { current: PlanType | undefined }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <SimpleGrid component="ul" cols={{ base: 1, sm: 3 }} p={0} m={0} style={{ listStyle: 'none' }}>
      {PLAN_TYPES.map((type, index) => {
        const info = PLANS[type];
        const previous = index > 0 ? PLANS[PLAN_TYPES[index - 1] as PlanType] : undefined;
        const added = PLAN_FEATURES.filter((feature) => info.features[feature] && !previous?.features[feature]);
        const isCurrent = type === current;
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
                <Title order={2} size="h4">
                  {t(`staff.plans.${type}`)}
                </Title>
                {isCurrent && (
                  <Badge variant="filled" tt="none">
                    {t('staff.premium.currentPlan')}
                  </Badge>
                )}
              </Group>
              <Text fz="xl" fw={700} data-price>
                {t('staff.premium.pricePerMonth', { price: format.currency(info.monthlyPriceCents, PRICE_CURRENCY) })}
              </Text>
              <List size="sm" spacing={4}>
                <List.Item>{t('staff.premium.subjects', { count: info.maxSubjects })}</List.Item>
                {info.storageBytes > 0 && (
                  <List.Item>{t('staff.premium.storage', { size: format.bytes(info.storageBytes) })}</List.Item>
                )}
                {previous && (
                  <List.Item>{t('staff.premium.everythingIn', { plan: t(`staff.plans.${PLAN_TYPES[index - 1] as PlanType}`) })}</List.Item>
                )}
                {added.map((feature) => (
                  <List.Item key={feature}>{t(`staff.premium.features.${feature}`)}</List.Item>
                ))}
              </List>
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
