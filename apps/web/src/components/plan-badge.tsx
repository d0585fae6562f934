import { Badge } from '@mantine/core';
import type { PlanType } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { premiumLevelOf } from '@/lib/server-context';

const colors: Record<PlanType, string> = { free: 'gray', premium: 'yellow', enterprise: 'violet' };

/** The server's plan and its premium level (SPEC §9: free 0, premium 1, enterprise 2). */
export function PlanBadge({ plan }: { plan: PlanType }) {
  const { t } = useTranslation();
  return (
    <Badge color={colors[plan]} variant="light" tt="none" data-plan={plan}>
      {t('staff.planWithLevel', { plan: t(`staff.plans.${plan}`), level: premiumLevelOf(plan) })}
    </Badge>
  );
}
