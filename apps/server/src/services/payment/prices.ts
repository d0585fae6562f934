import {
  BILLING_INTERVAL_MONTHS,
  BillingInterval,
  CARBON_REMOVAL_SHARE,
  PaidPlanType,
  PRICE_CURRENCY,
  REFUND_WINDOW_DAYS,
  type PaymentProvider,
  type PriceTable,
} from '@ticket/contracts';
import type { PaymentConfig } from '../../config';

/** What one billing period of the plan costs, in cents: months × the monthly price, less the interval's saving. */
export function priceCents(config: PaymentConfig, plan: PaidPlanType, interval: BillingInterval): number {
  const months = BILLING_INTERVAL_MONTHS[interval];
  return Math.round(config.monthlyCents[plan] * months * (1 - config.discountPercent[interval] / 100));
}

/** The share of a payment that goes to carbon removal (SPEC §9), in whole cents. */
export const carbonRemovalCents = (amountCents: number): number => Math.round(amountCents * CARBON_REMOVAL_SHARE);

/** The provider's billing period for an interval. */
export function recurringOf(interval: BillingInterval): { interval: 'month' | 'year'; interval_count: number } {
  return interval === 'annually' ? { interval: 'year', interval_count: 1 } : { interval: 'month', interval_count: BILLING_INTERVAL_MONTHS[interval] };
}

/** Whether a first payment made then may still be refunded in full (SPEC §9: 7 days). */
export const withinRefundWindow = (firstPaidAt: string | null, at = Date.now()): boolean =>
  firstPaidAt !== null && at - Date.parse(firstPaidAt) < REFUND_WINDOW_DAYS * 86_400_000;

/** Every paid plan for every billing period at the configured prices, and the providers that take payments. */
export function priceTable(config: PaymentConfig, providers: PaymentProvider[]): PriceTable {
  return {
    currency: PRICE_CURRENCY,
    prices: PaidPlanType.options.flatMap((planType) =>
      BillingInterval.options.map((interval) => {
        const months = BILLING_INTERVAL_MONTHS[interval];
        const amountCents = priceCents(config, planType, interval);
        return { planType, interval, months, amountCents, monthlyCents: Math.round(amountCents / months), savingPercent: config.discountPercent[interval] };
      }),
    ),
    providers,
  };
}
