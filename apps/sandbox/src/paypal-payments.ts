import type { FastifyInstance } from 'fastify';
import { refund, remainingCents } from './paypal-billing.ts';
import { BodyCheck, isObject, legacyError, resourceNotFound, unprocessable } from './paypal-errors.ts';
import type { PaypalWorld } from './paypal-events.ts';
import { idempotent } from './paypal-idempotency.ts';
import { captureJson, refundJson, saleJson, saleRefundJson } from './paypal-serializers.ts';
import type { Sale } from './paypal-store.ts';
import { toCents } from './paypal-store.ts';

const V2_DOCS = 'v2/payments/';
const V1_DOCS = 'v1/payments/';

type IdRoute = { Params: { id: string }; Body: unknown };

/** The v2 rules: full refund when no amount, same currency, never more than what is left. */
function refundCapture(world: PaypalWorld, sale: Sale, body: unknown) {
  const check = new BodyCheck(isObject(body) ? body : {});
  const amount = check.money('/amount');
  const note = check.string('/note_to_payer', { max: 255 }) ?? null;
  check.string('/invoice_id', { max: 127 });
  check.done(V2_DOCS);
  const remaining = remainingCents(sale);
  if (remaining <= 0) throw unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded', V2_DOCS);
  if (amount && amount.currency !== sale.currency) {
    throw unprocessable('REFUND_CAPTURE_CURRENCY_MISMATCH', 'Refund must be in the same currency as the capture', V2_DOCS, '/amount/currency_code');
  }
  if (amount && amount.cents <= 0) throw unprocessable('CANNOT_BE_ZERO_OR_NEGATIVE', 'Must be greater than zero.', V2_DOCS, '/amount/value');
  if (amount && amount.cents > remaining) {
    throw unprocessable('REFUND_AMOUNT_EXCEEDED', 'The refund amount must be less than or equal to the capture amount that has not yet been refunded.', V2_DOCS);
  }
  return refund(world, sale, amount?.cents ?? remaining, 'v2', note);
}

/** The v1 sale rules, answered in the older `{ name, message, information_link }` shape. */
function refundSale(world: PaypalWorld, sale: Sale, body: unknown) {
  const amount = isObject(body) && isObject(body.amount) ? body.amount : null;
  const remaining = remainingCents(sale);
  if (remaining <= 0) throw legacyError(400, 'TRANSACTION_ALREADY_REFUNDED', 'Requested transaction has already been fully refunded.', V1_DOCS);
  if (!amount) return refund(world, sale, remaining, 'v1');
  const cents = typeof amount.total === 'string' ? toCents(amount.total) : null;
  if (cents === null || cents <= 0 || amount.currency !== sale.currency) {
    throw legacyError(400, 'VALIDATION_ERROR', 'Invalid request - see details', V1_DOCS, [{ field: 'amount', issue: 'Amount must be a positive value in the currency of the sale' }]);
  }
  if (cents > remaining) throw legacyError(400, 'REFUND_EXCEEDED_TRANSACTION_AMOUNT', 'Refund amount exceeds transaction amount', V1_DOCS);
  return refund(world, sale, cents, 'v1');
}

export function registerPaypalPaymentRoutes(api: FastifyInstance, world: PaypalWorld): void {
  const { store } = world;
  const capture = (id: string): Sale => {
    const sale = store.sales.get(id);
    if (!sale) throw resourceNotFound(undefined, undefined, V2_DOCS);
    return sale;
  };
  const sale = (id: string): Sale => {
    const found = store.sales.get(id);
    if (!found) throw legacyError(404, 'INVALID_RESOURCE_ID', 'The requested resource ID was not found', V1_DOCS);
    return found;
  };

  api.get<IdRoute>('/v2/payments/captures/:id', async (request) => captureJson(store, capture(request.params.id)));

  api.post<IdRoute>('/v2/payments/captures/:id/refund', async (request, reply) => {
    const found = capture(request.params.id);
    return idempotent(store, request, reply, () => ({ status: 201, body: refundJson(store, found, refundCapture(world, found, request.body)) }));
  });

  api.get<IdRoute>('/v2/payments/refunds/:id', async (request) => {
    const record = store.refunds.get(request.params.id);
    const parent = record ? store.sales.get(record.saleId) : undefined;
    if (!record || !parent) throw resourceNotFound(undefined, undefined, V2_DOCS);
    return refundJson(store, parent, record);
  });

  api.get<IdRoute>('/v1/payments/sale/:id', async (request) => saleJson(store, sale(request.params.id)));

  api.post<IdRoute>('/v1/payments/sale/:id/refund', async (request, reply) => {
    const found = sale(request.params.id);
    return idempotent(store, request, reply, () => ({ status: 201, body: saleRefundJson(store, found, refundSale(world, found, request.body)) }));
  });

  api.get<IdRoute>('/v1/payments/refund/:id', async (request) => {
    const record = store.refunds.get(request.params.id);
    const parent = record ? store.sales.get(record.saleId) : undefined;
    if (!record || !parent) throw legacyError(404, 'INVALID_RESOURCE_ID', 'The requested resource ID was not found', V1_DOCS);
    return saleRefundJson(store, parent, record);
  });
}
