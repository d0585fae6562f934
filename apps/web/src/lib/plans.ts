import type { PlanType } from '@ticket/contracts';

// Plain data from the contracts, without zod (see plugins/plans.ts).
export { CARBON_REMOVAL_SHARE, PLAN_FEATURES, PLANS, PRICE_CURRENCY, REFUND_WINDOW_DAYS } from 'virtual:plans';

/** The plans from the least to the most (premium levels 0, 1, 2). */
export const PLAN_TYPES: readonly PlanType[] = ['free', 'premium', 'enterprise'];
