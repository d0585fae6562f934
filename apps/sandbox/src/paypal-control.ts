import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONTROL_PREFIX } from './control.ts';
import { decideApproval } from './paypal-approval-page.ts';
import { cancel, refund, remainingCents } from './paypal-billing.ts';
import { certUrl } from './paypal-delivery.ts';
import { PaypalError } from './paypal-errors.ts';
import type { PaypalWorld } from './paypal-events.ts';
import { approvalUrl, planJson, productJson, refundedCents, subscriptionJson } from './paypal-serializers.ts';
import type { Delivery, StoredEvent } from './paypal-store.ts';
import { PAYPAL_SANDBOX_WEBHOOK_ID, applyPaypalConfig, fromCents, paypalTime, toCents } from './paypal-store.ts';

type Body = Record<string, unknown>;
type IdRoute = { Params: { id: string }; Body: Body | undefined };

function bad(reply: FastifyReply, status: number, error: string) {
  return reply.code(status).send({ error });
}

function describeDelivery(delivery: Delivery) {
  return { id: delivery.id, webhookId: delivery.webhookId, url: delivery.url, status: delivery.status, attempts: delivery.attempts };
}

/** The id of the subscription an event is about, whatever its resource. */
function subscriptionOf(stored: StoredEvent): string | null {
  const resource = stored.event.resource;
  if (stored.event.resource_type === 'subscription') return typeof resource.id === 'string' ? resource.id : null;
  return typeof resource.billing_agreement_id === 'string' ? resource.billing_agreement_id : null;
}

/**
 * Test levers under /_sandbox/paypal: nothing here exists at PayPal, so answers use the control
 * routes' plain `{ error }` shape. Actions a buyer or merchant takes in PayPal's own web pages
 * (approving, cancelling from their account, refunding from the dashboard) live here too, and
 * answer once the webhook deliveries they cause have had their first attempt.
 */
export function registerPaypalControlRoutes(app: FastifyInstance, world: PaypalWorld): void {
  const { store, delivery } = world;
  const p = `${CONTROL_PREFIX}/paypal`;

  const guard = async (reply: FastifyReply, run: () => unknown) => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof PaypalError) return reply.code(error.status).send({ error: error.message, paypal: error.body });
      throw error;
    }
  };

  const eventJson = (stored: StoredEvent) => ({
    id: stored.event.id,
    event_type: stored.event.event_type,
    create_time: stored.event.create_time,
    subscriptionId: subscriptionOf(stored),
    resourceId: stored.event.resource.id ?? null,
    deliveries: store.deliveries.filter((d) => d.eventId === stored.event.id).map(describeDelivery),
    event: stored.event,
  });

  app.get(p, async () => ({
    clientId: store.config.clientId,
    clientSecret: store.config.clientSecret,
    apiBase: store.apiBase(),
    webhookId: store.config.webhookUrl ? PAYPAL_SANDBOX_WEBHOOK_ID : null,
    certUrl: certUrl(store),
    deliveriesPaused: delivery.paused,
    products: [...store.products.values()].map((product) => productJson(store, product)),
    plans: [...store.plans.values()].map((plan) => planJson(store, plan)),
    subscriptions: [...store.subscriptions.values()].map((subscription) => ({
      ...subscriptionJson(store, subscription),
      failuresPending: subscription.failuresPending,
      pendingApproval: subscription.approval ? { kind: subscription.approval.kind, planId: subscription.approval.planId, url: approvalUrl(store, subscription.approval) } : null,
    })),
    sales: [...store.sales.values()].map((sale) => ({
      id: sale.id,
      subscriptionId: sale.subscriptionId,
      amount: fromCents(sale.amountCents),
      currency: sale.currency,
      refunded: fromCents(refundedCents(sale)),
      time: paypalTime(sale.time),
      refunds: sale.refunds.map((r) => ({ id: r.id, amount: fromCents(r.amountCents), time: paypalTime(r.time) })),
    })),
    webhooks: [...store.webhooks.values()],
    events: store.events.size,
  }));

  const describeConfig = () => ({ webhookUrl: store.config.webhookUrl, webhookId: PAYPAL_SANDBOX_WEBHOOK_ID, publicUrl: store.config.publicUrl });

  app.get(`${p}/config`, async () => describeConfig());

  app.put<{ Body: unknown }>(`${p}/config`, async (request, reply) => {
    const problem = applyPaypalConfig(store, request.body ?? {});
    if (problem) return bad(reply, 400, problem);
    return describeConfig();
  });

  app.get<{ Querystring: Record<string, string | undefined> }>(`${p}/events`, async (request) => {
    const { type, subscriptionId } = request.query;
    const events = [...store.events.values()].filter(
      (stored) => (!type || stored.event.event_type === type) && (!subscriptionId || subscriptionOf(stored) === subscriptionId),
    );
    return { events: events.map(eventJson) };
  });

  app.post<IdRoute>(`${p}/events/:id/resend`, async (request, reply) => {
    if (!store.events.has(request.params.id)) return bad(reply, 404, `no PayPal event ${request.params.id}`);
    const webhookIds = Array.isArray(request.body?.webhookIds) ? request.body.webhookIds.filter((id): id is string => typeof id === 'string') : undefined;
    const sent = await delivery.deliverNow([request.params.id], webhookIds);
    return { deliveries: sent.map(describeDelivery) };
  });

  app.post<{ Body: Body | undefined }>(`${p}/events/deliver`, async (request, reply) => {
    const ids = request.body?.ids;
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) return bad(reply, 400, 'ids must be a list of event ids');
    const unknown = ids.filter((id) => !store.events.has(id));
    if (unknown.length > 0) return bad(reply, 404, `no PayPal event ${unknown.join(', ')}`);
    const sent = await delivery.deliverNow(ids);
    return { deliveries: sent.map(describeDelivery) };
  });

  app.post(`${p}/deliveries/pause`, async () => {
    delivery.pause();
    return { paused: true };
  });

  app.post(`${p}/deliveries/resume`, async () => {
    const sent = await delivery.resume();
    return { paused: false, deliveries: sent.map(describeDelivery) };
  });

  app.post(`${p}/deliveries/wait`, async () => {
    await delivery.idle();
    return { ok: true };
  });

  app.post<IdRoute>(`${p}/subscriptions/:id/fail-next-payment`, async (request, reply) => {
    const subscription = store.subscriptions.get(request.params.id);
    if (!subscription) return bad(reply, 404, `no PayPal subscription ${request.params.id}`);
    const count = request.body?.count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) return bad(reply, 400, 'count must be a whole number');
    subscription.failuresPending = count;
    return { id: subscription.id, failuresPending: count };
  });

  app.post<IdRoute>(`${p}/subscriptions/:id/approve`, async (request, reply) => {
    const subscription = store.subscriptions.get(request.params.id);
    if (!subscription) return bad(reply, 404, `no PayPal subscription ${request.params.id}`);
    if (!subscription.approval) return bad(reply, 409, `subscription ${subscription.id} waits for no approval`);
    const email = typeof request.body?.email === 'string' ? request.body.email : null;
    const decision = request.body?.decision === 'cancel' ? 'cancel' : 'approve';
    const redirect = decideApproval(world, subscription.approval, decision, email);
    await delivery.idle();
    return { redirect, subscription: subscriptionJson(store, subscription) };
  });

  app.post<IdRoute>(`${p}/subscriptions/:id/cancel`, async (request, reply) => {
    const subscription = store.subscriptions.get(request.params.id);
    if (!subscription) return bad(reply, 404, `no PayPal subscription ${request.params.id}`);
    const reason = typeof request.body?.reason === 'string' ? request.body.reason : 'Cancelled by the buyer in their PayPal account';
    return guard(reply, async () => {
      cancel(world, subscription, reason);
      await delivery.idle();
      return { subscription: subscriptionJson(store, subscription) };
    });
  });

  app.post<IdRoute>(`${p}/sales/:id/refund`, async (request, reply) => {
    const sale = store.sales.get(request.params.id);
    if (!sale) return bad(reply, 404, `no PayPal sale ${request.params.id}`);
    const amount = request.body?.amount;
    const cents = amount === undefined ? remainingCents(sale) : typeof amount === 'string' ? toCents(amount) : null;
    if (cents === null || cents <= 0 || cents > remainingCents(sale)) return bad(reply, 400, `amount must be a decimal string up to ${fromCents(remainingCents(sale))}`);
    const record = refund(world, sale, cents, 'v1');
    await delivery.idle();
    return { refund: { id: record.id, saleId: sale.id, amount: fromCents(cents), currency: sale.currency } };
  });

}
