import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticationFailure, isObject, oauthError } from './paypal-errors.ts';
import type { PaypalStore } from './paypal-store.ts';
import { PAYPAL_APP_ID, paypalTime, randomId } from './paypal-store.ts';

/** What PayPal answers: nine hours. */
const TOKEN_LIFETIME_S = 32_400;
const SCOPES = [
  'https://uri.paypal.com/services/invoicing',
  'https://uri.paypal.com/services/vault/payment-tokens/read',
  'https://uri.paypal.com/services/disputes/read-buyer',
  'https://uri.paypal.com/services/payments/realtimepayment',
  'https://uri.paypal.com/services/disputes/update-seller',
  'https://uri.paypal.com/services/payments/payment/authcapture',
  'openid',
  'https://uri.paypal.com/services/disputes/read-seller',
  'https://uri.paypal.com/services/payments/refund',
  'https://uri.paypal.com/services/billing-agreements',
  'https://uri.paypal.com/services/subscriptions',
  'https://uri.paypal.com/services/applications/webhooks',
  'https://uri.paypal.com/payments/payouts',
].join(' ');

function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** POST /v1/oauth2/token: client credentials in Basic auth, `grant_type=client_credentials` in the form body. */
export function registerPaypalOAuthRoutes(api: FastifyInstance, store: PaypalStore): void {
  api.post('/v1/oauth2/token', async (request) => {
    const credentials = basicCredentials(request.headers.authorization);
    if (!credentials || credentials.id !== store.config.clientId || credentials.secret !== store.config.clientSecret) {
      throw oauthError(401, 'invalid_client', 'Client Authentication failed');
    }
    const form = isObject(request.body) ? request.body : {};
    const query = request.query as Record<string, unknown>;
    const grantType = form.grant_type ?? query.grant_type;
    if (grantType === undefined || grantType === '') throw oauthError(400, 'unsupported_grant_type', 'Grant Type is NULL');
    if (grantType !== 'client_credentials') throw oauthError(400, 'unsupported_grant_type', 'unsupported grant_type');
    const accessToken = `A21AA${randomBytes(69).toString('base64url')}`;
    store.tokens.set(accessToken, store.tokenClock() + TOKEN_LIFETIME_S * 1000);
    return {
      scope: SCOPES,
      access_token: accessToken,
      token_type: 'Bearer',
      app_id: PAYPAL_APP_ID,
      expires_in: TOKEN_LIFETIME_S,
      nonce: `${paypalTime(store.now())}${randomId(43)}`,
    };
  });
}

/** Every REST call but the token one needs `Authorization: Bearer <access token>`. */
export function requireAccessToken(store: PaypalStore, request: FastifyRequest): void {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) throw authenticationFailure();
  const expiresAt = store.tokens.get(header.slice(7).trim());
  if (expiresAt === undefined) throw oauthError(401, 'invalid_token', 'Token signature verification failed');
  if (expiresAt <= store.tokenClock()) throw oauthError(401, 'invalid_token', 'Access Token not found in cache');
}
