import { cardOutcome, createPaymentMethod, normaliseCardNumber } from './stripe-cards.ts';
import { DECLINES } from './stripe-errors.ts';
import type { StripeRuntime } from './stripe-http.ts';
import { chargeInvoice } from './stripe-invoices.ts';
import type { BillingContext } from './stripe-invoices.ts';
import type { CardInput } from './stripe-store.ts';
import { completeCheckout, emitUpdated, hasUnpaidInvoice } from './stripe-subscriptions.ts';
import { applyPendingChange } from './stripe-update-subscription.ts';
import type { CheckoutSession, Invoice } from './stripe-types.ts';

/** What the buyer typed on a hosted page. */
export interface CardForm {
  email?: string | undefined;
  cardNumber?: string | undefined;
  expiry?: string | undefined;
  cvc?: string | undefined;
  name?: string | undefined;
}

export type PayResult =
  | { kind: 'paid'; redirect: string | null; subscriptionId: string }
  | { kind: 'error'; message: string; status: number }
  | { kind: 'authenticate' }
  | { kind: 'closed'; status: CheckoutSession['status'] };

function ctxOf(runtime: StripeRuntime): BillingContext {
  return { store: runtime.store, hooks: runtime.hooks, at: runtime.store.now(), origin: null };
}

/** Reads the card fields; blank expiry means a date in the future, so tests can type only the number. */
export function readCard(form: CardForm, nowSeconds: number): CardInput | string {
  const number = normaliseCardNumber(form.cardNumber ?? '');
  if (number === '') return 'Your card number is incomplete.';
  const year = new Date(nowSeconds * 1000).getUTCFullYear();
  const expiry = (form.expiry ?? '').replace(/\s/g, '');
  let expMonth = 12;
  let expYear = year + 5;
  if (expiry !== '') {
    const match = /^(\d{1,2})\/?(\d{2}|\d{4})$/.exec(expiry);
    if (!match) return "Your card's expiration date is incomplete.";
    expMonth = Number(match[1]);
    expYear = Number(match[2]) + (match[2]?.length === 2 ? 2000 : 0);
    if (expMonth < 1 || expMonth > 12) return "Your card's expiration month is invalid.";
    const month = new Date(nowSeconds * 1000).getUTCMonth() + 1;
    if (expYear < year || (expYear === year && expMonth < month)) return "Your card's expiration year is in the past.";
  }
  if (form.cvc && !/^\d{3,4}$/.test(form.cvc.trim())) return "Your card's security code is incomplete.";
  return { number, expMonth, expYear, name: form.name?.trim() || null };
}

export function successRedirect(session: CheckoutSession): string | null {
  return session.success_url ? session.success_url.replace(/\{CHECKOUT_SESSION_ID\}/g, session.id) : null;
}

function emailFor(runtime: StripeRuntime, session: CheckoutSession, typed: string | undefined): string | null {
  const known = session.customer ? runtime.store.get('customer', session.customer)?.email : session.customer_email;
  if (known) return known;
  const email = typed?.trim() ?? '';
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : null;
}

/** The Pay button: declines stay on the page, 3-D Secure cards go to the authentication step, others pay. */
export function payCheckout(runtime: StripeRuntime, session: CheckoutSession, form: CardForm): PayResult {
  if (session.status !== 'open') return { kind: 'closed', status: session.status };
  const extras = runtime.store.sessionExtras.get(session.id);
  if (!extras) return { kind: 'closed', status: session.status };
  const email = emailFor(runtime, session, form.email);
  if (!email) return { kind: 'error', message: 'Your email is incomplete.', status: 400 };
  const card = readCard(form, runtime.store.now());
  if (typeof card === 'string') return { kind: 'error', message: card, status: 400 };
  const outcome = cardOutcome(card.number, true);
  if (outcome.kind === 'decline') return { kind: 'error', message: outcome.decline.message, status: 402 };
  if (outcome.kind === 'authenticate') {
    extras.awaitingAuthentication = { card, email };
    return { kind: 'authenticate' };
  }
  const subscription = completeCheckout(ctxOf(runtime), session, card, email);
  return { kind: 'paid', redirect: successRedirect(session), subscriptionId: subscription.id };
}

/** The test 3-D Secure step: "Complete" pays, "Fail" returns to the form with Stripe's message. */
export function authenticateCheckout(runtime: StripeRuntime, session: CheckoutSession, complete: boolean): PayResult {
  if (session.status !== 'open') return { kind: 'closed', status: session.status };
  const extras = runtime.store.sessionExtras.get(session.id);
  const waiting = extras?.awaitingAuthentication;
  if (!extras || !waiting) return { kind: 'error', message: 'There is no payment waiting for authentication.', status: 409 };
  extras.awaitingAuthentication = null;
  if (!complete) return { kind: 'error', message: DECLINES.authenticationFailed.message, status: 402 };
  const subscription = completeCheckout(ctxOf(runtime), session, waiting.card, waiting.email);
  return { kind: 'paid', redirect: successRedirect(session), subscriptionId: subscription.id };
}

export type InvoicePayResult = { kind: 'paid' } | { kind: 'authenticate' } | { kind: 'error'; message: string; status: number };

/**
 * Paying an open invoice on its hosted page with a new card, which becomes the subscription's card.
 * A card that asks for authentication goes to the 3-D Secure step first (`authenticateInvoice`);
 * `returnUrl` is kept for it, so the step can send the browser back.
 */
export function payInvoiceWithCard(runtime: StripeRuntime, invoice: Invoice, form: CardForm, returnUrl: string | null = null): InvoicePayResult {
  if (invoice.status !== 'open' || invoice.amount_remaining === 0) return { kind: 'error', message: 'This invoice is not open for payment.', status: 409 };
  const { store } = runtime;
  const card = readCard(form, store.now());
  if (typeof card === 'string') return { kind: 'error', message: card, status: 400 };
  const outcome = cardOutcome(card.number, true);
  if (outcome.kind === 'decline') return { kind: 'error', message: outcome.decline.message, status: 402 };
  if (!store.get('subscription', invoice.subscription)) return { kind: 'error', message: 'This invoice has no subscription.', status: 409 };
  if (outcome.kind === 'authenticate') {
    store.invoiceAuthentications.set(invoice.id, { card, returnUrl });
    return { kind: 'authenticate' };
  }
  return settleInvoice(runtime, invoice, card);
}

/** The test 3-D Secure step of the invoice page: "Complete" pays, "Fail" returns to the form with Stripe's message. */
export function authenticateInvoice(runtime: StripeRuntime, invoice: Invoice, complete: boolean): InvoicePayResult {
  const waiting = runtime.store.invoiceAuthentications.get(invoice.id);
  if (!waiting) return { kind: 'error', message: 'There is no payment waiting for authentication.', status: 409 };
  runtime.store.invoiceAuthentications.delete(invoice.id);
  if (invoice.status !== 'open' || invoice.amount_remaining === 0) return { kind: 'error', message: 'This invoice is not open for payment.', status: 409 };
  if (!complete) return { kind: 'error', message: DECLINES.authenticationFailed.message, status: 402 };
  return settleInvoice(runtime, invoice, waiting.card);
}

function settleInvoice(runtime: StripeRuntime, invoice: Invoice, card: CardInput): InvoicePayResult {
  const { store } = runtime;
  const subscription = store.get('subscription', invoice.subscription);
  if (!subscription) return { kind: 'error', message: 'This invoice has no subscription.', status: 409 };
  const ctx = ctxOf(runtime);
  const before = structuredClone(subscription);
  const method = createPaymentMethod(store, card, invoice.customer, invoice.customer_email, ctx.at);
  subscription.default_payment_method = method.id;
  // A new card: what made the old one fail no longer applies.
  store.extras(subscription.id).failuresPending = 0;
  chargeInvoice(ctx, invoice, { onSession: true });
  // A pending update waiting for this invoice takes effect now that it is paid.
  applyPendingChange(ctx, subscription, invoice.id);
  if (subscription.status === 'past_due' && !hasUnpaidInvoice(store, subscription)) subscription.status = 'active';
  emitUpdated(ctx, subscription, before);
  return { kind: 'paid' };
}
