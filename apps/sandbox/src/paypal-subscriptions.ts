import type { FastifyInstance } from 'fastify';
import { activate, applyPlan, cancel, cyclesFor, suspend } from './paypal-billing.ts';
import { BodyCheck, invalidRequest, isObject, requireBody, resourceNotFound, statusInvalid, unprocessable } from './paypal-errors.ts';
import type { Json } from './paypal-errors.ts';
import type { PaypalWorld } from './paypal-events.ts';
import { emitSubscriptionEvent } from './paypal-events.ts';
import { idempotent } from './paypal-idempotency.ts';
import { approvalUrl, planCurrency, subscriptionJson, transactionJson } from './paypal-serializers.ts';
import type { Approval, Plan, Subscription } from './paypal-store.ts';
import { newId } from './paypal-store.ts';

const DOCS = 'v1/billing/subscriptions/';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

type IdRoute = { Params: { id: string }; Body: unknown };

/** Reads `application_context`; `return_url` and `cancel_url` are required inside it, as PayPal documents. */
function readApplicationContext(check: BodyCheck) {
  if (!check.object('/application_context')) return null;
  const returnUrl = check.string('/application_context/return_url', { required: true, max: 4000, pattern: /^https?:\/\// });
  const cancelUrl = check.string('/application_context/cancel_url', { required: true, max: 4000, pattern: /^https?:\/\// });
  const brandName = check.string('/application_context/brand_name', { max: 127 }) ?? null;
  const userAction = (check.string('/application_context/user_action', { oneOf: ['SUBSCRIBE_NOW', 'CONTINUE'] }) ?? 'SUBSCRIBE_NOW') as Approval['userAction'];
  check.string('/application_context/shipping_preference', { oneOf: ['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS'] });
  check.string('/application_context/locale', { max: 10 });
  return returnUrl && cancelUrl ? { returnUrl, cancelUrl, brandName, userAction } : null;
}

function activePlan(world: PaypalWorld, planId: string): Plan {
  const plan = world.store.plans.get(planId);
  if (!plan) throw resourceNotFound('/plan_id', planId, DOCS);
  if (plan.status !== 'ACTIVE') throw unprocessable('PLAN_STATUS_INVALID', 'Invalid plan status for subscription creation; plan status should be active.', DOCS);
  return plan;
}

function createSubscription(world: PaypalWorld, body: Json): Subscription {
  const { store } = world;
  const check = new BodyCheck(body);
  const planId = check.string('/plan_id', { required: true, min: 3, max: 50 });
  const startTime = check.string('/start_time', { pattern: RFC3339 });
  const quantity = check.string('/quantity', { max: 32 });
  const customId = check.string('/custom_id', { max: 127 }) ?? null;
  const subscriber = check.object('/subscriber') ?? null;
  check.string('/subscriber/email_address', { max: 254, pattern: /^.+@[^@]+$/ });
  const context = readApplicationContext(check);
  check.done(DOCS);
  const now = store.now();
  const start = startTime ? Date.parse(startTime) : now;
  if (start < now - 60_000) {
    throw invalidRequest([{ field: '/start_time', value: startTime, location: 'body', issue: 'INVALID_PARAMETER_VALUE', description: 'Start time must be a valid future date and time.' }], DOCS);
  }
  const plan = activePlan(world, planId ?? '');
  if (quantity !== undefined && quantity !== '1' && !plan.quantity_supported) {
    throw unprocessable('SUBSCRIPTION_CANNOT_HAVE_QUANTITY', "Subscription can't have quantity as the plan does not support quantity.", DOCS);
  }
  const subscription: Subscription = {
    id: newId.subscription(),
    planId: plan.id,
    status: 'APPROVAL_PENDING',
    statusChangeNote: null,
    statusUpdateTime: now,
    startTime: start,
    customId,
    subscriber,
    payer: null,
    createTime: now,
    updateTime: now,
    cycles: cyclesFor(plan),
    nextBillingTime: null,
    retryTime: null,
    finalPaymentTime: null,
    lastPayment: null,
    lastFailedPayment: null,
    failedPaymentsCount: 0,
    outstandingCents: 0,
    suspendedByFailures: false,
    failuresPending: 0,
    approval: null,
  };
  const approval: Approval = {
    baToken: newId.baToken(),
    token: newId.token(),
    subscriptionId: subscription.id,
    kind: 'create',
    planId: plan.id,
    returnUrl: context?.returnUrl ?? '',
    cancelUrl: context?.cancelUrl ?? '',
    brandName: context?.brandName ?? null,
    userAction: context?.userAction ?? 'SUBSCRIBE_NOW',
  };
  subscription.approval = approval;
  store.subscriptions.set(subscription.id, subscription);
  store.approvals.set(approval.baToken, approval);
  emitSubscriptionEvent(world, 'BILLING.SUBSCRIPTION.CREATED', subscription);
  return subscription;
}

/** Buyers must agree to a change of price or period; a plan at the same terms is swapped at once. */
function needsConsent(from: Plan, to: Plan): boolean {
  const terms = (plan: Plan) =>
    JSON.stringify(plan.billing_cycles.map((c) => [c.tenure_type, c.sequence, c.total_cycles, c.frequency, c.pricing_scheme.fixed_price]));
  return terms(from) !== terms(to);
}

function revise(world: PaypalWorld, subscription: Subscription, body: Json) {
  const { store } = world;
  const check = new BodyCheck(body);
  const planId = check.string('/plan_id', { min: 3, max: 50 });
  const context = readApplicationContext(check);
  check.done(DOCS);
  if (subscription.status !== 'ACTIVE' && subscription.status !== 'SUSPENDED') throw statusInvalid('revise', 'active or suspended');
  const current = store.plans.get(subscription.planId);
  const self = `${store.apiBase()}/v1/billing/subscriptions/${subscription.id}`;
  const links = [
    { href: self, rel: 'edit', method: 'PATCH' },
    { href: self, rel: 'self', method: 'GET' },
    { href: `${self}/cancel`, rel: 'cancel', method: 'POST' },
    { href: `${self}/suspend`, rel: 'suspend', method: 'POST' },
    { href: `${self}/capture`, rel: 'capture', method: 'POST' },
  ];
  if (!planId || planId === subscription.planId || !current) {
    return { plan_id: subscription.planId, plan_overridden: false, links };
  }
  const plan = activePlan(world, planId);
  if (plan.product_id !== current.product_id) {
    throw unprocessable('PLAN_PRODUCT_NOT_COMPATIBLE', 'The old and the new plans should be for the same product.', DOCS);
  }
  if (planCurrency(plan) !== planCurrency(current)) throw unprocessable('CURRENCY_MISMATCH', "The currency code is different from the plan's currency code.", DOCS);
  if (subscription.approval) store.approvals.delete(subscription.approval.baToken);
  subscription.approval = null;
  if (!needsConsent(current, plan)) {
    applyPlan(subscription, plan);
    subscription.updateTime = store.now();
    emitSubscriptionEvent(world, 'BILLING.SUBSCRIPTION.UPDATED', subscription);
    return { plan_id: plan.id, plan_overridden: false, links };
  }
  const approval: Approval = {
    baToken: newId.baToken(),
    token: newId.token(),
    subscriptionId: subscription.id,
    kind: 'revise',
    planId: plan.id,
    returnUrl: context?.returnUrl ?? '',
    cancelUrl: context?.cancelUrl ?? '',
    brandName: context?.brandName ?? null,
    userAction: 'SUBSCRIBE_NOW',
  };
  subscription.approval = approval;
  store.approvals.set(approval.baToken, approval);
  return {
    plan_id: plan.id,
    plan_overridden: false,
    links: [{ href: approvalUrl(store, approval), rel: 'approve', method: 'GET' }, ...links],
  };
}

function reasonOf(body: unknown, required: boolean): string | null {
  if (required) requireBody(body, DOCS);
  const check = new BodyCheck(isObject(body) ? body : {});
  const reason = check.string('/reason', { required, max: 128 });
  check.done(DOCS);
  return reason ?? null;
}

export function registerPaypalSubscriptionRoutes(api: FastifyInstance, world: PaypalWorld): void {
  const { store } = world;
  const find = (id: string): Subscription => {
    const subscription = store.subscriptions.get(id);
    if (!subscription) throw resourceNotFound(undefined, undefined, DOCS);
    return subscription;
  };

  api.post('/v1/billing/subscriptions', async (request, reply) =>
    idempotent(store, request, reply, () => ({ status: 201, body: subscriptionJson(store, createSubscription(world, requireBody(request.body, DOCS))) })),
  );

  api.get<IdRoute>('/v1/billing/subscriptions/:id', async (request) => subscriptionJson(store, find(request.params.id)));

  api.post<IdRoute>('/v1/billing/subscriptions/:id/revise', async (request) => {
    const subscription = find(request.params.id);
    return revise(world, subscription, requireBody(request.body, DOCS));
  });

  api.post<IdRoute>('/v1/billing/subscriptions/:id/cancel', async (request, reply) => {
    const subscription = find(request.params.id);
    cancel(world, subscription, reasonOf(request.body, true) ?? '');
    return reply.code(204).send();
  });

  api.post<IdRoute>('/v1/billing/subscriptions/:id/suspend', async (request, reply) => {
    const subscription = find(request.params.id);
    suspend(world, subscription, reasonOf(request.body, true) ?? '');
    return reply.code(204).send();
  });

  api.post<IdRoute>('/v1/billing/subscriptions/:id/activate', async (request, reply) => {
    const subscription = find(request.params.id);
    activate(world, subscription, reasonOf(request.body, false));
    return reply.code(204).send();
  });

  api.get<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>('/v1/billing/subscriptions/:id/transactions', async (request) => {
    const subscription = find(request.params.id);
    const check = new BodyCheck(request.query as Json, 'query');
    const start = check.string('/start_time', { required: true, pattern: RFC3339 });
    const end = check.string('/end_time', { required: true, pattern: RFC3339 });
    check.done(DOCS);
    const from = Date.parse(start ?? '');
    const to = Date.parse(end ?? '');
    const sales = [...store.sales.values()].filter((sale) => sale.subscriptionId === subscription.id && sale.time >= from && sale.time <= to);
    return {
      transactions: sales.map((sale) => transactionJson(subscription, sale)),
      total_items: sales.length,
      total_pages: 1,
      links: [{ href: `${store.apiBase()}/v1/billing/subscriptions/${subscription.id}/transactions?start_time=${start}&end_time=${end}`, rel: 'SELF', method: 'GET' }],
    };
  });
}
