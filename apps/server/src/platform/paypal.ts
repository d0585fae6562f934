import type { PaypalConfig } from '../config';

/** A PayPal REST answer that was not 2xx: its status and PayPal's error name. */
export class PaypalApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`PayPal answered ${status}: ${(body as { message?: string } | null)?.message ?? ''}`);
  }
}

export interface PaypalMoney {
  value: string;
  currency_code: string;
}

export interface PaypalSubscription {
  id: string;
  status: 'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';
  plan_id: string;
  custom_id?: string;
  start_time?: string;
  billing_info?: { next_billing_time?: string; last_payment?: { amount: PaypalMoney; time: string } };
  links?: { href: string; rel: string; method?: string }[];
}

export interface PaypalTransaction {
  id: string;
  status: string;
  amount_with_breakdown: { gross_amount: PaypalMoney };
  time: string;
}

/** The headers PayPal signs a webhook delivery with. */
export const PAYPAL_SIGNATURE_HEADERS = ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time'] as const;

/**
 * PayPal's REST API (OAuth client credentials, catalog, billing plans and subscriptions, webhook
 * signature verification), at PAYPAL_API_URL: PayPal's own, or the sandbox's in demo mode.
 */
export class PaypalClient {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(private readonly config: PaypalConfig) {}

  get configured(): boolean {
    return this.config.clientId !== '' && this.config.clientSecret !== '';
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now() + 30_000) return this.token.value;
    const basic = Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64');
    const response = await fetch(`${this.config.apiUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json().catch(() => null)) as { access_token?: string; expires_in?: number } | null;
    if (!response.ok || !body?.access_token) throw new PaypalApiError(response.status, body);
    this.token = { value: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 300) * 1000 };
    return body.access_token;
  }

  async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.config.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${await this.accessToken()}`, 'content-type': 'application/json', prefer: 'return=representation' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as unknown) : null;
    if (!response.ok) throw new PaypalApiError(response.status, parsed);
    return parsed as T;
  }

  /** Whether PayPal says it sent this event to our webhook (its verify-webhook-signature call). */
  async verifyWebhook(headers: Record<string, string | string[] | undefined>, event: unknown): Promise<boolean> {
    const header = (name: (typeof PAYPAL_SIGNATURE_HEADERS)[number]) => headers[name];
    if (PAYPAL_SIGNATURE_HEADERS.some((name) => typeof header(name) !== 'string') || !this.config.webhookId) return false;
    const answer = await this.request<{ verification_status: string }>('POST', '/v1/notifications/verify-webhook-signature', {
      auth_algo: header('paypal-auth-algo'),
      cert_url: header('paypal-cert-url'),
      transmission_id: header('paypal-transmission-id'),
      transmission_sig: header('paypal-transmission-sig'),
      transmission_time: header('paypal-transmission-time'),
      webhook_id: this.config.webhookId,
      webhook_event: event,
    });
    return answer.verification_status === 'SUCCESS';
  }
}

/** Cents from PayPal's decimal string amounts. */
export const centsOf = (money: PaypalMoney | undefined): number => (money ? Math.round(Number(money.value) * 100) : 0);
