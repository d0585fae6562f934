import Stripe from 'stripe';
import type { StripeConfig } from '../config';

/** Signed webhook deliveries older (or newer) than this are refused, as Stripe's own default. */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The official SDK, pointed at Stripe or, with STRIPE_API_URL, at a stand-in (the sandbox): the
 * SDK takes host, port and protocol and adds the API's own `/v1/…` paths.
 */
export function createStripe(config: StripeConfig): Stripe {
  const url = config.apiUrl ? new URL(config.apiUrl) : null;
  return new Stripe(config.secretKey || 'sk_unconfigured', {
    maxNetworkRetries: 1,
    timeout: 15_000,
    telemetry: false,
    ...(url
      ? {
          host: url.hostname,
          port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
          protocol: url.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** The Stripe id of an expandable field, whether it came expanded or as an id. */
export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

export { Stripe };
