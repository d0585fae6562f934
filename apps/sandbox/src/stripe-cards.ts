import { createHash } from 'node:crypto';
import { DECLINES } from './stripe-errors.ts';
import type { Decline } from './stripe-errors.ts';
import type { CardInput, StripeStore } from './stripe-store.ts';
import type { CardDetails, PaymentMethod } from './stripe-types.ts';

/**
 * What a test card does, after Stripe's documented test numbers: `onSession` is the buyer paying on
 * the checkout page, otherwise the card is charged again later (renewals, upgrades).
 */
export type CardOutcome = { kind: 'ok' } | { kind: 'authenticate' } | { kind: 'decline'; decline: Decline };

const ALWAYS_OK = new Set(['4242424242424242', '4000056655665556', '5555555555554444', '2223003122003222', '5200828282828210', '378282246310005', '6011111111111117']);

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  authentication: '4000002500003155',
  alwaysAuthenticates: '4000002760003184',
} as const;

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function normaliseCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

export function cardOutcome(number: string, onSession: boolean): CardOutcome {
  if (!/^\d{13,19}$/.test(number) || !luhnValid(number)) return { kind: 'decline', decline: DECLINES.incorrectNumber };
  if (ALWAYS_OK.has(number)) return { kind: 'ok' };
  switch (number) {
    case '4000000000000002':
      return { kind: 'decline', decline: DECLINES.generic };
    case '4000000000009995':
      return { kind: 'decline', decline: DECLINES.insufficientFunds };
    case '4000000000000069':
      return { kind: 'decline', decline: DECLINES.expired };
    // Attaching works, every later charge is declined.
    case '4000000000000341':
      return onSession ? { kind: 'ok' } : { kind: 'decline', decline: DECLINES.generic };
    // Authenticates once on the page; Stripe lets later off-session charges through.
    case '4000002500003155':
      return onSession ? { kind: 'authenticate' } : { kind: 'ok' };
    // Asks for authentication every time, so it cannot be charged off-session.
    case '4000002760003184':
      return onSession
        ? { kind: 'authenticate' }
        : { kind: 'decline', decline: DECLINES.authenticationRequired };
    default:
      return { kind: 'decline', decline: DECLINES.notTestCard };
  }
}

/**
 * What charging a saved card does. Off-session (renewals, retries) the card's later-charge
 * behaviour decides. On-session (a subscription update without `off_session=true`, Stripe's
 * default) the buyer is deemed present: a card that asks for authentication on the page asks for
 * it here too, and one whose later charges fail still fails.
 */
export function savedCardOutcome(number: string, offSession: boolean): CardOutcome {
  const later = cardOutcome(number, false);
  if (offSession) return later;
  const present = cardOutcome(number, true);
  if (present.kind === 'ok' && later.kind === 'decline') return later;
  return present;
}

function brandOf(number: string): { brand: string; display: string } {
  if (number.startsWith('4')) return { brand: 'visa', display: 'visa' };
  if (/^(5[1-5]|2[2-7])/.test(number)) return { brand: 'mastercard', display: 'mastercard' };
  if (/^3[47]/.test(number)) return { brand: 'amex', display: 'american_express' };
  if (number.startsWith('6')) return { brand: 'discover', display: 'discover' };
  return { brand: 'unknown', display: 'unknown' };
}

export function cardDetails(card: CardInput): CardDetails {
  const { brand, display } = brandOf(card.number);
  return {
    brand,
    country: 'US',
    display_brand: display,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    fingerprint: createHash('sha256').update(card.number).digest('base64url').slice(0, 16),
    funding: 'credit',
    last4: card.number.slice(-4),
  };
}

export function createPaymentMethod(store: StripeStore, card: CardInput, customerId: string, email: string | null, at: number): PaymentMethod {
  const method: PaymentMethod = {
    id: store.newId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: null, email, name: card.name, phone: null },
    card: { ...cardDetails(card), checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' }, wallet: null },
    created: at,
    customer: customerId,
    livemode: false,
    metadata: {},
    type: 'card',
  };
  store.cardNumbers.set(method.id, card.number);
  return store.add(method);
}
