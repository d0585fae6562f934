import type { paymentCalls, Subscription } from '../payment';
import { EX } from './fixtures';
import type { ExamplesOf } from './types';

const subscription: Subscription = {
  id: EX.subscriptionId,
  userId: EX.ownerId,
  state: 'active',
  provider: 'stripe',
  planInterval: 'monthly',
  planType: 'premium',
  nextBilling: '2025-04-14T09:26:53.000Z',
  cancelAtPeriodEnd: false,
  applied: true,
  serverId: EX.serverId,
  server: { serverId: EX.serverId, name: EX.serverName, iconUrl: EX.iconUrl },
  scheduledChange: null,
};
const { applied: _applied, server: _server, scheduledChange: _scheduled, ...summary } = subscription;
const checkout = { id: 'cs_test_a1B2c3D4e5F6g7H8i9J0', url: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4e5F6g7H8i9J0' };

export const paymentExamples: ExamplesOf<typeof paymentCalls> = {
  getPrices: {
    response: {
      currency: 'USD',
      prices: [
        { planType: 'premium', interval: 'monthly', months: 1, amountCents: 225, monthlyCents: 225, savingPercent: 0 },
        { planType: 'premium', interval: 'quarterly', months: 3, amountCents: 641, monthlyCents: 214, savingPercent: 5 },
        { planType: 'premium', interval: 'biannually', months: 6, amountCents: 1215, monthlyCents: 203, savingPercent: 10 },
        { planType: 'premium', interval: 'annually', months: 12, amountCents: 2160, monthlyCents: 180, savingPercent: 20 },
        { planType: 'enterprise', interval: 'monthly', months: 1, amountCents: 600, monthlyCents: 600, savingPercent: 0 },
        { planType: 'enterprise', interval: 'quarterly', months: 3, amountCents: 1710, monthlyCents: 570, savingPercent: 5 },
        { planType: 'enterprise', interval: 'biannually', months: 6, amountCents: 3240, monthlyCents: 540, savingPercent: 10 },
        { planType: 'enterprise', interval: 'annually', months: 12, amountCents: 5760, monthlyCents: 480, savingPercent: 20 },
      ],
      providers: ['stripe', 'paypal'],
    },
  },
  getSubscriptionsBulk: { body: { ids: [EX.serverId, EX.otherServerId] }, response: [summary] },
  getMySubscriptions: { response: [subscription] },
  getMyReceipts: {
    response: [
      {
        number: 1187,
        createdAt: '2025-03-14T09:27:40.000Z',
        kind: 'payment',
        subscriptionId: EX.subscriptionId,
        userId: EX.ownerId,
        server: { serverId: EX.serverId, name: EX.serverName, iconUrl: EX.iconUrl },
        planType: 'premium',
        planInterval: 'monthly',
        periodStart: '2025-03-14T09:26:53.000Z',
        periodEnd: '2025-04-14T09:26:53.000Z',
        amountCents: 225,
        currency: 'USD',
        provider: 'stripe',
        carbonRemovalCents: 5,
      },
    ],
  },
  getReceiptPdf: { params: { number: '1187' } },
  changePlan: {
    body: { interval: 'monthly', plan: 'enterprise', subscriptionId: EX.subscriptionId },
    response: { status: 'applied', requiresConfirmation: false, confirmationSession: null },
  },
  cancelScheduledChange: { body: { subscriptionId: EX.subscriptionId }, response: subscription },
  cancelSubscription: {
    body: { subscriptionId: EX.subscriptionId },
    response: { ...subscription, cancelAtPeriodEnd: true },
  },
  transferSubscription: {
    body: { subscriptionId: EX.subscriptionId, serverId: EX.otherServerId },
    response: {
      ...subscription,
      serverId: EX.otherServerId,
      lastTransferred: EX.updatedAt,
      server: { serverId: EX.otherServerId, name: 'Night Owls', iconUrl: null },
    },
  },
  getServerSubscription: { params: { serverId: EX.serverId }, query: { multiple: false }, response: [subscription] },
  createCheckoutSession: {
    params: { serverId: EX.serverId },
    body: { provider: 'stripe', type: 'premium', interval: 'monthly' },
    response: { status: 'open', session: checkout },
  },
  completeCheckout: {
    params: { serverId: EX.serverId },
    query: { provider: 'stripe', token: checkout.id },
    response: { status: 'complete' },
  },
  completePlanUpdate: {
    params: { serverId: EX.serverId },
    query: { provider: 'stripe', token: 'in_1QbYr3Ld4zPqR8sTa9Bc' },
    response: { status: 'complete' },
  },
  revokeSubscription: { params: { serverId: EX.serverId }, response: { status: 'complete', message: 'The subscription no longer applies to this server; its buyer can move it to another server' } },
  handlePaypalWebhook: {
    body: {
      id: 'WH-7Y7254563A4550640-11V2185806837105M',
      event_type: 'BILLING.SUBSCRIPTION.ACTIVATED',
      resource: { id: 'I-BW452GLLEP1G', status: 'ACTIVE', custom_id: EX.serverId },
    },
  },
  handleStripeWebhook: {
    body: {
      id: 'evt_1QbXq4Ld4zPqR8sTkLmN',
      type: 'checkout.session.completed',
      data: { object: { id: checkout.id, subscription: EX.subscriptionId, client_reference_id: EX.serverId } },
    },
  },
};
