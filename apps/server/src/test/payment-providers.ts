/**
 * The payment providers as a buyer meets them in tests: the sandbox's Stripe reached through the
 * official SDK (as the product reaches it), its hosted checkout page paid by posting its form as a
 * browser would, and its webhook deliveries pointed at a listening app.
 */
import Stripe from 'stripe';
import type { SessionResponse } from '@ticket/contracts';
import { bearer, STRIPE_SECRET_KEY, type Sandbox, type TestContext } from './harness';

export const CARDS = { pays: '4242 4242 4242 4242', declined: '4000 0000 0000 0002', authenticates: '4000 0025 0000 3155' } as const;

/** The SDK pointed at the sandbox, as the product's own client is. */
export function sandboxStripe(sandbox: Sandbox): Stripe {
  const url = new URL(sandbox.url);
  return new Stripe(STRIPE_SECRET_KEY, { host: url.hostname, port: Number(url.port), protocol: 'http', telemetry: false });
}

/** Pays the hosted checkout page with a card; answers where the page sends the browser (the result page), or null. */
export async function payCheckout(sessionUrl: string, card: string = CARDS.pays, email = 'buyer@example.com'): Promise<{ status: number; location: string | null }> {
  const response = await fetch(`${sessionUrl}/pay`, { method: 'POST', body: new URLSearchParams({ email, cardNumber: card }), redirect: 'manual' });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location') };
}

/** Starts a card checkout for the server as the user, and pays it; answers the session id (the result page's token). */
export async function buyByCard(ctx: TestContext, token: string, serverId: string, type: 'premium' | 'enterprise' = 'premium', interval = 'monthly'): Promise<string> {
  const response = await ctx.built.app.inject({
    method: 'POST',
    url: `/api/payment/servers/${serverId}/subscription?provider=stripe`,
    headers: bearer(token),
    payload: { provider: 'stripe', type, interval },
  });
  if (response.statusCode !== 201) throw new Error(`checkout: ${response.statusCode} ${response.body}`);
  const { session } = response.json<SessionResponse>();
  const paid = await payCheckout(session.url);
  if (!paid.location) throw new Error(`the checkout page did not pay (${paid.status})`);
  return session.id;
}

/** Decides on PayPal's approval page (the sandbox's) as the buyer would; answers where it sends the browser. */
export async function decidePaypal(sandbox: Sandbox, approveUrl: string, decision: 'approve' | 'cancel' = 'approve'): Promise<string | null> {
  const baToken = new URL(approveUrl).searchParams.get('ba_token') ?? '';
  const response = await fetch(`${sandbox.url}/paypal/webapps/billing/subscriptions/consent`, {
    method: 'POST',
    body: new URLSearchParams({ ba_token: baToken, decision }),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return response.headers.get('location');
}

/**
 * A webhook delivery exactly as PayPal's (the sandbox's) sends it, signed: caught by a listener the
 * sandbox's webhook points at while `trigger` makes an event, so a test can send it on itself.
 */
export async function capturePaypalDelivery(sandbox: Sandbox, trigger: () => Promise<unknown>): Promise<{ payload: string; headers: Record<string, string> }> {
  const { createServer } = await import('node:http');
  const caught: { payload: string; headers: Record<string, string> }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.startsWith('paypal-') || name === 'content-type')) as Record<string, string>;
      caught.push({ payload: Buffer.concat(chunks).toString('utf8'), headers });
      response.statusCode = 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const config = (webhookUrl: string | null) =>
    fetch(`${sandbox.url}/_sandbox/paypal/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ webhookUrl }) });
  try {
    await config(`http://127.0.0.1:${port}/webhook`);
    await trigger();
    await fetch(`${sandbox.url}/_sandbox/paypal/deliveries/wait`, { method: 'POST' });
  } finally {
    await config(null);
    await new Promise((resolve) => server.close(resolve));
  }
  if (!caught[0]) throw new Error('PayPal delivered no event');
  return caught[0];
}
