import type { Approval, Plan, PaypalStore, Product, Refund, Sale, Subscription } from './paypal-store.ts';
import { PAYPAL_PREFIX, fromCents, money, paypalTime } from './paypal-store.ts';

export interface Link {
  href: string;
  rel: string;
  method: string;
}

const link = (href: string, rel: string, method = 'GET'): Link => ({ href, rel, method });

export function productJson(store: PaypalStore, product: Product) {
  return { ...product, links: [link(`${store.apiBase()}/v1/catalogs/products/${product.id}`, 'self'), link(`${store.apiBase()}/v1/catalogs/products/${product.id}`, 'edit', 'PATCH')] };
}

export function planJson(store: PaypalStore, plan: Plan) {
  return { ...plan, links: [link(`${store.apiBase()}/v1/billing/plans/${plan.id}`, 'self'), link(`${store.apiBase()}/v1/billing/plans/${plan.id}`, 'edit', 'PATCH')] };
}

/** The plan's currency: every cycle of a plan is priced in the same one. */
export function planCurrency(plan: Plan): string {
  return plan.billing_cycles[0]?.pricing_scheme.fixed_price.currency_code ?? 'USD';
}

/** Where the buyer approves: PayPal's `/webapps/billing/subscriptions` page, `/update` for a plan change. */
export function approvalUrl(store: PaypalStore, approval: Approval): string {
  const path = approval.kind === 'revise' ? 'webapps/billing/subscriptions/update' : 'webapps/billing/subscriptions';
  return `${store.origin()}${PAYPAL_PREFIX}/${path}?ba_token=${approval.baToken}`;
}

function subscriptionLinks(store: PaypalStore, subscription: Subscription): Link[] {
  const self = `${store.apiBase()}/v1/billing/subscriptions/${subscription.id}`;
  switch (subscription.status) {
    case 'APPROVAL_PENDING':
      return [
        ...(subscription.approval ? [link(approvalUrl(store, subscription.approval), 'approve')] : []),
        link(self, 'edit', 'PATCH'),
        link(self, 'self'),
      ];
    case 'APPROVED':
      return [link(self, 'self'), link(`${self}/activate`, 'activate', 'POST'), link(self, 'edit', 'PATCH')];
    case 'ACTIVE':
      return [
        link(`${self}/cancel`, 'cancel', 'POST'),
        link(self, 'edit', 'PATCH'),
        link(self, 'self'),
        link(`${self}/suspend`, 'suspend', 'POST'),
        link(`${self}/capture`, 'capture', 'POST'),
      ];
    case 'SUSPENDED':
      return [
        link(`${self}/cancel`, 'cancel', 'POST'),
        link(`${self}/activate`, 'activate', 'POST'),
        link(self, 'edit', 'PATCH'),
        link(self, 'self'),
        link(`${self}/capture`, 'capture', 'POST'),
      ];
    default:
      return [link(self, 'self')];
  }
}

export function subscriptionJson(store: PaypalStore, subscription: Subscription) {
  const plan = store.plans.get(subscription.planId);
  const currency = plan ? planCurrency(plan) : 'USD';
  const billingInfo: Record<string, unknown> = {
    outstanding_balance: money(subscription.outstandingCents, currency),
    cycle_executions: subscription.cycles.map((cycle) => ({
      tenure_type: cycle.tenure_type,
      sequence: cycle.sequence,
      cycles_completed: cycle.cycles_completed,
      cycles_remaining: cycle.total_cycles === 0 ? 0 : cycle.total_cycles - cycle.cycles_completed,
      current_pricing_scheme_version: 1,
      total_cycles: cycle.total_cycles,
    })),
  };
  if (subscription.lastPayment) {
    billingInfo.last_payment = { amount: money(subscription.lastPayment.amountCents, subscription.lastPayment.currency), time: paypalTime(subscription.lastPayment.time) };
  }
  if (subscription.nextBillingTime !== null && (subscription.status === 'ACTIVE' || subscription.status === 'SUSPENDED')) {
    billingInfo.next_billing_time = paypalTime(subscription.nextBillingTime);
  }
  if (subscription.finalPaymentTime !== null) billingInfo.final_payment_time = paypalTime(subscription.finalPaymentTime);
  billingInfo.failed_payments_count = subscription.failedPaymentsCount;
  if (subscription.lastFailedPayment) {
    const failed = subscription.lastFailedPayment;
    billingInfo.last_failed_payment = {
      amount: money(failed.amountCents, failed.currency),
      time: paypalTime(failed.time),
      reason_code: 'PAYMENT_DENIED',
      ...(failed.nextRetry !== null ? { next_payment_retry_time: paypalTime(failed.nextRetry) } : {}),
    };
  }
  const subscriber = subscription.payer ? { ...(subscription.subscriber ?? {}), ...subscription.payer } : subscription.subscriber;
  return {
    status: subscription.status,
    ...(subscription.statusChangeNote ? { status_change_note: subscription.statusChangeNote } : {}),
    status_update_time: paypalTime(subscription.statusUpdateTime),
    id: subscription.id,
    plan_id: subscription.planId,
    start_time: paypalTime(subscription.startTime),
    quantity: '1',
    shipping_amount: { currency_code: currency, value: '0.0' },
    ...(subscriber ? { subscriber } : {}),
    billing_info: billingInfo,
    create_time: paypalTime(subscription.createTime),
    update_time: paypalTime(subscription.updateTime),
    ...(subscription.customId !== null ? { custom_id: subscription.customId } : {}),
    plan_overridden: false,
    links: subscriptionLinks(store, subscription),
  };
}

export function refundedCents(sale: Sale): number {
  return sale.refunds.reduce((sum, refund) => sum + refund.amountCents, 0);
}

function saleStatus(sale: Sale): 'COMPLETED' | 'PARTIALLY_REFUNDED' | 'REFUNDED' {
  const refunded = refundedCents(sale);
  return refunded === 0 ? 'COMPLETED' : refunded >= sale.amountCents ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
}

/** A subscription payment as the v1 Payments API (and PAYMENT.SALE.* events) show it. */
export function saleJson(store: PaypalStore, sale: Sale) {
  const base = store.apiBase();
  return {
    id: sale.id,
    state: saleStatus(sale).toLowerCase(),
    amount: { total: fromCents(sale.amountCents), currency: sale.currency, details: { subtotal: fromCents(sale.amountCents) } },
    payment_mode: 'INSTANT_TRANSFER',
    protection_eligibility: 'ELIGIBLE',
    protection_eligibility_type: 'ITEM_NOT_RECEIVED_ELIGIBLE,UNAUTHORIZED_PAYMENT_ELIGIBLE',
    transaction_fee: { value: fromCents(sale.feeCents), currency: sale.currency },
    billing_agreement_id: sale.subscriptionId,
    ...(sale.customId !== null ? { custom: sale.customId } : {}),
    create_time: paypalTime(sale.time),
    update_time: paypalTime(sale.refunds.at(-1)?.time ?? sale.time),
    links: [link(`${base}/v1/payments/sale/${sale.id}`, 'self'), link(`${base}/v1/payments/sale/${sale.id}/refund`, 'refund', 'POST')],
  };
}

/** The same payment through the v2 Payments API. */
export function captureJson(store: PaypalStore, sale: Sale) {
  const base = store.apiBase();
  return {
    id: sale.id,
    amount: money(sale.amountCents, sale.currency),
    final_capture: true,
    seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
    seller_receivable_breakdown: {
      gross_amount: money(sale.amountCents, sale.currency),
      paypal_fee: money(sale.feeCents, sale.currency),
      net_amount: money(sale.amountCents - sale.feeCents, sale.currency),
    },
    ...(sale.customId !== null ? { custom_id: sale.customId } : {}),
    status: saleStatus(sale),
    create_time: paypalTime(sale.time),
    update_time: paypalTime(sale.refunds.at(-1)?.time ?? sale.time),
    links: [link(`${base}/v2/payments/captures/${sale.id}`, 'self'), link(`${base}/v2/payments/captures/${sale.id}/refund`, 'refund', 'POST')],
  };
}

/** A refund through the v2 Payments API (and PAYMENT.CAPTURE.REFUNDED). */
export function refundJson(store: PaypalStore, sale: Sale, refund: Refund) {
  const base = store.apiBase();
  const upTo = sale.refunds.slice(0, sale.refunds.indexOf(refund) + 1).reduce((sum, r) => sum + r.amountCents, 0);
  return {
    id: refund.id,
    amount: money(refund.amountCents, refund.currency),
    seller_payable_breakdown: {
      gross_amount: money(refund.amountCents, refund.currency),
      paypal_fee: money(0, refund.currency),
      net_amount: money(refund.amountCents, refund.currency),
      total_refunded_amount: money(upTo, refund.currency),
    },
    ...(refund.noteToPayer ? { note_to_payer: refund.noteToPayer } : {}),
    status: 'COMPLETED',
    create_time: paypalTime(refund.time),
    update_time: paypalTime(refund.time),
    links: [link(`${base}/v2/payments/refunds/${refund.id}`, 'self'), link(`${base}/v2/payments/captures/${sale.id}`, 'up')],
  };
}

/** A refund through the v1 Payments API (and PAYMENT.SALE.REFUNDED, whose total is negative as PayPal sends it). */
export function saleRefundJson(store: PaypalStore, sale: Sale, refund: Refund, options: { negative?: boolean } = {}) {
  const base = store.apiBase();
  const upTo = sale.refunds.slice(0, sale.refunds.indexOf(refund) + 1).reduce((sum, r) => sum + r.amountCents, 0);
  const total = fromCents(refund.amountCents);
  return {
    id: refund.id,
    create_time: paypalTime(refund.time),
    update_time: paypalTime(refund.time),
    state: 'completed',
    amount: { total: options.negative ? `-${total}` : total, currency: refund.currency },
    refund_from_transaction_fee: { currency: refund.currency, value: '0.00' },
    total_refunded_amount: { currency: refund.currency, value: fromCents(upTo) },
    refund_from_received_amount: { currency: refund.currency, value: total },
    sale_id: sale.id,
    billing_agreement_id: sale.subscriptionId,
    links: [link(`${base}/v1/payments/refund/${refund.id}`, 'self'), link(`${base}/v1/payments/sale/${sale.id}`, 'sale')],
  };
}

/** One row of GET /v1/billing/subscriptions/{id}/transactions. */
export function transactionJson(subscription: Subscription, sale: Sale) {
  const payer = subscription.payer;
  return {
    status: saleStatus(sale),
    id: sale.id,
    amount_with_breakdown: {
      gross_amount: money(sale.amountCents, sale.currency),
      fee_amount: money(sale.feeCents, sale.currency),
      net_amount: money(sale.amountCents - sale.feeCents, sale.currency),
    },
    ...(payer ? { payer_name: payer.name, payer_email: payer.email_address } : {}),
    time: paypalTime(sale.time),
  };
}
