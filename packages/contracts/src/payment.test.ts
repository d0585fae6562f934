import { describe, expect, it } from 'vitest';
import { PlanType } from './common';
import {
  BILLING_INTERVAL_MONTHS,
  BillingInterval,
  CompleteSessionQuery,
  PLAN_FEATURES,
  PLANS,
  ServerSubscriptionQuery,
  Subscription,
  SubscriptionSummary,
} from './payment';

const GIB = 1024 ** 3;

describe('PLANS', () => {
  it('has the prices, levels and limits of SPEC §6 and §9', () => {
    expect(Object.keys(PLANS)).toEqual(PlanType.options);
    expect([PLANS.free.monthlyPriceCents, PLANS.premium.monthlyPriceCents, PLANS.enterprise.monthlyPriceCents]).toEqual(
      [0, 225, 600],
    );
    expect([PLANS.free.level, PLANS.premium.level, PLANS.enterprise.level]).toEqual([0, 1, 2]);
    expect([PLANS.free.maxSubjects, PLANS.premium.maxSubjects, PLANS.enterprise.maxSubjects]).toEqual([3, 25, 100]);
    expect([PLANS.free.storageBytes, PLANS.premium.storageBytes, PLANS.enterprise.storageBytes]).toEqual([
      0,
      5 * GIB,
      20 * GIB,
    ]);
  });

  it('gates features by plan, each plan including the one below', () => {
    expect(PLANS.free.features.customMessages).toBe(true);
    expect(PLANS.free.features.forms).toBe(false);
    expect(PLANS.premium.features.autoClose).toBe(true);
    expect(PLANS.premium.features.whitelabel).toBe(false);
    expect(PLANS.enterprise.features.apiAccess).toBe(true);
    for (const f of PLAN_FEATURES) {
      if (PLANS.free.features[f]) expect(PLANS.premium.features[f], f).toBe(true);
      if (PLANS.premium.features[f]) expect(PLANS.enterprise.features[f], f).toBe(true);
    }
  });

  it('knows every billing interval in months', () => {
    expect(BillingInterval.options.map((i) => BILLING_INTERVAL_MONTHS[i])).toEqual([1, 3, 6, 12]);
  });
});

describe('subscription shapes', () => {
  const sub = {
    id: 'sub_1',
    userId: '123456789012345678',
    state: 'active',
    provider: 'stripe',
    planInterval: 'monthly',
    planType: 'premium',
    nextBilling: '2025-02-01T00:00:00.000Z',
    cancelAtPeriodEnd: false,
    applied: true,
    serverId: '223456789012345678',
    server: { serverId: '223456789012345678', name: 'Guild' },
    scheduledChange: null,
  };

  it('parses a subscription and drops the applied, server and scheduledChange fields in the summary', () => {
    expect(Subscription.safeParse(sub).success).toBe(true);
    expect(Object.keys(SubscriptionSummary.parse(sub))).not.toContain('server');
    expect(Subscription.safeParse({ ...sub, planType: 'free' }).success).toBe(false);
  });

  it('coerces the query flags', () => {
    expect(ServerSubscriptionQuery.parse({ multiple: 'true', provider: 'paypal' })).toEqual({
      multiple: true,
      provider: 'paypal',
    });
    expect(ServerSubscriptionQuery.safeParse({ provider: 'visa' }).success).toBe(false);
    expect(CompleteSessionQuery.safeParse({ provider: 'stripe' }).success).toBe(false);
  });
});
