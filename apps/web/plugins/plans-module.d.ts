declare module 'virtual:plans' {
  // Only types cross over: the values are the contracts' own, serialised at build time (plugins/plans.ts).
  import type {
    BILLING_INTERVAL_MONTHS as BillingIntervalMonths,
    CARBON_REMOVAL_SHARE as CarbonRemovalShare,
    PLAN_FEATURES as PlanFeatures,
    PLANS as Plans,
    PRICE_CURRENCY as PriceCurrency,
    REFUND_WINDOW_DAYS as RefundWindowDays,
  } from '@ticket/contracts';

  export const PLANS: typeof Plans;
  export const PLAN_FEATURES: typeof PlanFeatures;
  export const PRICE_CURRENCY: typeof PriceCurrency;
  export const BILLING_INTERVAL_MONTHS: typeof BillingIntervalMonths;
  export const REFUND_WINDOW_DAYS: typeof RefundWindowDays;
  export const CARBON_REMOVAL_SHARE: typeof CarbonRemovalShare;
}

declare module 'virtual:plans/levels' {
  // Each plan's `level` of the contracts' PLANS, serialised at build time (plugins/plans.ts).
  import type { PlanType } from '@ticket/contracts';

  export const PLAN_LEVELS: Record<PlanType, 0 | 1 | 2>;
}
