import { z } from 'zod';
import { Binary, BooleanQuery, defineCall, IsoDateTime, opaqueId, type PlanType, ServerIdParams, Snowflake } from './common';

export const SubscriptionId = opaqueId('Subscription');
export type SubscriptionId = z.infer<typeof SubscriptionId>;

export const SubscriptionState = z.enum(['active', 'canceled', 'paused']);
export type SubscriptionState = z.infer<typeof SubscriptionState>;

export const PaymentProvider = z.enum(['stripe', 'paypal']);
export type PaymentProvider = z.infer<typeof PaymentProvider>;

export const BillingInterval = z.enum(['monthly', 'quarterly', 'biannually', 'annually']);
export type BillingInterval = z.infer<typeof BillingInterval>;

/** The plans one can pay for. */
export const PaidPlanType = z.enum(['premium', 'enterprise']);
export type PaidPlanType = z.infer<typeof PaidPlanType>;

// ---------------------------------------------------------------------------------------------
// Plans and prices (SPEC §6, §9)
// ---------------------------------------------------------------------------------------------

export const BILLING_INTERVAL_MONTHS = {
  monthly: 1,
  quarterly: 3,
  biannually: 6,
  annually: 12,
} as const satisfies Record<BillingInterval, number>;

export const PLAN_FEATURES = [
  'history',
  'webPanel',
  'unlimitedPanels',
  'customMessages',
  'templates',
  'autoMention',
  'forms',
  'autoClose',
  'removeBranding',
  'whitelabel',
  'apiAccess',
  'webhooks',
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export interface PlanInfo {
  type: PlanType;
  /** Premium level: 0 free, 1 premium, 2 enterprise. */
  level: 0 | 1 | 2;
  /** List price per month in US cents; longer intervals cost months × this, less the provider's discount. */
  monthlyPriceCents: number;
  maxSubjects: number;
  /** Attachment storage in bytes (GiB = 1024³). */
  storageBytes: number;
  features: Record<PlanFeature, boolean>;
}

const GIB = 1024 ** 3;
const features = (on: readonly PlanFeature[]): Record<PlanFeature, boolean> =>
  Object.fromEntries(PLAN_FEATURES.map((f) => [f, on.includes(f)])) as Record<PlanFeature, boolean>;
const FREE_FEATURES = ['history', 'webPanel', 'unlimitedPanels', 'customMessages'] as const;
const PREMIUM_FEATURES = [
  ...FREE_FEATURES,
  'templates',
  'autoMention',
  'forms',
  'autoClose',
  'removeBranding',
] as const;
const ENTERPRISE_FEATURES = [...PREMIUM_FEATURES, 'whitelabel', 'apiAccess', 'webhooks'] as const;

/** Everything the server enforces and the web shows about each plan. */
export const PLANS = {
  free: {
    type: 'free',
    level: 0,
    monthlyPriceCents: 0,
    maxSubjects: 3,
    storageBytes: 0,
    features: features(FREE_FEATURES),
  },
  premium: {
    type: 'premium',
    level: 1,
    monthlyPriceCents: 225,
    maxSubjects: 25,
    storageBytes: 5 * GIB,
    features: features(PREMIUM_FEATURES),
  },
  enterprise: {
    type: 'enterprise',
    level: 2,
    monthlyPriceCents: 600,
    maxSubjects: 100,
    storageBytes: 20 * GIB,
    features: features(ENTERPRISE_FEATURES),
  },
} as const satisfies Record<PlanType, PlanInfo>;

/** The plans that give a feature, cheapest first. */
export const plansWith = (feature: PlanFeature): PlanType[] => Object.values(PLANS).filter((plan) => plan.features[feature]).map((plan) => plan.type);

export const PRICE_CURRENCY = 'USD';
/** Days after purchase in which a full refund is offered. */
export const REFUND_WINDOW_DAYS = 7;
/** Share of each payment that goes to carbon removal. */
export const CARBON_REMOVAL_SHARE = 0.02;

// ---------------------------------------------------------------------------------------------
// Subscriptions
// ---------------------------------------------------------------------------------------------

export const ScheduledChange = z.object({
  planType: PaidPlanType,
  planInterval: BillingInterval,
  effectiveDate: IsoDateTime.describe('End of the current billing period'),
});
export type ScheduledChange = z.infer<typeof ScheduledChange>;

export const SubscriptionServer = z.object({
  serverId: Snowflake,
  name: z.string(),
  iconUrl: z.string().nullable().optional(),
});
export type SubscriptionServer = z.infer<typeof SubscriptionServer>;

export const Subscription = z.object({
  id: SubscriptionId,
  userId: Snowflake.describe('Who pays'),
  state: SubscriptionState,
  provider: PaymentProvider,
  planInterval: BillingInterval,
  planType: PaidPlanType,
  nextBilling: IsoDateTime.nullable().describe('Next charge, or the end of the subscription when cancelAtPeriodEnd'),
  cancelAtPeriodEnd: z
    .boolean()
    .describe('Cancelled: stays active until nextBilling, then ends (irreversible); false: renews'),
  applied: z.boolean().describe('Currently gives its server the plan'),
  serverId: Snowflake.optional().describe('Server the plan applies to'),
  lastTransferred: IsoDateTime.optional().describe('When it last moved to another server'),
  server: SubscriptionServer.nullable().describe('The server, when there is one'),
  scheduledChange: ScheduledChange.nullable().describe('Plan change waiting for the end of the period'),
});
export type Subscription = z.infer<typeof Subscription>;

/** What bulk and active-subscription lookups answer. */
export const SubscriptionSummary = Subscription.omit({ applied: true, server: true, scheduledChange: true });
export type SubscriptionSummary = z.infer<typeof SubscriptionSummary>;

export const CreateSessionRequest = z.object({
  provider: PaymentProvider,
  type: PaidPlanType,
  interval: BillingInterval,
});
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export const CheckoutSession = z.object({
  id: z.string().min(1).max(255).describe('The provider’s session (Stripe) or order/subscription (PayPal) id'),
  url: z.url().describe('Where to send the browser to pay or approve'),
});
export type CheckoutSession = z.infer<typeof CheckoutSession>;

/** The status values of the card provider's checkout sessions. */
export const SessionStatus = z.enum(['open', 'complete', 'expired']);
export type SessionStatus = z.infer<typeof SessionStatus>;

export const SessionResponse = z.object({ status: SessionStatus, session: CheckoutSession });
export type SessionResponse = z.infer<typeof SessionResponse>;

export const ChangePlanRequest = z.object({
  interval: BillingInterval,
  plan: PaidPlanType,
  subscriptionId: SubscriptionId,
});
export type ChangePlanRequest = z.infer<typeof ChangePlanRequest>;

export const ChangePlanStatus = z.enum(['applied', 'scheduled', 'confirmation_required']);
export type ChangePlanStatus = z.infer<typeof ChangePlanStatus>;

export const ChangePlanResponse = z.object({
  status: ChangePlanStatus.describe(
    'applied: now, prorated; scheduled: at the end of the period; confirmation_required: see confirmationSession',
  ),
  requiresConfirmation: z.boolean(),
  confirmationSession: CheckoutSession.nullable().describe('Where the payer confirms the change'),
});
export type ChangePlanResponse = z.infer<typeof ChangePlanResponse>;

export const CompleteSessionRequest = z.object({
  token: z.string().min(1).max(255).describe('The session or approval token the provider returned to the browser'),
});
export type CompleteSessionRequest = z.infer<typeof CompleteSessionRequest>;

export const CompleteSessionQuery = CompleteSessionRequest.extend({ provider: PaymentProvider });
export type CompleteSessionQuery = z.infer<typeof CompleteSessionQuery>;

/** Outcome shown on the payment result pages: processing, unable to verify, complete (SPEC §4). */
export const PaymentStatus = z.enum(['processing', 'unverified', 'complete', 'failed']);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

export const StatusResponse = z.object({ status: PaymentStatus, message: z.string().optional() });
export type StatusResponse = z.infer<typeof StatusResponse>;

export const TransferRequest = z.object({
  subscriptionId: SubscriptionId,
  serverId: Snowflake.describe('Server to move the plan to; the caller must be staff there'),
});
export type TransferRequest = z.infer<typeof TransferRequest>;

export const CancelRequest = z.object({ subscriptionId: SubscriptionId });
export type CancelRequest = z.infer<typeof CancelRequest>;

export const ServerSubscriptionQuery = z.object({
  multiple: BooleanQuery.optional().describe('Every subscription of the server rather than only the applied one. Default: false'),
  provider: PaymentProvider.optional().describe('Only subscriptions paid through this provider; any provider when absent'),
});
export type ServerSubscriptionQuery = z.infer<typeof ServerSubscriptionQuery>;

export const ReceiptKind = z.enum(['payment', 'refund']);
export type ReceiptKind = z.infer<typeof ReceiptKind>;

/** A payment or refund, as listed on the profile page (SPEC §1, §9). */
export const Receipt = z.object({
  number: z.number().int().min(1).describe('Sequential receipt number'),
  createdAt: IsoDateTime,
  kind: ReceiptKind,
  subscriptionId: SubscriptionId,
  userId: Snowflake.describe('The buyer'),
  server: SubscriptionServer.nullable().describe('The server the plan applied to when it was paid'),
  planType: PaidPlanType,
  planInterval: BillingInterval,
  periodStart: IsoDateTime.nullable(),
  periodEnd: IsoDateTime.nullable(),
  amountCents: z.number().int().min(0).describe('Amount paid (or refunded) in cents of the currency'),
  currency: z.string().length(3),
  provider: PaymentProvider,
  carbonRemovalCents: z.number().int().min(0).describe('The 2 % of the amount that goes to carbon removal, rounded to a cent'),
});
export type Receipt = z.infer<typeof Receipt>;

/** One plan for one billing period at the server's prices (SPEC §9: longer periods cost less per month). */
export const PlanPrice = z.object({
  planType: PaidPlanType,
  interval: BillingInterval,
  months: z.number().int().min(1).max(12).describe('Months one billing period covers'),
  amountCents: z.number().int().min(0).describe('What one billing period costs'),
  monthlyCents: z.number().int().min(0).describe('The same, per month, rounded to a cent'),
  savingPercent: z.number().min(0).max(100).describe('How much less per month than paying monthly'),
});
export type PlanPrice = z.infer<typeof PlanPrice>;

/** The price table buyers are charged from; prices never come from a request. */
export const PriceTable = z.object({
  currency: z.string().length(3),
  prices: z.array(PlanPrice).describe('Every paid plan for every billing period'),
  providers: z.array(PaymentProvider).describe('Payment methods this installation accepts'),
});
export type PriceTable = z.infer<typeof PriceTable>;

/** A provider's webhook event as it arrives; its signature header is verified against the raw body. */
export const WebhookEvent = z.record(z.string(), z.unknown()).describe('The provider’s raw JSON event');
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const paymentCalls = {
  getPrices: defineCall({
    method: 'GET',
    path: '/prices',
    summary: 'The price of each paid plan for each billing period, and the payment methods accepted',
    response: PriceTable,
  }),
  getSubscriptionsBulk: defineCall({
    method: 'POST',
    path: '/bulk/subscriptions',
    summary: 'Active subscriptions of several servers',
    body: z.object({ ids: z.array(Snowflake).min(1).max(1000).describe('Server ids') }),
    response: z.array(SubscriptionSummary),
  }),
  getMySubscriptions: defineCall({
    method: 'GET',
    path: '/@me/subscriptions',
    summary: 'Subscriptions the caller pays for',
    response: z.array(Subscription),
  }),
  getMyReceipts: defineCall({
    method: 'GET',
    path: '/@me/receipts',
    summary: 'Receipts of the payments and refunds of the caller’s subscriptions, oldest first',
    response: z.array(Receipt),
  }),
  getReceiptPdf: defineCall({
    method: 'GET',
    path: '/@me/receipts/:number/pdf',
    summary: 'One of the caller’s receipts as a PDF document',
    params: z.object({ number: z.string().regex(/^[1-9]\d{0,8}$/, 'must be a receipt number').describe('The receipt number') }),
    response: Binary,
    binary: true,
  }),
  changePlan: defineCall({
    method: 'PATCH',
    path: '/@me/change-plan',
    summary: 'Change plan or billing interval; upgrades apply now, the rest at the end of the period',
    body: ChangePlanRequest,
    response: ChangePlanResponse,
  }),
  cancelScheduledChange: defineCall({
    method: 'DELETE',
    path: '/@me/scheduled-change',
    summary: 'Drop a plan change waiting for the end of the period',
    body: CancelRequest,
    response: Subscription,
  }),
  cancelSubscription: defineCall({
    method: 'DELETE',
    path: '/@me/cancel',
    summary: 'Cancel at the end of the billing period (irreversible)',
    body: CancelRequest,
    response: Subscription,
  }),
  transferSubscription: defineCall({
    method: 'POST',
    path: '/@me/transfer',
    summary: 'Move a subscription to another server',
    body: TransferRequest,
    response: Subscription,
  }),
  getServerSubscription: defineCall({
    method: 'GET',
    path: '/servers/:serverId/subscription',
    summary: 'The applied subscription of a server (at most one element), or all of them with multiple',
    params: ServerIdParams,
    query: ServerSubscriptionQuery,
    response: z.array(Subscription),
  }),
  createCheckoutSession: defineCall({
    method: 'POST',
    path: '/servers/:serverId/subscription',
    summary: 'Start a checkout for the server with the provider',
    params: ServerIdParams,
    query: z.object({ provider: PaymentProvider.optional().describe('Must equal the body’s provider when given') }),
    body: CreateSessionRequest,
    response: SessionResponse,
    status: 201,
  }),
  completeCheckout: defineCall({
    method: 'POST',
    path: '/servers/:serverId/subscription/complete',
    summary: 'Verify a finished checkout with the provider and apply the subscription',
    params: ServerIdParams,
    query: CompleteSessionQuery,
    response: StatusResponse,
  }),
  completePlanUpdate: defineCall({
    method: 'POST',
    path: '/servers/:serverId/subscription/update-complete',
    summary:
      'Verify a plan change the buyer confirmed at the provider and apply it; token: the card provider’s invoice id (`token` of the result page), or the PayPal subscription id (its `subscription_id`)',
    params: ServerIdParams,
    query: CompleteSessionQuery,
    response: StatusResponse,
  }),
  revokeSubscription: defineCall({
    method: 'DELETE',
    path: '/servers/:serverId/subscription/revoke',
    summary: 'Detach the server’s subscription: the server returns to Free, and its buyer can apply it to another server',
    params: ServerIdParams,
    response: StatusResponse,
  }),
  handlePaypalWebhook: defineCall({
    method: 'POST',
    path: '/webhook/paypal',
    summary: 'PayPal events; verified with the PAYPAL-TRANSMISSION-* headers; idempotent',
    body: WebhookEvent,
    response: null,
    status: 204,
  }),
  handleStripeWebhook: defineCall({
    method: 'POST',
    path: '/webhook/stripe/webhook',
    summary: 'Card provider events; verified with the Stripe-Signature header; idempotent',
    body: WebhookEvent,
    response: null,
    status: 204,
  }),
};
