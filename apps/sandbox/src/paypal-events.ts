import type { PaypalDelivery } from './paypal-delivery.ts';
import type { PaypalEvent, PaypalStore, Refund, Sale, StoredEvent, Subscription } from './paypal-store.ts';
import { fromCents, newId } from './paypal-store.ts';
import { refundJson, saleJson, saleRefundJson, subscriptionJson } from './paypal-serializers.ts';

/** The sandbox's PayPal account and the queue its events leave through; what every PayPal handler works on. */
export interface PaypalWorld {
  store: PaypalStore;
  delivery: PaypalDelivery;
}

export type SubscriptionEventType =
  | 'BILLING.SUBSCRIPTION.CREATED'
  | 'BILLING.SUBSCRIPTION.ACTIVATED'
  | 'BILLING.SUBSCRIPTION.UPDATED'
  | 'BILLING.SUBSCRIPTION.SUSPENDED'
  | 'BILLING.SUBSCRIPTION.CANCELLED'
  | 'BILLING.SUBSCRIPTION.EXPIRED'
  | 'BILLING.SUBSCRIPTION.PAYMENT.FAILED';

/** Every event type the sandbox sends, with PayPal's description, as GET /v1/notifications/webhooks-event-types lists them. */
export const EVENT_TYPES: Record<string, string> = {
  'BILLING.SUBSCRIPTION.CREATED': 'A billing subscription was created.',
  'BILLING.SUBSCRIPTION.ACTIVATED': 'A billing subscription was activated.',
  'BILLING.SUBSCRIPTION.UPDATED': 'A billing subscription was updated.',
  'BILLING.SUBSCRIPTION.SUSPENDED': 'A billing subscription was suspended.',
  'BILLING.SUBSCRIPTION.CANCELLED': 'A billing subscription was cancelled.',
  'BILLING.SUBSCRIPTION.EXPIRED': 'A billing subscription expired.',
  'BILLING.SUBSCRIPTION.PAYMENT.FAILED': 'Payment failed on subscription.',
  'PAYMENT.SALE.COMPLETED': 'A sale completed.',
  'PAYMENT.SALE.REFUNDED': "A merchant refunded a sale.",
  'PAYMENT.CAPTURE.REFUNDED': 'A merchant refunded a payment capture.',
};

/** Names a webhook may subscribe to although the sandbox never sends them (accepted so real configurations work). */
export const QUIET_EVENT_TYPES = [
  'BILLING.SUBSCRIPTION.RE-ACTIVATED',
  'BILLING.PLAN.CREATED',
  'BILLING.PLAN.UPDATED',
  'BILLING.PLAN.ACTIVATED',
  'BILLING.PLAN.DEACTIVATED',
  'CATALOG.PRODUCT.CREATED',
  'CATALOG.PRODUCT.UPDATED',
  'PAYMENT.SALE.DENIED',
  'PAYMENT.SALE.PENDING',
  'PAYMENT.SALE.REVERSED',
  'PAYMENT.CAPTURE.COMPLETED',
  'PAYMENT.CAPTURE.DENIED',
  'PAYMENT.CAPTURE.PENDING',
  'PAYMENT.CAPTURE.REVERSED',
  'CHECKOUT.ORDER.APPROVED',
  'CHECKOUT.ORDER.COMPLETED',
];

const SUBSCRIPTION_SUMMARIES: Record<SubscriptionEventType, string> = {
  'BILLING.SUBSCRIPTION.CREATED': 'A billing subscription was created.',
  'BILLING.SUBSCRIPTION.ACTIVATED': 'A billing subscription was activated.',
  'BILLING.SUBSCRIPTION.UPDATED': 'A billing subscription was updated.',
  'BILLING.SUBSCRIPTION.SUSPENDED': 'A billing subscription was suspended.',
  'BILLING.SUBSCRIPTION.CANCELLED': 'A billing subscription was cancelled.',
  'BILLING.SUBSCRIPTION.EXPIRED': 'A billing agreement has expired.',
  'BILLING.SUBSCRIPTION.PAYMENT.FAILED': 'Subscription payment failed',
};

function publish(world: PaypalWorld, fields: Omit<PaypalEvent, 'id' | 'event_version' | 'create_time' | 'links'>): StoredEvent {
  const { store } = world;
  const id = newId.event();
  const self = `${store.apiBase()}/v1/notifications/webhooks-events/${id}`;
  const event: PaypalEvent = {
    id,
    event_version: '1.0',
    create_time: new Date(store.now()).toISOString(),
    resource_type: fields.resource_type,
    ...(fields.resource_version ? { resource_version: fields.resource_version } : {}),
    event_type: fields.event_type,
    summary: fields.summary,
    resource: fields.resource,
    links: [
      { href: self, rel: 'self', method: 'GET' },
      { href: `${self}/resend`, rel: 'resend', method: 'POST' },
    ],
  };
  const stored: StoredEvent = { event, body: JSON.stringify(event) };
  store.events.set(id, stored);
  world.delivery.dispatch(stored);
  return stored;
}

export function emitSubscriptionEvent(world: PaypalWorld, type: SubscriptionEventType, subscription: Subscription): StoredEvent {
  return publish(world, {
    resource_type: 'subscription',
    resource_version: '2.0',
    event_type: type,
    summary: SUBSCRIPTION_SUMMARIES[type],
    resource: subscriptionJson(world.store, subscription),
  });
}

export function emitSaleCompleted(world: PaypalWorld, sale: Sale): StoredEvent {
  return publish(world, {
    resource_type: 'sale',
    event_type: 'PAYMENT.SALE.COMPLETED',
    summary: `A successful sale payment was made for $ ${fromCents(sale.amountCents)} ${sale.currency}`,
    resource: saleJson(world.store, sale),
  });
}

/** A refund made through the v1 sale API or the sandbox's "dashboard" control route. */
export function emitSaleRefunded(world: PaypalWorld, sale: Sale, refund: Refund): StoredEvent {
  return publish(world, {
    resource_type: 'sale',
    event_type: 'PAYMENT.SALE.REFUNDED',
    summary: `A ${fromCents(refund.amountCents)} ${refund.currency} sale payment was refunded`,
    resource: saleRefundJson(world.store, sale, refund, { negative: true }),
  });
}

/** A refund made through the v2 captures API. */
export function emitCaptureRefunded(world: PaypalWorld, sale: Sale, refund: Refund): StoredEvent {
  return publish(world, {
    resource_type: 'refund',
    resource_version: '2.0',
    event_type: 'PAYMENT.CAPTURE.REFUNDED',
    summary: `A $ ${fromCents(refund.amountCents)} ${refund.currency} capture payment was refunded`,
    resource: refundJson(world.store, sale, refund),
  });
}
