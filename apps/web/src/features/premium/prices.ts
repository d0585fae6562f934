import type { BillingInterval, PaidPlanType, PlanPrice, PriceTable } from '@ticket/contracts';

export const BILLING_INTERVALS: readonly BillingInterval[] = ['monthly', 'quarterly', 'biannually', 'annually'];
export const PAID_PLANS: readonly PaidPlanType[] = ['premium', 'enterprise'];

/** The table's price of a plan for a period; undefined until the table is loaded. */
export const priceOf = (table: PriceTable | undefined, plan: PaidPlanType, interval: BillingInterval): PlanPrice | undefined =>
  table?.prices.find((price) => price.planType === plan && price.interval === interval);

/** The saving of a period, the same for every plan (the table's largest, should plans ever differ). */
export const savingOf = (table: PriceTable | undefined, interval: BillingInterval): number =>
  Math.max(0, ...(table?.prices.filter((price) => price.interval === interval).map((price) => price.savingPercent) ?? []));
