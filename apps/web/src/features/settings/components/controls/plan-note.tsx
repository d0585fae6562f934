import { Anchor, Badge, Text } from '@mantine/core';
import type { PlanFeature, PlanType } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PLANS } from 'virtual:plans';
import { paths } from '@/lib/routes';
import { useSubjectEditor } from '../subject-editor-context';

/** The cheapest plan with a feature (SPEC §6). */
export function planWith(feature: PlanFeature): PlanType {
  return (Object.values(PLANS).find((plan) => plan.features[feature])?.type ?? 'enterprise') as PlanType;
}

/** Whether the server's plan has a feature, and the plan that has it. */
export function usePlanGate(feature: PlanFeature) {
  const { hasFeature, planKnown } = useSubjectEditor();
  return { available: hasFeature(feature), planKnown, needs: planWith(feature) };
}

/** The plan badge beside a gated card or control. */
export function PlanBadge({ feature }: { feature: PlanFeature }) {
  const { t } = useTranslation();
  const needs = planWith(feature);
  return (
    <Badge variant="light" color="grape" tt="none">
      {t(`staff.plans.${needs}`)}
    </Badge>
  );
}

/** Says, under a gated control on a lower plan, which plan it needs, with the way to it. */
export function PlanNote({ feature }: { feature: PlanFeature }) {
  const { t } = useTranslation();
  const { serverId } = useSubjectEditor();
  const { available, needs } = usePlanGate(feature);
  if (available) return null;
  return (
    <Text size="xs" c="dimmed">
      {t('settings.plan.needs', { plan: t(`staff.plans.${needs}`) })}{' '}
      <Anchor component={Link} to={paths.premium(serverId)} size="xs" underline="always">
        {t('settings.plan.upgrade')}
      </Anchor>
    </Text>
  );
}
